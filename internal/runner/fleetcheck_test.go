package runner

import (
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/tsbs"
)

// tsbsRun runs a TSBS phase's configuration (args, then tsbs.Apply) on
// SQLite in dir, with prior rows per truck already stored.
func tsbsRun(t *testing.T, dir string, prior int64, args ...string) *summary.Summary {
	t.Helper()
	c := config.Default()
	for _, a := range append([]string{"DB_SWITCH=sqlite"}, args...) {
		if err := config.SetArg(c, a); err != nil {
			t.Fatal(err)
		}
	}
	if err := tsbs.Apply(c); err != nil {
		t.Fatal(err)
	}
	if err := config.Resolve(c); err != nil {
		t.Fatal(err)
	}
	return runConfig(t, c, nil, dir, prior)
}

// A fleet question's answer reads every truck: a single process checks it
// against the generator, while a worker of several, which knows only its
// own trucks' rows, checks none and says why (rather than comparing the
// whole fleet's answer with its share's).
func TestFleetChecksNeedEveryTruck(t *testing.T) {
	dir := t.TempDir()
	common := []string{"TSBS_USE_CASE=iot", "TSBS_SCALE=4", "TSBS_END=2016-01-01T01:00:00Z", "TSBS_QUERIES=2",
		"QUERY_CHECKS=2", "CLIENT_NUMBER=2"}
	if s := tsbsRun(t, dir, 0, append(common, "TSBS_PHASE=load")...); s.Verify == nil || !s.Verify.OK {
		t.Fatalf("load: verify %+v", s.Verify)
	}
	const rows = 360 // an hour at TSBS's 10 s
	one := tsbsRun(t, dir, rows, append(common, "TSBS_PHASE=avg-load")...)
	if v := one.Verify; v == nil || len(v.Queries) != 2 || !v.Queries[0].OK || !v.Queries[0].Answered() || v.Queries[0].Points == 0 {
		t.Fatalf("one process: %+v, want 2 answered checks with rows", v)
	}
	w := tsbsRun(t, dir, rows, append(common, "TSBS_PHASE=avg-load", "WORKERS=2", "WORKER_INDEX=0", "RUN_GROUP=fleet")...)
	if v := w.Verify; v == nil || len(v.Queries) != 0 || v.QueriesSkipped == "" {
		t.Fatalf("worker 0 of 2: %+v, want no check and the reason", v)
	}
}
