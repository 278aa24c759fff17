package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/runner"
	_ "github.com/tsbench/tsbench/internal/targets/all"
	_ "github.com/tsbench/tsbench/internal/targets/null"
	_ "github.com/tsbench/tsbench/internal/targets/sqlite"
)

func TestCheckStatus(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""}, {"ok", ""}, {"threshold-failed", ""}, {"running", ""},
		{"okk", `--status "okk": unknown status (did you mean ok?)`},
		{"faild", "did you mean failed?"},
		{"bogus", `--status "bogus": unknown status; allowed: ok, failed`},
	}
	for _, tt := range tests {
		err := checkStatus(tt.in)
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%q: %v, want %q", tt.in, err, tt.want)
		}
	}
}

// Inputs that would do nothing exit 2 before any work, naming the input
// and, where one is near, what was meant.
func TestInputsExitTwo(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--clinets", "3"}, "unknown flag: --clinets (did you mean --clients?)"},
		{[]string{"run", "--device_number", "3"}, "--set DEVICE_NUMBER=VALUE"},
		{[]string{"runs", "--limt", "3"}, "did you mean --limit?"},
		{[]string{"run", "--scale", "0.1"}, "--scale applies only to a scenario run"},
		{[]string{"run", "--variant", "week"}, "--variant applies only to a scenario run"},
		{[]string{"run", "--repeat", "2"}, "--repeat applies only"},
		{[]string{"run", "--server-cores", "8"}, "--server-cores applies only"},
		{[]string{"run", "--target", "null", "--set", "target.wrte_path=copy"}, "target null takes no target options"},
		{[]string{"run", "--target", "null", "--threshold", "INGESTON.p99<50ms"}, "did you mean INGESTION?"},
		{[]string{"run", "--target", "null", "--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0", "--threshold", "TIME_RANGE.p99<5ms"},
			"gives TIME_RANGE weight 0"},
		{[]string{"run", "--target", "null", "--set", "OPERATION_PROPORTION=1:1", "--strict"}, "--strict: 1 warning(s) refused"},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		code := Main(tt.args, &out, &errb)
		if code != ExitUsage || !strings.Contains(errb.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, errb.String(), tt.want)
		}
	}
}

func TestPrintWarningsListsIgnoredKeysOnce(t *testing.T) {
	ws := []string{
		"a.properties:3: TEST_DATA_PERSISTENCE accepted, ignored: tsbench keeps every run",
		"a.properties:4: LOOP set again (first at a.properties:2); the last value counts",
		"a.properties:5: IS_COPY_MODE accepted, ignored: copy modes are not supported",
	}
	var b bytes.Buffer
	if err := printWarnings(&b, ws, false); err != nil {
		t.Fatal(err)
	}
	want := "tsbench: warning: 2 IoT-benchmark key(s) accepted but not used by tsbench (--strict refuses them):\n" +
		"  a.properties:3: TEST_DATA_PERSISTENCE: tsbench keeps every run\n" +
		"  a.properties:5: IS_COPY_MODE: copy modes are not supported\n" +
		"tsbench: warning: a.properties:4: LOOP set again (first at a.properties:2); the last value counts\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if err := printWarnings(&b, ws, true); err == nil || !strings.Contains(err.Error(), "3 warning(s) refused") {
		t.Errorf("strict: %v", err)
	}
}

// The progress line shows the time left when the duration ends the run and
// the share of LOOP when LOOP does; with both, the one projected first.
func TestSnapshotBound(t *testing.T) {
	tests := []struct {
		name      string
		tick      runner.Tick
		wantTotal bool // shows % of LOOP
	}{
		{"duration alone", runner.Tick{Elapsed: time.Second, DoneOps: 10, Deadline: 5 * time.Second}, false},
		{"loop alone", runner.Tick{Elapsed: time.Second, DoneOps: 10, TotalOps: 100, LoopBound: true}, true},
		{"loop first", runner.Tick{Elapsed: time.Second, DoneOps: 50, TotalOps: 100, Deadline: 30 * time.Second, LoopBound: true}, true},
		{"duration first", runner.Tick{Elapsed: time.Second, DoneOps: 1, TotalOps: 100, Deadline: 2 * time.Second, LoopBound: true}, false},
	}
	for _, tt := range tests {
		tt.tick.P99MS = 1.5
		s := snapshot(tt.tick)
		if (s.Total > 0) != tt.wantTotal {
			t.Errorf("%s: Total %v, TimeLeft %v", tt.name, s.Total, s.TimeLeft)
		}
		if s.P99MS != 1.5 {
			t.Errorf("%s: p99 not passed on", tt.name)
		}
	}
}
