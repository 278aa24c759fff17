package promrun

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

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
	settled atomic.Int64
	// refuse, when set, fails write n (from 1) with the error it returns.
	refuse func(n int64) error
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
			m, err := r.m.ExpectRange(j.q, j.start, j.end)
			if err != nil {
				t.Fatal(err)
			}
			f.answers[form] = matrixJSON(m)
			continue
		}
		v, err := r.m.Expect(j.q, j.t)
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

func (f *fakeStore) Begin(context.Context) error { return nil }
func (f *fakeStore) RemoteWrite(context.Context, []byte) error {
	n := f.writes.Add(1)
	if f.refuse != nil {
		return f.refuse(n)
	}
	return nil
}
func (f *fakeStore) Settle(context.Context, int64) error { f.settled.Add(1); return nil }
func (f *fakeStore) ServerLabels() []string              { return nil }
func (f *fakeStore) PromQuery(_ context.Context, _, form string) ([]byte, error) {
	if a, ok := f.answers[form]; ok {
		return a, nil
	}
	v, _ := url.ParseQuery(form)
	if strings.HasPrefix(v.Get("query"), "sum(count_over_time(") {
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
	want := map[string][2]int64{"INGESTION": {40, 0}, "RULE": {16 * 5, 0}, "ALERT": {16 * 3, 16}, "DASHBOARD": {6, 0}}
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
	if !v.Mismatch() || len(v.Queries) != 15 {
		t.Fatalf("verify %+v", v)
	}
	for _, q := range v.Queries {
		if q.OK != (q.Query != "NodeLoadHigh") {
			t.Errorf("%s: %+v", q.Query, q)
		}
	}
	// 4 targets x 41 series x 20 scrapes, the staleness markers left out.
	if v.ExpectedPoints != 3280 || v.StoredPoints != 3200 || v.OK {
		t.Errorf("count: %+v", v)
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
