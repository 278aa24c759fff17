package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// flakyCounter answers its counts with errs in turn, then with n.
type flakyCounter struct {
	targets.Target
	errs  []error
	n     int64
	calls int
}

func (f *flakyCounter) Count(context.Context, ts.CountRange) (int64, error) {
	f.calls++
	if f.calls <= len(f.errs) {
		return 0, f.errs[f.calls-1]
	}
	return f.n, nil
}

// Verification counts again after a failure that passes (a connection,
// a timeout: a node just back, a ring catching one up), at most four
// counts in all, and says what failed first; a refusal is not counted
// again.
func TestVerifyCountsAgainAfterPassingFailures(t *testing.T) {
	conn := fmt.Errorf("count: %w", targets.ErrConnection)
	timeout := fmt.Errorf("count: %w", context.DeadlineExceeded)
	refused := errors.New("count: permission denied")
	for _, c := range []struct {
		name     string
		errs     []error
		calls    int
		failures int
		err      string
	}{
		{"first count", nil, 1, 0, ""},
		{"a connection, then a timeout", []error{conn, timeout}, 3, 2, ""},
		{"four that pass", []error{conn, conn, timeout, timeout}, 4, 3, "deadline exceeded"},
		{"a refusal", []error{refused}, 1, 0, "permission denied"},
		{"a connection, then a refusal", []error{conn, refused}, 2, 1, "permission denied"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := config.FromArgs("DB_SWITCH=null")
			if err != nil {
				t.Fatal(err)
			}
			d, err := targets.Lookup("null")
			if err != nil {
				t.Fatal(err)
			}
			r, err := New(cfg, d, targets.Options{Database: "test", DataDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			f := &flakyCounter{errs: c.errs, n: 40}
			v := &summary.Verify{ExpectedPoints: 40}
			r.verify(t.Context(), f, nil, v)
			if f.calls != c.calls || len(v.CountFailures) != c.failures {
				t.Fatalf("%d counts, %d failures noted (%q); want %d and %d", f.calls, len(v.CountFailures), v.CountFailures, c.calls, c.failures)
			}
			if c.err == "" && (!v.OK || v.StoredPoints != 40) || c.err != "" && !strings.Contains(v.Error, c.err) {
				t.Fatalf("verify %+v, want error %q", v, c.err)
			}
		})
	}
}
