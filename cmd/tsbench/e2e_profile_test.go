package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// --cpuprofile and --memprofile write tsbench's own profiles in pprof
// format: go tool pprof reads them and finds tsbench's generator and
// clients in them. An unwritable path is bad input, named with its flag.
func TestProfileFlags(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	r := tsbench(t, nil, "run", "--target", "null", "--quiet", "--data-dir", dir, "--loop", "20000",
		"--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0", "--cpuprofile", cpu, "--memprofile", mem)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, c := range []struct{ file, flag, want string }{
		{cpu, "--cpuprofile", "tsbench/internal/gen."},
		{mem, "--memprofile", "tsbench/internal/"},
	} {
		if !strings.Contains(r.stderr, c.flag+" written to "+c.file) {
			t.Errorf("no line saying where %s went:\n%s", c.flag, r.stderr)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		out, err := exec.CommandContext(ctx, "go", "tool", "pprof", "-top", binary, c.file).CombinedOutput()
		cancel()
		if err != nil || !strings.Contains(string(out), c.want) {
			t.Errorf("go tool pprof -top %s: %v, want %q in:\n%s", c.file, err, c.want, out)
		}
	}
	bad := tsbench(t, nil, "run", "--target", "null", "--quiet", "--data-dir", dir, "--cpuprofile", filepath.Join(dir, "no", "such", "dir", "p"))
	if bad.code != 2 || !strings.Contains(bad.stderr, "--cpuprofile") {
		t.Fatalf("exit %d, want 2 naming --cpuprofile:\n%s", bad.code, bad.stderr)
	}
}
