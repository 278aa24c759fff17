package promrun

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/promshape"
	"github.com/tsbench/tsbench/internal/remotewrite"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/httpclient"
)

// fakeStore acknowledges every write and answers every query of the plan
// with the model's answer, but for the query named wrong, whose values it
// raises by 1.
type fakeStore struct {
	answers map[string][]byte // by form
	writes  atomic.Int64
	bytes   atomic.Int64 // the requests' bodies'
	samples atomic.Int64 // the samples the writer said the requests hold
	settled atomic.Int64
	// refuse, when set, fails write n (from 1) with the error it returns.
	refuse func(n int64) error
	// writeDelay, when set, is how long each write takes.
	writeDelay time.Duration
	// slowForms are the queries (by form) that take 20 ms to answer.
	slowForms map[string]bool
	// onQuery, when set, sees every query's form as it is asked.
	onQuery func(form string)
	// onWrite, when set, hears of write n (from 1) as it arrives.
	onWrite func(n int64)

	mu      sync.Mutex
	counted []string // the counting queries asked
}

func matrixJSON(m promshape.Matrix) []byte {
	type item struct {
		Metric map[string]string `json:"metric"`
		Values [][2]any          `json:"values"`
	}
	res := []item{}
	for _, s := range m {
		it := item{Metric: labelMap(s.Labels)}
		for _, p := range s.Points {
			it.Values = append(it.Values, [2]any{float64(p.T) / 1000, fmt.Sprint(p.V)})
		}
		res = append(res, it)
	}
	b, _ := json.Marshal(map[string]any{"status": "success", "data": map[string]any{"resultType": "matrix", "result": res}})
	return b
}

func labelMap(ls []remotewrite.Label) map[string]string {
	m := map[string]string{}
	for _, l := range ls {
		m[l.Name] = l.Value
	}
	return m
}

func newFakeStore(t *testing.T, r *Run, wrong string) *fakeStore {
	f := &fakeStore{answers: map[string][]byte{}}
	for i := range r.jobs {
		j := &r.jobs[i]
		_, form := j.form()
		if j.rng {
			m, err := r.m.ExpectRange(j.q, j.start, j.end, r.cfg.Engine)
			if err != nil {
				t.Fatal(err)
			}
			f.answers[form] = matrixJSON(m)
			continue
		}
		v, err := r.m.Expect(j.q, j.t, r.cfg.Engine)
		if err != nil {
			t.Fatal(err)
		}
		if j.q.Name == wrong {
			v = append(v, promshape.Sample{Labels: []remotewrite.Label{{Name: "job", Value: "extra"}}, Value: 1})
		}
		f.answers[form] = vectorJSON(j.t, v)
	}
	return f
}

func (f *fakeStore) Begin(context.Context) error             { return nil }
func (f *fakeStore) RemoteWriteVersion() remotewrite.Version { return remotewrite.V1 }
func (f *fakeStore) RemoteWrite(_ context.Context, body []byte, samples int64) error {
	time.Sleep(f.writeDelay)
	n := f.writes.Add(1)
	if f.onWrite != nil {
		f.onWrite(n)
	}
	if f.refuse != nil {
		if err := f.refuse(n); err != nil {
			return err
		}
	}
	f.bytes.Add(int64(len(body)))
	f.samples.Add(samples)
	return nil
}
func (f *fakeStore) Settle(context.Context, int64) error { f.settled.Add(1); return nil }
func (f *fakeStore) ServerLabels() []string              { return nil }
func (f *fakeStore) PromQuery(_ context.Context, _, form string) ([]byte, error) {
	if f.onQuery != nil {
		f.onQuery(form)
	}
	if f.slowForms[form] {
		time.Sleep(20 * time.Millisecond)
	}
	if a, ok := f.answers[form]; ok {
		return a, nil
	}
	v, _ := url.ParseQuery(form)
	if q := v.Get("query"); strings.HasPrefix(q, "(sum(count_over_time(") {
		f.mu.Lock()
		f.counted = append(f.counted, q)
		f.mu.Unlock()
		return []byte(`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"3200"]}]}}`), nil
	}
	return nil, fmt.Errorf("no answer for %s", form)
}

// A whole run on the engine against a store that answers one query wrong:
// every write and every other query done, that query's answers failed
// operations, its check not OK naming the extra series, the first
// mismatch reported, the store settled once, and the count judged.
func TestRunCatchesAWrongAnswerOnTheEngine(t *testing.T) {
	r := testRun(t)
	f := newFakeStore(t, r, "NodeLoadHigh")
	var reported []string
	r.Report = func(s string) { reported = append(reported, s) }
	stores := []targets.PromStore{f, f}
	eng := engine.New(engine.Config{Names: Names, PlanEnd: "queries"}, engine.Hooks{})
	workers := r.Open(stores)
	res := eng.Run(context.Background(), workers, eng.Handles(len(workers)))
	ops := map[string][2]int64{}
	for _, op := range res.Operations {
		ops[op.Name] = [2]int64{op.OKOperations, op.FailOperations}
	}
	l := readLoadOf(t)
	want := map[string][2]int64{"INGESTION": {40, 0}, "RULE": {16 * l.rules, 0}, "ALERT": {16 * (l.alerts - 1), 16}, "DASHBOARD": {l.dashboards, 0}}
	for name, w := range want {
		if ops[name] != w {
			t.Errorf("%s: ok, failed %v, want %v", name, ops[name], w)
		}
	}
	if f.writes.Load() != 40 || f.settled.Load() != 1 {
		t.Errorf("%d writes, settled %d times", f.writes.Load(), f.settled.Load())
	}
	if len(reported) != 1 || !strings.Contains(reported[0], `ALERT NodeLoadHigh: wrong answer`) ||
		!strings.Contains(reported[0], `series {job="extra"}: want none, got 1`) {
		t.Errorf("reported %q", reported)
	}
	v := r.Verify(context.Background(), f)
	if !v.Mismatch() || len(v.Queries) != int(l.total()) {
		t.Fatalf("verify %+v", v)
	}
	for _, q := range v.Queries {
		if q.OK != (q.Query != "NodeLoadHigh") {
			t.Errorf("%s: %+v", q.Query, q)
		}
		// Right or wrong, every answer was timed.
		if l := q.LatencyMS; l == nil || l.Max <= 0 || l.P50 > l.P99 || l.P99 > l.Max {
			t.Errorf("%s: latency %+v", q.Query, q.LatencyMS)
		}
	}
	// 4 targets x 41 series x 20 scrapes, the staleness markers left out.
	if v.ExpectedPoints != 3280 || v.StoredPoints != 3200 || v.OK {
		t.Errorf("count: %+v", v)
	}
	// What was sent: every request, its samples with the staleness
	// markers of the replaced targets, and its bytes.
	rw := r.RemoteWrite(remotewrite.V1)
	if rw.Version != "1.0" || rw.Requests != 40 || rw.Samples != f.samples.Load() || rw.Samples <= 3280 ||
		rw.Bytes != f.bytes.Load() || rw.BytesPerSample != float64(rw.Bytes)/float64(rw.Samples) {
		t.Errorf("remote write %+v; the store took %d samples in %d bytes", rw, f.samples.Load(), f.bytes.Load())
	}
}

// Under --rate a client that has written its share waits for the others
// before its first query: the tool's own wait, in no query's latency. Here
// one client's store takes 40 ms a write (20 writes: 800 ms), the other's
// none, so the second waits most of that; every query the two then ask
// answers at once, and its latency must say so, not the wait.
func TestTheHandOverIsInNoQuerysLatency(t *testing.T) {
	r := testRun(t)
	fast, slow := newFakeStore(t, r, ""), newFakeStore(t, r, "")
	slow.writeDelay = 40 * time.Millisecond
	eng := engine.New(engine.Config{Names: Names, PlanEnd: "queries", Rate: 400, Workers: 2}, engine.Hooks{})
	workers := r.Open([]targets.PromStore{fast, slow})
	res := eng.Run(context.Background(), workers, eng.Handles(len(workers)))
	queries := 0
	for _, op := range res.Operations {
		if op.Name == "INGESTION" {
			if op.LatencyMS.Max < 40 || op.OKOperations != 40 {
				t.Errorf("INGESTION: %d writes, the slowest %.1f ms: the slow store was not slow", op.OKOperations, op.LatencyMS.Max)
			}
			continue
		}
		queries += int(op.OKOperations)
		if op.LatencyMS.Max >= 200 {
			t.Errorf("%s: the slowest query took %.1f ms: it holds the wait for the other client's writes", op.Name, op.LatencyMS.Max)
		}
	}
	if l := readLoadOf(t); int64(queries) != 16*(l.rules+l.alerts)+l.dashboards {
		t.Errorf("%d queries answered, want %d", queries, 16*(l.rules+l.alerts)+l.dashboards)
	}
}

// With ReadWhileWriting the rules and alerts are asked while the writes
// go on, each once both clients have written the scrapes up to its time
// (one request a scrape each), the dashboards once all is written; the
// store is settled again as the written scrapes advance, and every answer
// is right. One client's writes take 10 ms, so the other's queries wait
// for it.
func TestReadsWhileWriting(t *testing.T) {
	r := testRun(t)
	r.cfg.ReadWhileWriting = true
	fast, slow := newFakeStore(t, r, ""), newFakeStore(t, r, "")
	slow.writeDelay = 10 * time.Millisecond
	var mu sync.Mutex
	var early, asked int
	check := func(form string) {
		v, _ := url.ParseQuery(form)
		need := int64(r.cfg.Scrapes) // a range query's
		if at := v.Get("time"); at != "" && v.Get("start") == "" {
			sec, err := strconv.ParseFloat(at, 64)
			if err != nil {
				t.Errorf("time %q", at)
				return
			}
			k, ok := r.m.Index(int64(math.Round(sec * 1000)))
			if !ok {
				t.Errorf("query at %q, not a scrape's time", at)
				return
			}
			need = k + 1
		}
		mu.Lock()
		defer mu.Unlock()
		asked++
		if fast.writes.Load() < need || slow.writes.Load() < need {
			t.Errorf("asked with %d and %d scrapes written, before scrape %d: %s", fast.writes.Load(), slow.writes.Load(), need-1, form)
		}
		if slow.writes.Load() < r.cfg.Scrapes {
			early++
		}
	}
	fast.onQuery, slow.onQuery = check, check
	eng := engine.New(engine.Config{Names: Names, PlanEnd: "queries"}, engine.Hooks{})
	workers := r.Open([]targets.PromStore{fast, slow})
	eng.Run(context.Background(), workers, eng.Handles(len(workers)))
	l := readLoadOf(t)
	if want := int(16*(l.rules+l.alerts) + l.dashboards); asked != want || early == 0 {
		t.Errorf("%d queries asked, %d of them while writing; want %d, some while writing", asked, early, want)
	}
	if settled := fast.settled.Load() + slow.settled.Load(); settled < 2 {
		t.Errorf("the store settled %d times: not again as the writes went on", settled)
	}
	for _, q := range r.Checks() {
		if !q.OK {
			t.Errorf("%s: %+v", q.Query, q)
		}
	}
}

// With NoReads the run writes every scrape and asks nothing: the count
// is still judged, and the verification says why no answer was checked.
func TestNoReads(t *testing.T) {
	c := testRun(t).cfg
	c.NoReads = true
	r, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	f := newFakeStore(t, r, "")
	asked := 0
	f.onQuery = func(form string) {
		if !strings.Contains(form, "count_over_time") {
			asked++
		}
	}
	eng := engine.New(engine.Config{Names: Names, PlanEnd: "scrapes"}, engine.Hooks{})
	workers := r.Open([]targets.PromStore{f, f})
	res := eng.Run(context.Background(), workers, eng.Handles(len(workers)))
	if ing := res.Operations[0]; ing.OKOperations != 40 || asked != 0 || r.Queries() != 0 {
		t.Errorf("%d writes, %d queries asked of %d planned; want 40 writes and no query", ing.OKOperations, asked, r.Queries())
	}
	if v := r.Verify(context.Background(), f); v.QueriesSkipped != "PROM_READS = none: the run writes only" || len(v.Queries) != 0 {
		t.Errorf("verify %+v", v)
	}
}

// A write that fails recoverably (a refused connection, a 503) is sent
// again until acknowledged, each attempt an operation: every sample is
// acknowledged. One refused for good (a 400) is given up: its samples are
// not expected.
func TestFailedWritesAreSentAgain(t *testing.T) {
	for _, c := range []struct {
		name    string
		err     error
		resent  int64
		givenUp int64
	}{
		{"connection refused", syscall.ECONNREFUSED, 3, 0},
		{"503", &httpclient.StatusError{Code: 503, Text: "starting"}, 3, 0},
		{"400", &httpclient.StatusError{Code: 400, Text: "out of bounds"}, 0, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := testRun(t)
			f := newFakeStore(t, r, "")
			f.refuse = func(n int64) error {
				if n >= 5 && n < 8 {
					return fmt.Errorf("remote write: %w", c.err)
				}
				return nil
			}
			eng := engine.New(engine.Config{Names: Names, PlanEnd: "queries"}, engine.Hooks{})
			workers := r.Open([]targets.PromStore{f})
			res := eng.Run(context.Background(), workers, eng.Handles(len(workers)))
			ing := res.Operations[0]
			if r.Resent() != c.resent || r.FailedWrites() != c.givenUp || ing.OKOperations != 20-c.givenUp || ing.FailOperations != 3 {
				t.Errorf("resent %d, given up %d, ingestion ok %d failed %d", r.Resent(), r.FailedWrites(), ing.OKOperations, ing.FailOperations)
			}
			// 4 targets x 41 series x 20 scrapes, the staleness markers left
			// out; less the samples of the scrapes given up.
			if all := r.Acked() == 3280; all != (c.givenUp == 0) {
				t.Errorf("acknowledged %d samples of 3280", r.Acked())
			}
		})
	}
}

// A run split between two worker processes (WORKERS = 2, clients 0-1 and
// 2-3 of 4): each writes its clients' targets; the second asks no query;
// the first asks the whole read load, right, only once AllWritten let it;
// each counts the series of its own slots, and together they acknowledged
// what one process does.
func TestWorkerProcessesShareTheRun(t *testing.T) {
	base := testRun(t)
	f := newFakeStore(t, base, "")
	written := make(chan struct{})
	c0, c1 := base.cfg, base.cfg
	c0.AllWritten = func(ctx context.Context) error {
		select {
		case <-written:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	c1.WriteOnly = true
	r0, err := New(c0)
	if err != nil {
		t.Fatal(err)
	}
	r1, err := New(c1)
	if err != nil {
		t.Fatal(err)
	}
	run := func(r *Run, first int) *engine.Result {
		eng := engine.New(engine.Config{Names: Names, PlanEnd: "queries"}, engine.Hooks{})
		workers := r.OpenShare([]targets.PromStore{f, f}, first, 4)
		return eng.Run(context.Background(), workers, eng.Handles(len(workers)))
	}
	done0 := make(chan *engine.Result)
	go func() { done0 <- run(r0, 0) }()
	res1 := run(r1, 2)
	select {
	case <-done0:
		t.Fatal("worker 0 asked its read load before worker 1 had written")
	default:
	}
	close(written)
	res0 := <-done0

	ops := func(res *engine.Result) map[string]int64 {
		m := map[string]int64{}
		for _, op := range res.Operations {
			m[op.Name] = op.OKOperations + op.FailOperations
		}
		return m
	}
	l := readLoadOf(t)
	if got, want := ops(res0), map[string]int64{"INGESTION": 40, "RULE": 16 * l.rules, "ALERT": 16 * l.alerts, "DASHBOARD": l.dashboards}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("worker 0 operations %v, want %v", got, want)
	}
	if got := ops(res1); got["INGESTION"] != 40 || got["RULE"]+got["ALERT"]+got["DASHBOARD"] != 0 {
		t.Errorf("worker 1 operations %v, want 40 writes and no query", got)
	}
	v0, v1 := r0.Verify(context.Background(), f), r1.Verify(context.Background(), f)
	if len(v0.Queries) != int(l.total()) || len(v1.Queries) != 0 || !strings.Contains(v1.QueriesSkipped, "worker 0") {
		t.Errorf("worker 0 checked %d queries, worker 1 %d (%q)", len(v0.Queries), len(v1.Queries), v1.QueriesSkipped)
	}
	for _, q := range v0.Queries {
		if !q.OK || q.Digest == "" {
			t.Errorf("worker 0's %s: %+v", q.Query, q)
		}
	}
	// 4 targets x 41 series x 20 scrapes, the staleness markers left out.
	if r0.Acked()+r1.Acked() != 3280 || r0.Acked() == 0 || r1.Acked() == 0 {
		t.Errorf("acknowledged %d + %d samples, want 3280 in all", r0.Acked(), r1.Acked())
	}
	if len(f.counted) != 2 || !strings.Contains(f.counted[0], `instance=~"host-(0|1)-[0-9]+:9100"`) ||
		!strings.Contains(f.counted[1], `instance=~"host-(2|3)-[0-9]+:9100"`) {
		t.Errorf("counted %q, want each worker's own slots", f.counted)
	}
}

// readLoad counts the model's queries by kind: the read load's size is
// the model's, not a figure the tests repeat.
type readLoad struct{ rules, alerts, dashboards int64 }

func (l readLoad) total() int64 { return l.rules + l.alerts + l.dashboards }

func readLoadOf(t *testing.T) readLoad {
	t.Helper()
	m, err := promshape.New(promshape.Config{Targets: 1, Interval: time.Second, Job: "node"})
	if err != nil {
		t.Fatal(err)
	}
	var l readLoad
	for _, q := range m.Queries() {
		switch q.Kind {
		case promshape.Rule:
			l.rules++
		case promshape.Alert:
			l.alerts++
		case promshape.Dashboard:
			l.dashboards++
		}
	}
	return l
}

// Each expression's latency is its own: a query the store answers in
// 20 ms has a median of 20 ms at least, the others' are below it.
func TestLatencyPerExpression(t *testing.T) {
	r := testRun(t)
	f := newFakeStore(t, r, "")
	f.slowForms = map[string]bool{}
	for i := range r.jobs {
		if j := &r.jobs[i]; j.q.Name == "job:up:sum" {
			_, form := j.form()
			f.slowForms[form] = true
		}
	}
	eng := engine.New(engine.Config{Names: Names, PlanEnd: "queries"}, engine.Hooks{})
	workers := r.Open([]targets.PromStore{f, f})
	eng.Run(context.Background(), workers, eng.Handles(len(workers)))
	for _, q := range r.Verify(context.Background(), f).Queries {
		l := q.LatencyMS
		switch {
		case l == nil || q.Points == 0:
			t.Errorf("%s: no latency, %d answers", q.Query, q.Points)
		case q.Query == "job:up:sum" && l.P50 < 20:
			t.Errorf("%s: median %.2f ms; the store took 20 ms", q.Query, l.P50)
		case q.Query != "job:up:sum" && l.P50 >= 20:
			t.Errorf("%s: median %.2f ms, as slow as the slow query's", q.Query, l.P50)
		}
	}
}

// In real time (Config.RealTime) each scrape is written at its time by the
// wall clock, not before, the run lasting the scrapes' span; the waits are
// the tool's own, in no write's latency, and the answers are the model's.
func TestRealTimeWritesEachScrapeAtItsTime(t *testing.T) {
	const iv = 200 * time.Millisecond
	c := Plan(Config{Shape: promshape.Config{Targets: 2, Interval: iv, Seed: 1}, Scrapes: 5, ReadTimeout: time.Second,
		Engine: testRun(t).cfg.Engine, RealTime: true, ReadWhileWriting: true}, time.Now(), "run-rt")
	r, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	stores := []*fakeStore{newFakeStore(t, r, ""), newFakeStore(t, r, "")}
	var mu sync.Mutex
	var early []string
	for i, f := range stores {
		f.onWrite = func(n int64) {
			if due := time.UnixMilli(r.m.Time(n - 1)); time.Now().Before(due) {
				mu.Lock()
				early = append(early, fmt.Sprintf("client %d's scrape %d %v early", i, n-1, time.Until(due)))
				mu.Unlock()
			}
		}
	}
	eng := engine.New(engine.Config{Names: Names, PlanEnd: "queries"}, engine.Hooks{})
	workers := r.Open([]targets.PromStore{stores[0], stores[1]})
	res := eng.Run(context.Background(), workers, eng.Handles(len(workers)))
	if len(early) > 0 {
		t.Errorf("written before their time: %v", early)
	}
	if last := time.UnixMilli(r.m.Time(4)); time.Now().Before(last) {
		t.Errorf("the run ended before its last scrape's time")
	}
	for _, op := range res.Operations {
		if op.Name == "INGESTION" && (op.OKOperations != 10 || op.LatencyMS.Max >= float64(iv.Milliseconds())/2) {
			t.Errorf("INGESTION: %d writes, the slowest %.1f ms: want 10, none holding the wait for its time", op.OKOperations, op.LatencyMS.Max)
		}
	}
	for _, q := range r.Checks() {
		if !q.OK {
			t.Errorf("%s: %+v", q.Query, q)
		}
	}
}
