package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResultsSpec(t *testing.T) {
	t.Setenv(resultsEnv, "")
	if spec, def, off := resultsSpec("", "/d"); spec != "" || def != filepath.Join("/d", "results.db") || off {
		t.Errorf("default: %q %q %v", spec, def, off)
	}
	t.Setenv(resultsEnv, "postgres://u@h/db")
	if spec, _, _ := resultsSpec("", "/d"); spec != "postgres://u@h/db" {
		t.Errorf("from the environment: %q", spec)
	}
	if spec, _, _ := resultsSpec("/x.db", "/d"); spec != "/x.db" {
		t.Errorf("the flag wins: %q", spec)
	}
	if _, _, off := resultsSpec("off", "/d"); !off {
		t.Error("off")
	}
}

// The commands are registered, and a store that does not exist yet is
// reported as such rather than created by a read.
func TestRunsWithoutStore(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(resultsEnv, "")
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
