package results

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/results/resultstest"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/workload"
)

// finishedRun is a whole run whose series exercise every column: an
// interval whose operations are not in alphabetical order, an interval in
// which nothing completed, and resource samples with every field set (to
// the nanosecond) or a part missing.
func finishedRun(id string, started time.Time) *summary.Summary {
	s := resultstest.Summary(resultstest.Run{ID: id, Started: started, Seconds: 4, Seed: 5,
		Ops: []resultstest.Op{{Op: workload.Write, OpsPerSec: 200, Points: 100, Latency: 2 * time.Millisecond},
			{Op: 2, OpsPerSec: 50, Points: 10, Latency: 5 * time.Millisecond}}})
	ops := s.Intervals[1].Ops
	ops[0], ops[1] = ops[1], ops[0]
	last := s.Intervals[len(s.Intervals)-1]
	s.Intervals = append(s.Intervals, summary.Interval{Start: last.Start + last.Seconds, Seconds: 1.000125})
	s.Resources.Server = &summary.ServerProcess{PID: 200, Name: "postgres", Source: "--server-pid"}
	s.Resources.Samples = richSamples(len(s.Intervals), s.MeasureStarted)
	return s
}

func richSamples(n int, start time.Time) []summary.ResourceSample {
	var out []summary.ResourceSample
	for i := range n {
		f := float64(i)
		s := summary.ResourceSample{Time: start.Add(time.Duration(i+1)*time.Second + time.Duration(7919*i+123)),
			T: f + 1.000123, Hostname: "db-host",
			Tool: &summary.ProcessUsage{PID: 100, Processes: 1, CPUPercent: 40.25 + f, RSSBytes: 80<<20 + uint64(i),
				ReadBytesPerS: 1.5 + f, WriteBytesPerS: 2.5 + f},
			Server: &summary.ProcessUsage{PID: 200, Processes: 3, CPUPercent: 120.125 + f, RSSBytes: 300<<20 + uint64(i),
				ReadBytesPerS: 3.5 + f, WriteBytesPerS: 4.5e6 + f},
			Host: &summary.HostUsage{CPUPercent: 70.5 + f, Cores: 2, MemUsedBytes: 4<<30 + uint64(i), MemTotalBytes: 24 << 30,
				DiskReadBytesPerS: 5.5 + f, DiskWriteBytesPerS: 6e6 + f, NetRecvBytesPerS: 7.5 + f, NetSentBytesPerS: 8.5 + f}}
		switch i % 4 {
		case 1:
			s.Tool = nil
		case 2:
			s.Server, s.Hostname = nil, ""
		case 3:
			s.Host = nil
		}
		out = append(out, s)
	}
	return out
}

// atStart is the run as Begin sees it: what is known when a run starts,
// and the first k intervals and samples of its series.
func atStart(full *summary.Summary, k int) *summary.Summary {
	res := &summary.Resources{IntervalSeconds: 1, Server: full.Resources.Server, Samples: full.Resources.Samples[:k:k]}
	return &summary.Summary{SchemaVersion: full.SchemaVersion, RunID: full.RunID, Target: full.Target, Scenario: full.Scenario,
		Started: full.Started, Tool: summary.Tool{Version: full.Tool.Version}, Environment: full.Environment,
		Config: full.Config, MeasureStarted: full.MeasureStarted, Intervals: full.Intervals[:k:k], Resources: res}
}

// whileRunning is what Get returns for a run begun as begun whose series
// so far are ivs and samples.
func whileRunning(begun *summary.Summary, ivs []summary.Interval, samples []summary.ResourceSample) *summary.Summary {
	want := *begun
	want.Intervals, want.StopReason = ivs, "incomplete"
	res := summary.Resources{IntervalSeconds: 1}
	if begun.Resources != nil {
		res = *begun.Resources
	}
	res.Samples = samples
	want.Resources = &res
	return &want
}

// assertRunning checks Get and List of a running run.
func assertRunning(t *testing.T, st *Store, want *summary.Summary) {
	t.Helper()
	ctx := context.Background()
	got, err := st.Get(ctx, want.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Intervals, want.Intervals) {
		t.Errorf("intervals while running:\ngot  %+v\nwant %+v", got.Intervals, want.Intervals)
	}
	if got.Resources == nil || got.Resources.IntervalSeconds != 1 || !reflect.DeepEqual(got.Resources.Samples, want.Resources.Samples) {
		t.Errorf("resources while running:\ngot  %+v\nwant %+v", got.Resources, want.Resources)
	}
	assertSameJSON(t, want, got)
	assertStatus(t, st, want.RunID, StatusRunning)
}

func assertStatus(t *testing.T, st *Store, id, want string) {
	t.Helper()
	runs, err := st.List(context.Background(), Filter{Status: want})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.ID == id {
			return
		}
	}
	t.Errorf("run %s is not listed with status %s", id, want)
}

func checkRunning(t *testing.T, st *Store, fx *fixture) {
	ctx := context.Background()
	cases := []struct {
		name   string
		k      int   // intervals and samples the run holds at Begin
		order  []int // the seqs appended after Begin, in this order
		noRes  bool  // no Resources at Begin
		replay bool  // append every seq twice, first with wrong figures
	}{
		{name: "begun", k: 0},
		{name: "appended", k: 0, order: []int{0, 1, 2, 3, 4}},
		{name: "begun-with-series", k: 2, order: []int{2, 3, 4}},
		{name: "out-of-order-and-again", k: 0, order: []int{2, 0, 1}, replay: true},
		{name: "no-resources-at-begin", k: 0, order: []int{0, 1}, noRes: true},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			full := finishedRun(fx.id("running-"+c.name), fx.base.Add(-time.Duration(i+1)*time.Hour))
			begun := atStart(full, c.k)
			if c.noRes {
				begun.Resources = nil
			}
			if err := st.Begin(ctx, begun); err != nil {
				t.Fatal(err)
			}
			appendSeqs(t, st, full, c.order, c.replay)
			seqs := append(seqRange(c.k), c.order...)
			assertRunning(t, st, whileRunning(begun, pick(full.Intervals, seqs), pick(full.Resources.Samples, seqs)))

			assertSaved(t, st, full)
			assertStatus(t, st, full.RunID, "ok")
			err := st.AppendInterval(ctx, full.RunID, 9, full.Intervals[0])
			if err == nil || !strings.Contains(err.Error(), "no longer running") {
				t.Errorf("append to a saved run: %v", err)
			}
		})
	}
	if err := st.AppendResources(ctx, fx.id("never-begun"), 0, richSamples(1, fx.base)[0]); err == nil ||
		!strings.Contains(err.Error(), "not begun") || !strings.Contains(err.Error(), st.Location().String()) {
		t.Errorf("append to a run never begun: %v", err)
	}
}

func appendSeqs(t *testing.T, st *Store, full *summary.Summary, order []int, replay bool) {
	t.Helper()
	ctx := context.Background()
	for _, seq := range order {
		if replay {
			wrong := summary.Interval{Start: -1, Seconds: 9, Ops: []summary.IntervalOp{{Name: "WRONG", OKOps: 1}}}
			smp := summary.ResourceSample{Time: full.Started, T: -1}
			if err := st.AppendInterval(ctx, full.RunID, seq, wrong); err != nil {
				t.Fatal(err)
			}
			if err := st.AppendResources(ctx, full.RunID, seq, smp); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.AppendInterval(ctx, full.RunID, seq, full.Intervals[seq]); err != nil {
			t.Fatal(err)
		}
		if err := st.AppendResources(ctx, full.RunID, seq, full.Resources.Samples[seq]); err != nil {
			t.Fatal(err)
		}
	}
}

func seqRange(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// pick returns the items at the given seqs, in seq order.
func pick[T any](items []T, seqs []int) []T {
	var out []T
	for i, it := range items {
		for _, s := range seqs {
			if s == i {
				out = append(out, it)
				break
			}
		}
	}
	return out
}

// checkReplace saves over a stored run and begins over a saved one.
func checkReplace(t *testing.T, st *Store, fx *fixture) {
	ctx := context.Background()
	full := finishedRun(fx.id("replaced"), fx.base.Add(-10*time.Hour))
	if err := st.Save(ctx, full); err != nil {
		t.Fatal(err)
	}
	short := finishedRun(full.RunID, full.Started)
	short.Scenario, short.Intervals, short.Resources.Samples = "shorter", short.Intervals[:2], short.Resources.Samples[:1]
	short.Operations = short.Operations[:1]
	assertSaved(t, st, short)
	for table, want := range map[string]int64{"tsbench_operations": 1, "tsbench_resources": 1,
		"tsbench_intervals": int64(len(short.Intervals[0].Ops) + len(short.Intervals[1].Ops)), "tsbench_runs": 1} {
		if n := count(t, st, "SELECT COUNT(*) FROM "+table+" WHERE run_id = ?", full.RunID); n != want {
			t.Errorf("%s holds %d rows of the replaced run, want %d", table, n, want)
		}
	}
	// Begin on a saved id starts it afresh.
	begun := atStart(full, 0)
	if err := st.Begin(ctx, begun); err != nil {
		t.Fatal(err)
	}
	assertRunning(t, st, whileRunning(begun, nil, nil))
	if n := count(t, st, "SELECT COUNT(*) FROM tsbench_operations WHERE run_id = ?", full.RunID); n != 0 {
		t.Errorf("Begin left %d operation rows of the run it replaced", n)
	}
}

// checkJournal journals a run as the command line does, then saves it.
func checkJournal(t *testing.T, st *Store, fx *fixture) {
	full := finishedRun(fx.id("journaled"), fx.base.Add(-20*time.Hour))
	begun := atStart(full, 0)
	j := NewJournal(st, begun)
	begun.Scenario = "changed after NewJournal" // the journal has its copy
	for i, iv := range full.Intervals {
		j.Interval(i, iv)
		j.Resources(i, full.Resources.Samples[i])
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := j.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if j.Dropped() != 0 {
		t.Errorf("dropped %d items", j.Dropped())
	}
	begun.Scenario = full.Scenario
	assertRunning(t, st, whileRunning(begun, full.Intervals, full.Resources.Samples))
	j.Interval(99, full.Intervals[0]) // after Close: dropped, no panic
	if j.Dropped() != 1 {
		t.Errorf("an interval after Close: dropped %d", j.Dropped())
	}
	assertSaved(t, st, full)
	assertStatus(t, st, full.RunID, "ok")
}

// lockedStore opens an SQLite store that waits busy for the lock, which
// the test takes as another process would (resultstest.LockSQLite on the
// path it returns).
func lockedStore(t *testing.T, busy time.Duration) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "results.db")
	return openSQLite(t, path, busy), path
}

// A store locked by another process fails the journal, which says so from
// Close, naming the store; Interval never waits for it.
func TestJournalOnLockedStore(t *testing.T) {
	for _, c := range []struct {
		name        string
		beforeBegin bool
	}{{"locked-before-begin", true}, {"locked-after-begin", false}} {
		t.Run(c.name, func(t *testing.T) {
			st, path := lockedStore(t, 200*time.Millisecond)
			full := finishedRun("20260301-120000-locked", t0)
			if c.beforeBegin {
				resultstest.LockSQLite(t, path)
			}
			j := NewJournal(st, atStart(full, 0))
			if !c.beforeBegin {
				waitFor(t, func() bool { _, err := st.Get(context.Background(), full.RunID); return err == nil })
				resultstest.LockSQLite(t, path)
			}
			var slowest time.Duration
			for i := range 2000 {
				t0 := time.Now()
				j.Interval(i, full.Intervals[i%len(full.Intervals)])
				slowest = max(slowest, time.Since(t0))
			}
			if slowest > 100*time.Millisecond {
				t.Errorf("Interval blocked for %v", slowest)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			began := time.Now()
			err := j.Close(ctx)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "locked") {
				t.Fatalf("Close: %v; want an error naming %s and the lock", err, path)
			}
			if d := time.Since(began); d > 10*time.Second {
				t.Errorf("Close took %v", d)
			}
			if j.Close(ctx) == nil {
				t.Error("a second Close forgot the error")
			}
		})
	}
}

// Close gives up at its deadline, cancels the call under way, and nothing
// is written after it returned.
func TestJournalCloseDeadline(t *testing.T) {
	st, path := lockedStore(t, 30*time.Second)
	unlock := resultstest.LockSQLite(t, path)
	full := finishedRun("20260301-120000-deadline", t0)
	j := newJournal(st, atStart(full, 0), time.Minute)
	j.Interval(0, full.Intervals[0])
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	began := time.Now()
	err := j.Close(ctx)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), path) ||
		!strings.Contains(err.Error(), "1 items left unwritten") {
		t.Fatalf("Close: %v", err)
	}
	if d := time.Since(began); d > 10*time.Second {
		t.Errorf("Close took %v past its deadline of 300ms", d)
	}
	unlock()
	if _, err := st.Get(context.Background(), full.RunID); !errors.Is(err, ErrNotFound) {
		t.Errorf("the canceled Begin stored the run: %v", err)
	}
}

// A full queue drops items instead of waiting; Save writes them later.
func TestJournalQueueFull(t *testing.T) {
	st, path := lockedStore(t, 30*time.Second)
	unlock := resultstest.LockSQLite(t, path) // Begin waits: nothing leaves the queue meanwhile
	full := finishedRun("20260301-120000-full", t0)
	j := NewJournal(st, atStart(full, 0))
	const sent = 2000
	for i := range sent {
		j.Interval(i, full.Intervals[0])
	}
	unlock()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := j.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if j.Dropped() != sent-journalQueue {
		t.Errorf("dropped %d, want %d", j.Dropped(), sent-journalQueue)
	}
	got, err := st.Get(ctx, full.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Intervals) != journalQueue {
		t.Errorf("stored %d intervals, want %d", len(got.Intervals), journalQueue)
	}
}

func TestNilJournal(t *testing.T) {
	var j *Journal
	j.Interval(0, summary.Interval{})
	j.Resources(0, summary.ResourceSample{})
	if j.Close(context.Background()) != nil || j.Dropped() != 0 {
		t.Error("a nil journal did something")
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("timed out")
}
