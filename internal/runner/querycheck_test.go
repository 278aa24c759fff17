package runner

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// A generated run ends with QUERY_CHECKS answers of every kind in its mix
// checked against the generator, all agreeing on a correct target.
func TestGeneratedRunChecksAnswers(t *testing.T) {
	s := run(t, "DB_SWITCH=sqlite", "DEVICE_NUMBER=3", "SENSOR_NUMBER=4", "CLIENT_NUMBER=2", "LOOP=40",
		"BATCH_SIZE_PER_WRITE=20", "QUERY_CHECKS=3")
	v := s.Verify
	if v == nil || !v.OK || len(v.Queries) != 3*len(ts.QueryKinds) {
		t.Fatalf("verify %+v: want %d checked answers", v, 3*len(ts.QueryKinds))
	}
	withPoints := 0
	for _, q := range v.Queries {
		if !q.OK || q.Error != "" || q.Window == "" {
			t.Errorf("check %+v", q)
		}
		if q.Points > 0 {
			withPoints++
		}
	}
	if withPoints < len(v.Queries)/2 || v.QueriesSeconds <= 0 {
		t.Fatalf("%d of %d checks had points, %v s: the checks must read real data", withPoints, len(v.Queries), v.QueriesSeconds)
	}
	if s.Verify.Mismatch() {
		t.Fatal("a run whose answers agree is a mismatch")
	}
}

// QUERY_CHECKS=0 checks nothing.
func TestNoQueryChecks(t *testing.T) {
	s := run(t, "DB_SWITCH=sqlite", "DEVICE_NUMBER=1", "SENSOR_NUMBER=6", "CLIENT_NUMBER=1", "LOOP=11", "QUERY_CHECKS=0")
	if s.Verify == nil || !s.Verify.OK || len(s.Verify.Queries) != 0 {
		t.Fatalf("verify %+v", s.Verify)
	}
}

// altered is a real target whose range queries return one value off: the
// checks must see it and fail verification.
type altered struct{ targets.Target }

func (a altered) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	r, err := a.Target.Query(ctx, q)
	if q.Kind == ts.TimeRange && r.Points > 0 {
		r.Sum += 1 + math.Abs(r.Sum)*1e-6 // beyond the comparison's relative 1e-9
	}
	return r, err
}

// Bind forwards to the real target, which binds its client connections to
// the schema the admin connection created.
func (a altered) Bind(ctx context.Context, s *ts.Schema) error {
	if b, ok := a.Target.(targets.Binder); ok {
		return b.Bind(ctx, s)
	}
	return nil
}

func TestAlteredAnswerFailsVerification(t *testing.T) {
	d := wrapped(t, func(conn targets.Target) targets.Target { return altered{conn} })
	s := runOn(t, d, "DB_SWITCH=sqlite", "DEVICE_NUMBER=2", "SENSOR_NUMBER=2", "CLIENT_NUMBER=1", "LOOP=22")
	if !s.Verify.OK || !s.Verify.Mismatch() {
		t.Fatalf("stored count OK %v, mismatch %v: the altered answers went unnoticed", s.Verify.OK, s.Verify.Mismatch())
	}
	bad := badChecks(s.Verify)
	if len(bad) == 0 || len(bad) != countKind(s.Verify, "TIME_RANGE") {
		t.Fatalf("disagreements %v: want every TIME_RANGE check and nothing else", bad)
	}
	if !strings.Contains(bad[0].Detail, "sum of values") || !strings.Contains(bad[0].Window, "devices [") {
		t.Fatalf("disagreement %+v does not say what differs and which query", bad[0])
	}
}

// wrapped is the sqlite target with every connection wrapped.
func wrapped(t *testing.T, wrap func(targets.Target) targets.Target) *targets.Driver {
	t.Helper()
	real, err := targets.Lookup("sqlite")
	if err != nil {
		t.Fatal(err)
	}
	d := *real
	d.Open = func(ctx context.Context, o targets.Options) (targets.Target, error) {
		conn, err := real.Open(ctx, o)
		if err != nil {
			return nil, err
		}
		return wrap(conn), nil
	}
	return &d
}

// failing is a real target whose first writes and queries fail, as a
// node down for a moment leaves them.
type failing struct {
	targets.Target
	writes, queries *atomic.Int64 // failures still to make
}

var errNodeDown = errors.New("connection refused")

func (f failing) Write(ctx context.Context, b *ts.Batch) error {
	if f.writes.Add(-1) >= 0 {
		return errNodeDown
	}
	return f.Target.Write(ctx, b)
}

func (f failing) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	if f.queries.Add(-1) >= 0 {
		return ts.Result{}, errNodeDown
	}
	return f.Target.Query(ctx, q)
}

func (f failing) Bind(ctx context.Context, s *ts.Schema) error {
	if b, ok := f.Target.(targets.Binder); ok {
		return b.Bind(ctx, s)
	}
	return nil
}

// Queries that failed during the run (a node down) leave the data whole:
// the answers are checked after it. A write given up leaves a hole among
// its device's rows, which the expected answers cannot know: the answers
// are checked on the other devices, saying so, or skipped, saying why,
// when every device has one.
func TestChecksAfterFailures(t *testing.T) {
	for _, c := range []struct {
		name            string
		writes, queries int64
		checked         bool
		on              string
	}{
		{"queries failed", 0, 3, true, ""},
		{"a write failed", 1, 0, true, "on the 1 devices whose every write was stored; 1 with a write failed for good left out"},
		{"a write failed on every device", 2, 0, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var writes, queries atomic.Int64
			writes.Store(c.writes)
			queries.Store(c.queries)
			d := wrapped(t, func(conn targets.Target) targets.Target { return failing{conn, &writes, &queries} })
			s := runOn(t, d, "DB_SWITCH=sqlite", "DEVICE_NUMBER=2", "SENSOR_NUMBER=2", "CLIENT_NUMBER=1", "LOOP=40",
				"QUERY_CHECKS=2", "RETRIES=0")
			if !s.Failed() || s.Verify == nil || !s.Verify.OK {
				t.Fatalf("failed %v, verify %+v: want failures and every acknowledged point stored", s.Failed(), s.Verify)
			}
			v := s.Verify
			if c.checked != (len(v.Queries) > 0) || len(badChecks(v)) > 0 || c.checked != (v.QueriesSkipped == "") {
				t.Fatalf("%d answers checked (%d wrong), skipped %q: want checked %v", len(v.Queries), len(badChecks(v)), v.QueriesSkipped, c.checked)
			}
			if !c.checked && !strings.Contains(v.QueriesSkipped, "2 writes failed for good, on every device") {
				t.Errorf("skipped %q: want the failed writes named", v.QueriesSkipped)
			}
			if v.QueriesOn != c.on {
				t.Errorf("checked %q, want %q", v.QueriesOn, c.on)
			}
			for _, q := range v.Queries {
				if c.on != "" && strings.Contains(q.Window, "d_0") {
					t.Errorf("answer %+v checked on the device whose write failed", q)
				}
			}
		})
	}
}

func badChecks(v *summary.Verify) []summary.QueryCheck {
	var out []summary.QueryCheck
	for _, q := range v.Queries {
		if !q.OK {
			out = append(out, q)
		}
	}
	return out
}

func countKind(v *summary.Verify, kind string) int {
	n := 0
	for _, q := range v.Queries {
		if q.Query == kind {
			n++
		}
	}
	return n
}
