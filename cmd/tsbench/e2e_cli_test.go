package main

import (
	"os/exec"
	"strings"
	"testing"
)

// --version names the commit the binary was built from (stamped by go
// build in a git checkout) and its date.
func TestVersionNamesTheCommit(t *testing.T) {
	inParallel(t)
	r := tsbench(t, nil, "--version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "tsbench ") {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatalf("this test runs in a git checkout (as CI does): %v", err)
	}
	if commit := strings.TrimSpace(string(head))[:12]; !strings.Contains(r.stdout, "commit "+commit) || !strings.Contains(r.stdout, "committed 20") {
		t.Fatalf("--version = %q, want commit %s and its date", r.stdout, commit)
	}
	if v := tsbench(t, nil, "version"); v.stdout != r.stdout {
		t.Errorf("version = %q, --version = %q", v.stdout, r.stdout)
	}
}

// tsbench completion SHELL writes a script for each shell, and the dynamic
// completions offer targets (also after a comma), scenarios and run ids.
func TestCompletion(t *testing.T) {
	inParallel(t)
	for _, shell := range []string{"bash", "zsh", "fish"} {
		r := tsbench(t, nil, "completion", shell)
		if r.code != 0 || !strings.Contains(r.stdout, "tsbench") || len(r.stdout) < 500 {
			t.Errorf("completion %s: exit %d, %d bytes", shell, r.code, len(r.stdout))
		}
	}
	dir := t.TempDir()
	env := []string{"TSBENCH_DATA_DIR=" + dir, "TSBENCH_RESULTS="}
	run := tsbench(t, env, "run", "--target", "null", "--loop", "5", "--quiet")
	if run.code != 0 {
		t.Fatalf("run: exit %d %s", run.code, run.stderr)
	}
	id, _ := storedRun(t, run)
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "run", "--target", "sq"}, []string{"sqlite\t", "postgres\t"}},
		{[]string{"__complete", "run", "--scenario", "iotdb,", "--target", "iotdb,"}, []string{"iotdb,kairosdb\t"}},
		{[]string{"__complete", "run", "--scenario", ""}, []string{"iotdb-crrc\t", "das-events\t"}},
		{[]string{"__complete", "report", ""}, []string{"latest\t", id + "\t"}},
		{[]string{"__complete", "runs", "show", ""}, []string{id + "\t"}},
	}
	for _, c := range cases {
		r := tsbench(t, env, c.args...)
		for _, w := range c.want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%v: no %q in\n%s", c.args, w, r.stdout)
			}
		}
	}
}
