package promrun

import (
	"context"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/promshape"
	"github.com/tsbench/tsbench/internal/remotewrite"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/promql"
)

// runDigests runs the test shape, planned at now under job, on a store
// answering the model's answers but for the query named wrong, and
// returns each query's digest.
func runDigests(t *testing.T, now time.Time, jobLabel, wrong string) map[string]string {
	t.Helper()
	c := Plan(Config{Shape: promshape.Config{Targets: 4, Interval: time.Second, ChurnShare: 0.5, ChurnPeriod: 5 * time.Second, Seed: 1},
		Scrapes: 20, ReadTimeout: time.Second, Engine: promql.EnginePrometheus}, now, jobLabel)
	r, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	f := newFakeStore(t, r, wrong)
	eng := engine.New(engine.Config{Names: Names, PlanEnd: "queries"}, engine.Hooks{})
	workers := r.Open([]targets.PromStore{f, f})
	eng.Run(context.Background(), workers, eng.Handles(len(workers)))
	out := map[string]string{}
	for _, q := range r.Verify(context.Background(), f).Queries {
		out[q.Query] = q.Digest
	}
	return out
}

// Two runs of one shape, an hour apart under two job labels, answer
// alike: every query's digest is the same. A wrong answer changes its
// query's digest, and only that one.
func TestDigestsAgreeAcrossRunsAndCatchADifference(t *testing.T) {
	at := time.UnixMilli(1_700_000_000_500)
	a := runDigests(t, at, "tsbench-a", "")
	b := runDigests(t, at.Add(time.Hour+1234*time.Millisecond), "tsbench-b", "")
	w := runDigests(t, at, "tsbench-c", "NodeLoadHigh")
	if n := readLoadOf(t).total(); int64(len(a)) != n {
		t.Fatalf("%d digests, want %d: %v", len(a), n, a)
	}
	for q, d := range a {
		if d == "" || b[q] != d {
			t.Errorf("%s: %q and %q", q, d, b[q])
		}
		if (w[q] != d) != (q == "NodeLoadHigh") {
			t.Errorf("%s with NodeLoadHigh wrong: %q, right %q", q, w[q], d)
		}
	}
}

// The digest blanks the run's job label only, counts a range's times from
// the start and an instant's time as given.
func TestDigestNormalizes(t *testing.T) {
	ls := func(job string) []remotewrite.Label {
		return []remotewrite.Label{{Name: "instance", Value: "i"}, {Name: "job", Value: job}}
	}
	v := func(job string) promshape.Vector { return promshape.Vector{{Labels: ls(job), Value: 2}} }
	if digestVector(v("r1"), 5, "r1") != digestVector(v("r2"), 5, "r2") {
		t.Error("the run's job label is not blanked")
	}
	if digestVector(v("other"), 5, "r1") == digestVector(v("r1"), 5, "r1") {
		t.Error("another job's label is blanked")
	}
	if digestVector(v("r1"), 5, "r1") == digestVector(v("r1"), 6, "r1") {
		t.Error("the time is left out")
	}
	m := func(start int64) promshape.Matrix {
		return promshape.Matrix{{Labels: ls("r"), Points: []promshape.Point{{T: start + 1000, V: 1}, {T: start + 2000, V: 2}}}}
	}
	if digestMatrix(m(10_000), 10_000, "r") != digestMatrix(m(99_000), 99_000, "r") {
		t.Error("a range's times are not counted from the start")
	}
	if digestMatrix(m(10_000), 10_000, "r") == digestMatrix(m(10_000), 9_000, "r") {
		t.Error("a shifted range digests alike")
	}

}
