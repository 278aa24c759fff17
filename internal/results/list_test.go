package results

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestRuns(t *testing.T) {
	loc, err := ParseLocation("", "/d/db")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := PrintRuns(&b, nil, loc); err != nil || b.String() != "No runs in /d/db.\n" {
		t.Errorf("empty: %q %v", b.String(), err)
	}
	b.Reset()
	one := 1
	runs := []RunInfo{
		{ID: "r2", Started: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), Target: "sqlite", Operation: "INGESTION", Throughput: 1234567.5, P99MS: 1.25, Status: "ok", Group: "g", WorkerIndex: &one},
		{ID: "r1", Target: "null", Status: "failed"},
	}
	if err := PrintRuns(&b, runs, loc); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"GROUP", "1,234,567.50", "g worker 1", "2026-03-01 12:00:00", "2 run(s) from /d/db"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("%q lacks %q", b.String(), want)
		}
	}
	if groupCell(RunInfo{Group: "g"}) != "g merged" || groupCell(RunInfo{}) != "-" {
		t.Error("groupCell")
	}
}

func TestMonitorSessionsAndJSON(t *testing.T) {
	loc, _ := ParseLocation("", "/d/db")
	var b bytes.Buffer
	err := PrintMonitorSessions(&b, []MonitorSession{{ID: "mon-1", Hostname: "db", ServerPID: 7, ServerName: "postgres", Samples: 3}}, loc)
	if err != nil || !strings.Contains(b.String(), "postgres pid 7") || !strings.Contains(b.String(), "1 session(s) in") {
		t.Errorf("%q %v", b.String(), err)
	}
	b.Reset()
	if err := PrintJSON[RunInfo](&b, nil); err != nil || b.String() != "[]\n" {
		t.Errorf("an empty list: %q %v", b.String(), err)
	}
}
