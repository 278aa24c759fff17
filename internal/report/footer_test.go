package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

func TestResourceLine(t *testing.T) {
	if ResourceLine(nil) != "" {
		t.Error("no resources")
	}
	r := &summary.Resources{Server: &summary.ServerProcess{PID: 7, Name: "postgres"}, Samples: []summary.ResourceSample{
		{Tool: &summary.ProcessUsage{CPUPercent: 50, RSSBytes: 100 << 20}, Server: &summary.ProcessUsage{CPUPercent: 100, RSSBytes: 1 << 30},
			Host: &summary.HostUsage{CPUPercent: 50, Cores: 4, MemUsedBytes: 2 << 30}},
		{Tool: &summary.ProcessUsage{CPUPercent: 150, RSSBytes: 120 << 20}, Server: &summary.ProcessUsage{CPUPercent: 300, RSSBytes: 1 << 30},
			Host: &summary.HostUsage{CPUPercent: 100, Cores: 4, MemUsedBytes: 3 << 30}},
	}}
	line := ResourceLine(r)
	for _, want := range []string{"tool 1.00 cores mean, 1.50 peak", "server (postgres, pid 7) 2.00 cores mean, 3.00 peak", "host (4 cores) 3.00 cores mean, 4.00 peak"} {
		if !strings.Contains(line, want) {
			t.Errorf("%q lacks %q", line, want)
		}
	}
}

func TestFooter(t *testing.T) {
	var b bytes.Buffer
	Footer(&b, &summary.Summary{})
	if b.Len() != 0 {
		t.Errorf("a run without thresholds or samples: %q", b.String())
	}
	Footer(&b, &summary.Summary{Thresholds: []summary.ThresholdResult{
		{Expr: "errors==0", Passed: true, Actual: 0},
		{Expr: "INGESTION.p99<5ms", Reason: "no INGESTION operations"},
	}})
	want := "Thresholds:\n  passed  errors==0 (actual 0)\n  FAILED  INGESTION.p99<5ms (no INGESTION operations)\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
