package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// A flag of one value given twice with two values is named, both values
// shown; the same value twice, the flags that collect, and what follows
// "--" say nothing.
func TestRepeatedFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string // "" when nothing is said
	}{
		{[]string{"run", "--clients", "4", "--clients", "8"}, "--clients given twice (--clients=4, then --clients=8); the last counts"},
		{[]string{"run", "--clients=4", "--target", "null", "--clients", "8"}, "--clients given twice (--clients=4, then --clients=8)"},
		{[]string{"run", "--clients", "4", "--clients=4"}, ""},
		{[]string{"run", "--quiet", "--quiet"}, ""},
		{[]string{"run", "--quiet", "--quiet=false"}, "--quiet given twice (--quiet, then --quiet=false)"},
		{[]string{"run", "--dashboard", "--dashboard=127.0.0.1:5665"}, ""},
		{[]string{"run", "--dashboard", "--dashboard=127.0.0.1:7000"}, "--dashboard given twice (--dashboard, then --dashboard=127.0.0.1:7000)"},
		{[]string{"run", "--set", "CLIENT_NUMBER=4", "--set", "BATCH_SIZE_PER_WRITE=5", "--threshold", "errors==0", "--threshold", "errors<1"}, ""},
		// A password never shows, in a URL of a key flag or of --results,
		// and two passwords are two values.
		{[]string{"run", "--target-url", "postgres://u:hunter2@h/db", "--target-url", "postgres://u:hunter3@h/db"},
			"(--target-url=postgres://u:***@h/db, then --target-url=postgres://u:***@h/db)"},
		{[]string{"run", "--results", "postgres://u:hunter2@h/db", "--results=off"}, "(--results=postgres://u:***@h/db, then --results=off)"},
		// A value that looks like the flag is the value.
		{[]string{"run", "--workload", "--clients", "--clients", "8"}, ""},
		{[]string{"run", "--clients", "4", "--", "--clients", "8"}, ""},
		{[]string{"report", "-o", "a.html", "--output", "b.html"}, "--output given twice (--output=a.html, then --output=b.html)"},
		{[]string{"report", "-oa.html", "-o=a.html"}, ""},
	}
	for _, tt := range tests {
		cmd, rest, err := newRoot(io.Discard, io.Discard).Find(tt.args)
		if err != nil {
			t.Fatal(err)
		}
		repeats, _ := repeatedFlags(cmd, rest)
		got := strings.Join(repeats, "\n")
		switch {
		case tt.want == "" && got != "":
			t.Errorf("%q: %s", tt.args, got)
		case !strings.Contains(got, tt.want) || (tt.want != "" && len(repeats) != 1):
			t.Errorf("%q: %q, want one with %q", tt.args, got, tt.want)
		case strings.Contains(got, "hunter"):
			t.Errorf("%q: the password shows: %s", tt.args, got)
		}
	}
}

// Main warns before the run and runs with the last value; with --strict
// it exits 2 before anything runs.
func TestRepeatedFlagsWarnOrRefuse(t *testing.T) {
	args := []string{"run", "--target", "null", "--print-config", "--clients", "4", "--clients", "8"}
	var out, errOut bytes.Buffer
	code := Main(args, &out, &errOut)
	if code != ExitOK || !strings.Contains(errOut.String(), "tsbench: warning: --clients given twice (--clients=4, then --clients=8); the last counts") ||
		!strings.Contains(out.String(), "clients: 8\n") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out.String(), errOut.String())
	}
	out.Reset()
	errOut.Reset()
	code = Main(append(args, "--strict"), &out, &errOut)
	if code != ExitUsage || !strings.Contains(errOut.String(), "--strict: 1 warning(s) refused:\n  --clients given twice") || out.Len() != 0 {
		t.Fatalf("--strict: exit %d\nstdout: %s\nstderr: %s", code, out.String(), errOut.String())
	}
}
