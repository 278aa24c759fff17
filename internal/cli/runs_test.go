package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/results"
)

// The commands are registered, and a store that does not exist yet is
// reported as such rather than created by a read.
func TestRunsWithoutStore(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(results.Env, "")
	var out, errb bytes.Buffer
	code := Main([]string{"runs", "--data-dir", dir}, &out, &errb)
	if code != ExitFailure || !strings.Contains(errb.String(), "no results store at "+filepath.Join(dir, "results.db")) {
		t.Errorf("exit %d: %s", code, errb.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "results.db")); err == nil {
		t.Error("listing created the store")
	}
	for _, args := range [][]string{{"report", "--help"}, {"compare", "--help"}, {"monitor", "--help"}, {"runs", "export", "--help"}} {
		out.Reset()
		if code := Main(args, &out, &errb); code != 0 || !strings.Contains(out.String(), "Usage:") {
			t.Errorf("%v: exit %d", args, code)
		}
	}
	if code := Main([]string{"monitor"}, &out, &errb); code != ExitUsage {
		t.Errorf("monitor without --out: exit %d", code)
	}
	if code := Main([]string{"compare", "a"}, &out, &errb); code != ExitUsage {
		t.Errorf("compare with one run: exit %d", code)
	}
}
