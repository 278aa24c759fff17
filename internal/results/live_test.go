package results

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// Storing off is a nil Store that does nothing; a store keeps the run as
// it goes and the finished run replaces it, with the line that says where.
func TestStoreKeepsTheRun(t *testing.T) {
	var stderr bytes.Buffer
	off := OpenLive("off", t.TempDir(), &stderr)
	if off != nil {
		t.Fatal("--results off opened a store")
	}
	off.Begin(&summary.Summary{})
	off.Interval(0, summary.Interval{})
	off.Abandon("r")
	if off.Finish(&summary.Summary{}) != "" {
		t.Error("an off store stored")
	}

	path := filepath.Join(t.TempDir(), "db")
	ls := OpenLive(path, "", &stderr)
	if st, _ := ls.Results(); st == nil {
		t.Fatalf("not opened: %s", stderr.String())
	}
	start := time.Now().UTC()
	ls.Begin(&summary.Summary{SchemaVersion: summary.SchemaVersion, RunID: "r1", Target: "null", Started: start, StopReason: "running"})
	ls.Interval(0, summary.Interval{Seconds: 1})
	done := &summary.Summary{SchemaVersion: summary.SchemaVersion, RunID: "r1", Target: "null", Started: start, StopReason: "loop",
		ResultsDir: t.TempDir()}
	line := ls.Finish(done)
	if !strings.HasPrefix(line, "Stored: run r1 in "+path) || !strings.Contains(line, "--results '"+path+"'") {
		t.Errorf("line %q", line)
	}
	loc, _ := ParseLocation(path, "")
	st, err := Open(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, err := st.Get(context.Background(), "r1")
	if err != nil || got.StopReason != "loop" {
		t.Errorf("stored %+v, %v", got, err)
	}
	got.Scenario = "amended"
	SaveAgain(path, "", got, &stderr)
	if again, err := st.Get(context.Background(), "r1"); err != nil || again.Scenario != "amended" {
		t.Errorf("saved again: %+v %v", again, err)
	}
}
