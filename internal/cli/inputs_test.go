package cli

import (
	"bytes"
	"strings"
	"testing"

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
		{[]string{"run", "--repeat", "0"}, "--repeat = 0: must be >= 1"},
		{[]string{"run", "--repeat", "2", "--target", "sqlite,duckdb"}, "repeat one target at a time"},
		{[]string{"run", "--server-cores", "8"}, "--server-cores applies only"},
		{[]string{"run", "--target", "sqlite", "--set", "target.wrte_path=copy"}, "target sqlite takes no target options"},
		{[]string{"run", "--target", "null", "--set", "target.service_time=fast"}, "target.service_time = \"fast\": null: a duration from 0 to 1m, such as 10ms"},
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
