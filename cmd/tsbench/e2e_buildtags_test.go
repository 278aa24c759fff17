package main

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
)

// A target this build left out (duckdb without the build tag duckdb) is
// refused, exit 2, with the build command, by --target and by a list of
// targets, and `tsbench targets` lists it with that command; a binary
// built with every tag (CI's) lists none so.
func TestLeftOutTargetRefused(t *testing.T) {
	inParallel(t)
	list := tsbench(t, nil, "targets")
	if list.code != 0 {
		t.Fatalf("targets: exit %d, %s", list.code, list.stderr)
	}
	left := targets.LeftOuts()
	if len(left) == 0 && strings.Contains(list.stdout, "not in this binary") {
		t.Errorf("every target is built in, yet targets says:\n%s", list.stdout)
	}
	for _, l := range left {
		if !strings.Contains(list.stdout, "not in this binary: "+l.Build()) {
			t.Errorf("targets does not list %s with its build command:\n%s", l.Name, list.stdout)
		}
		for _, target := range []string{l.Name, "sqlite," + l.Name} {
			r := tsbench(t, nil, "run", "--target", target, "--data-dir", t.TempDir(), "--duration", "1s")
			if r.code != 2 || !strings.Contains(r.stderr, `built in only with the build tag "`+l.Tag+`" (`+l.Build()) {
				t.Errorf("--target %s: exit %d, stderr %q; want 2 and the build tag named", target, r.code, r.stderr)
			}
		}
	}
}
