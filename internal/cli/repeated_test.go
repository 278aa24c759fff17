package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// A flag of one value given twice with two values is refused before
// anything runs, naming both; the same value twice, the flags that
// collect, and what follows "--" are taken.
func TestRepeatedFlag(t *testing.T) {
	tests := []struct {
		args []string
		want string // "" when taken
	}{
		{[]string{"run", "--clients", "4", "--clients", "8"}, "--clients given twice (--clients=4, then --clients=8): give it once"},
		{[]string{"run", "--clients=4", "--target", "null", "--clients", "8"}, "--clients given twice (--clients=4, then --clients=8)"},
		{[]string{"run", "--clients", "4", "--clients=4"}, ""},
		{[]string{"run", "--quiet", "--quiet"}, ""},
		{[]string{"run", "--quiet", "--quiet=false"}, "--quiet given twice (--quiet, then --quiet=false)"},
		{[]string{"run", "--dashboard", "--dashboard=127.0.0.1:5665"}, ""},
		{[]string{"run", "--dashboard", "--dashboard=127.0.0.1:7000"}, "--dashboard given twice (--dashboard, then --dashboard=127.0.0.1:7000)"},
		{[]string{"run", "--set", "CLIENT_NUMBER=4", "--set", "BATCH_SIZE_PER_WRITE=5", "--threshold", "errors==0", "--threshold", "errors<1"}, ""},
		// A password never shows, in a URL of a key flag or of --results.
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
		err := repeatedArgs(newRoot(io.Discard, io.Discard), tt.args)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%q: refused: %v", tt.args, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%q: %v, want an error with %q", tt.args, err, tt.want)
		case err != nil && strings.Contains(err.Error(), "hunter"):
			t.Errorf("%q: the password shows: %v", tt.args, err)
		}
	}
}

// Main refuses it with exit 2 before the run starts.
func TestRepeatedFlagExit(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Main([]string{"run", "--target", "null", "--loop", "1", "--results", "off", "--clients", "4", "--clients", "8"}, &out, &errOut)
	if code != ExitUsage || !strings.Contains(errOut.String(), "--clients given twice") || strings.Contains(errOut.String(), "run ") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out.String(), errOut.String())
	}
}
