package threshold

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

func run() *summary.Summary {
	return &summary.Summary{Operations: []summary.Operation{
		{Name: "INGESTION", OKOperations: 100, Throughput: 250000, FailOperations: 2,
			LatencyMS: summary.Latency{Avg: 3, Min: 1, P50: 2.5, P99: 40, Max: 90}},
		{Name: "TIME_RANGE", OKOperations: 10, LatencyMS: summary.Latency{P99: 7}},
	}}
}

func TestEvaluate(t *testing.T) {
	cases := []struct {
		expr   string
		passed bool
		actual float64
	}{
		{"INGESTION.p99<50ms", true, 40},
		{"INGESTION.p99<50", true, 40},
		{"INGESTION.p99 < 0.03s", false, 40},
		{"ingestion.max<=90000us", true, 90},
		{"INGESTION.throughput>100000", true, 250000},
		{"INGESTION.throughput>=300000", false, 250000},
		{"errors==0", false, 2},
		{"errors<=2", true, 2},
		{"TIME_RANGE.p99!=7", false, 7},
		{"INGESTION.fail_operations==2", true, 2},
		{"INGESTION.median<3", true, 2.5},
	}
	for _, c := range cases {
		th, err := Parse(c.expr)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		r := th.Evaluate(run())
		if r.Passed != c.passed || r.Actual != c.actual {
			t.Errorf("%s: passed=%v actual=%v, want %v %v", c.expr, r.Passed, r.Actual, c.passed, c.actual)
		}
	}
	// A threshold on an operation the run did not do fails with a reason.
	th, _ := Parse("GROUP_BY.p99<10ms")
	if r := th.Evaluate(run()); r.Passed || !strings.Contains(r.Reason, "no GROUP_BY") {
		t.Fatalf("missing operation: %+v", r)
	}
}

func TestParseErrors(t *testing.T) {
	for _, expr := range []string{"", "p99<50ms", "INGESTION.p98<5", "INGESTION.p99<<5", "INGESTION.p99<fast",
		"INGESTION.throughput>5ms", "INGESTION.p99<5h"} {
		if _, err := Parse(expr); err == nil || !strings.Contains(err.Error(), "threshold") {
			t.Errorf("Parse(%q) = %v, want a threshold error", expr, err)
		}
	}
}

// An unknown operation or metric is refused when the threshold is read,
// with the nearest name, instead of failing after the whole run.
func TestParseUnknownNames(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"INGESTON.p99<50ms", `unknown operation "INGESTON" (did you mean INGESTION?)`},
		{"time_rang.p99<5ms", `unknown operation "time_rang" (did you mean TIME_RANGE?)`},
		{"FOO.p99<5ms", `unknown operation "FOO"; allowed: INGESTION, PRECISE_POINT`},
		{"INGESTION.avgg<5ms", `unknown metric "avgg" (did you mean avg?)`},
		{"INGESTION.thruput>5", `unknown metric "thruput"`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.expr)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.expr, err, tt.want)
		}
	}
	for _, op := range Operations {
		if _, err := Parse(op + ".p99<5ms"); err != nil {
			t.Errorf("%s: %v", op, err)
		}
	}
}

// A TPC-C run's thresholds name its transactions and its tpmC; a TSBS
// query file's name its query types, in double quotes where they are not
// words; a time series run's refuse both.
func TestParseAmong(t *testing.T) {
	tx := []string{"NEW_ORDER", "PAYMENT", "ORDER_STATUS", "DELIVERY", "STOCK_LEVEL"}
	for _, c := range []struct {
		expr string
		ops  []string
		tpcc bool
		want string // the operation; "!" = refused
	}{
		{"NEW_ORDER.p90<50ms", tx, true, "NEW_ORDER"},
		{"new_order.p90<50ms", tx, true, "NEW_ORDER"},
		{"tpmC>1000", tx, true, ""},
		{"tpmTotal>=1200", tx, true, ""},
		{"INGESTION.p99<5ms", tx, true, "!"},
		{"tpmC>1000", []string{"a"}, false, "!"},
		{"NEW_ORDER.tpmC>1", tx, true, "!"},
		{`"TimescaleDB max of all CPU metrics, random    8 hosts".p99<2s`, []string{"TimescaleDB max of all CPU metrics, random    8 hosts"}, false,
			"TimescaleDB max of all CPU metrics, random    8 hosts"},
	} {
		th, err := ParseAmong(c.expr, c.ops, c.tpcc)
		switch {
		case c.want == "!" && err == nil:
			t.Errorf("%s: accepted as %+v", c.expr, th)
		case c.want != "!" && (err != nil || th.Operation != c.want):
			t.Errorf("%s: %+v, %v; want operation %q", c.expr, th, err, c.want)
		}
	}
	if _, err := Parse("tpmC>1000"); err == nil || !strings.Contains(err.Error(), "TPC-C") {
		t.Errorf("a time series run took tpmC: %v", err)
	}
	th, _ := ParseAmong("tpmC>1000", tx, true)
	s := &summary.Summary{TPCC: &summary.TPCC{TpmC: 1200}}
	if r := th.Evaluate(s); !r.Passed || r.Actual != 1200 {
		t.Errorf("tpmC>1000 on 1200: %+v", r)
	}
	if r := th.Evaluate(run()); r.Passed || !strings.Contains(r.Reason, "not a TPC-C run") {
		t.Errorf("tpmC on a time series run: %+v", r)
	}
}
