package promrun

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/promshape"
	"github.com/tsbench/tsbench/internal/targets/promql"
)

func testRun(t *testing.T) *Run {
	t.Helper()
	c := Plan(Config{Shape: promshape.Config{Targets: 4, Interval: time.Second, ChurnShare: 0.5, ChurnPeriod: 5 * time.Second, Seed: 1},
		Scrapes: 20, ReadTimeout: time.Second, Engine: promql.EnginePrometheus}, time.UnixMilli(1_700_000_000_500), "run-1")
	r, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// vectorJSON is what Prometheus answers for v at t.
func vectorJSON(t int64, v promshape.Vector) []byte {
	type item struct {
		Metric map[string]string `json:"metric"`
		Value  [2]any            `json:"value"`
	}
	res := []item{}
	for _, s := range v {
		m := map[string]string{}
		for _, l := range s.Labels {
			m[l.Name] = l.Value
		}
		res = append(res, item{m, [2]any{float64(t) / 1000, fmt.Sprint(s.Value)}})
	}
	b, _ := json.Marshal(map[string]any{"status": "success", "data": map[string]any{"resultType": "vector", "result": res}})
	return b
}

func TestPlanStartsOnTheGridAMarginBack(t *testing.T) {
	now := time.UnixMilli(1_700_000_000_500)
	c := Plan(Config{Shape: promshape.Config{Interval: 10 * time.Second}, Scrapes: 30}, now, "j")
	if c.Shape.Start%40_000 != 0 {
		t.Errorf("start %d is not on the dashboards' 40 s grid", c.Shape.Start)
	}
	last := c.Shape.Start + 29*10_000
	if gap := now.UnixMilli() - last; gap < Margin.Milliseconds() {
		t.Errorf("the last scrape is %d ms before now, want at least %v", gap, Margin)
	}
}

// The check an instant job runs accepts the model's answer and catches
// a wrong value, a missing series and an extra one, naming the series,
// want and got.
func TestCheckCatchesAWrongAnswer(t *testing.T) {
	r := testRun(t)
	var j *job
	for i := range r.jobs {
		if r.jobs[i].q.Name == "job_mode:node_cpu_seconds:sum" {
			j = &r.jobs[i]
			break
		}
	}
	check, err := r.expect(j, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := r.m.Expect(j.q, j.t, r.cfg.Engine)
	if n, _, diff, err := check(vectorJSON(j.t, want)); err != nil || diff != "" || n != int64(len(want)) {
		t.Fatalf("the model's own answer: %d values, %q, %v", n, diff, err)
	}
	wrong := append(promshape.Vector(nil), want...)
	wrong[1].Value += 0.5
	_, _, diff, _ := check(vectorJSON(j.t, wrong))
	if !strings.Contains(diff, promshape.Key(want[1].Labels)) || !strings.Contains(diff, fmt.Sprintf("want %v, got %v", want[1].Value, wrong[1].Value)) {
		t.Errorf("a wrong value: %q", diff)
	}
	if _, _, diff, _ := check(vectorJSON(j.t, want[1:])); !strings.Contains(diff, "got none") {
		t.Errorf("a missing series: %q", diff)
	}
	if _, _, diff, _ := check(vectorJSON(j.t, append(want, promshape.Sample{Labels: want[0].Labels[:1], Value: 1}))); !strings.Contains(diff, "want none") {
		t.Errorf("an extra series: %q", diff)
	}
}

func TestCompareMatrixNamesTheTime(t *testing.T) {
	s := promshape.Series{Points: []promshape.Point{{T: 1000, V: 1}, {T: 2000, V: 2}}}
	g := promshape.Series{Points: []promshape.Point{{T: 1000, V: 1}, {T: 2000, V: 3}}}
	if d := CompareMatrix(promshape.Matrix{s}, promshape.Matrix{s}); d != "" {
		t.Errorf("equal: %q", d)
	}
	if d := CompareMatrix(promshape.Matrix{s}, promshape.Matrix{g}); !strings.Contains(d, "at 2000 ms") || !strings.Contains(d, "want 2, got 3") {
		t.Errorf("differ: %q", d)
	}
	if !same(math.NaN(), math.NaN()) || same(0.1, 0.2) {
		t.Error("same")
	}
}

func TestScope(t *testing.T) {
	m := map[string]bool{"up": true, "node_filesystem_avail_bytes": true, "x_count": true}
	cases := map[string]string{
		`sum by (job) (up)`: `sum by (job) (up{job="r"})`,
		`sum by (job) (node_filesystem_avail_bytes{mountpoint="/"})`:  `sum by (job) (node_filesystem_avail_bytes{job="r",mountpoint="/"})`,
		`sum by (job, instance) (x_count - x_count offset 40s) > 600`: `sum by (job, instance) (x_count{job="r"} - x_count{job="r"} offset 40s) > 600`,
		`max_over_time(up[40s])`:                `max_over_time(up{job="r"}[40s])`,
		`label_replace(up, "up", "up", "", "")`: `label_replace(up{job="r"}, "up", "up", "", "")`,
	}
	for in, want := range cases {
		if got := Scope(in, "r", m); got != want {
			t.Errorf("Scope(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestDecodeRefusesErrorsAndOtherTypes(t *testing.T) {
	if _, err := DecodeVector([]byte(`{"status":"error","error":"bad"}`)); err == nil || !strings.Contains(err.Error(), "bad") {
		t.Errorf("error status: %v", err)
	}
	if _, err := DecodeVector([]byte(`{"status":"success","data":{"resultType":"matrix","result":[]}}`)); err == nil {
		t.Error("a matrix read as a vector")
	}
	m, err := DecodeMatrix([]byte(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"b":"1","a":"2"},"values":[[1.5,"0.0625"]]}]}}`))
	if err != nil || len(m) != 1 || m[0].Labels[0].Name != "a" || m[0].Points[0] != (promshape.Point{T: 1500, V: 0.0625}) {
		t.Errorf("matrix: %+v, %v", m, err)
	}
}

// The plan: every rule and alert at each scrape from the fifth, each
// dashboard once, on its step's grid within the written range.
func TestPlanCoversTheReadLoad(t *testing.T) {
	r := testRun(t)
	n := map[promshape.Kind]int{}
	last := r.m.Time(19)
	for _, j := range r.jobs {
		n[j.q.Kind]++
		if j.rng && ((j.end-j.start)%j.q.Step.Milliseconds() != 0 || j.end > last || j.start < r.m.Time(4)) {
			t.Errorf("%s: range [%d, %d] off the grid or the written range", j.q.Name, j.start, j.end)
		}
	}
	if l := readLoadOf(t); int64(n[promshape.Rule]) != 16*l.rules || int64(n[promshape.Alert]) != 16*l.alerts ||
		int64(n[promshape.Dashboard]) != l.dashboards {
		t.Errorf("plan: %v", n)
	}
	if e := r.countExprs("sum", 20_000); len(e) != 1 || !strings.Contains(e[0], `(sum(count_over_time(up{job="run-1"}[20000ms])) or vector(0))`) {
		t.Errorf("count: %s", e)
	}
	if e := r.countExprs("count", 20_000); len(e) != 1 || !strings.Contains(e[0], `(count(count_over_time(up{job="run-1"}[20000ms])) or vector(0))`) {
		t.Errorf("count of series: %s", e)
	}
}

// The node profile's 318 metrics are counted in queries VictoriaMetrics
// takes (each at most maxCountQuery bytes), every metric once.
func TestCountQueriesFitTheStores(t *testing.T) {
	c := Plan(Config{Shape: promshape.Config{Targets: 4, Interval: time.Second, Seed: 1, Profile: promshape.Node},
		Scrapes: 20, ReadTimeout: time.Second}, time.UnixMilli(1_700_000_000_500), "run-1")
	r, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	exprs := r.countExprs("sum", 20_000)
	seen := map[string]int{}
	for _, e := range exprs {
		if len(e) > maxCountQuery {
			t.Errorf("a counting query of %d bytes, over %d", len(e), maxCountQuery)
		}
		for _, term := range strings.Split(e, " + ") {
			name, _, _ := strings.Cut(strings.TrimPrefix(term, "(sum(count_over_time("), "{")
			seen[name]++
		}
	}
	if len(exprs) < 2 || len(seen) != len(r.metrics) {
		t.Fatalf("%d queries counting %d metrics, want the %d metrics in more than one", len(exprs), len(seen), len(r.metrics))
	}
	for name, n := range seen {
		if n != 1 || !r.metrics[name] {
			t.Errorf("%s counted %d times", name, n)
		}
	}
}

// A rate's answer is right within its rounding, added in any order: a
// value an ulp or two away passes, one a millionth away does not, and the
// difference shows the tolerance.
func TestRateAnswersWithinTheirRounding(t *testing.T) {
	r := testRun(t)
	var j *job
	for i := range r.jobs {
		if q := r.jobs[i].q; q.PerEngine && !r.jobs[i].rng && r.jobs[i].t == r.m.Time(19) {
			j = &r.jobs[i]
			break
		}
	}
	if j == nil {
		t.Fatal("no rate query at the last scrape")
	}
	check, err := r.expect(j, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := r.m.Expect(j.q, j.t, r.cfg.Engine)
	if len(want) == 0 || want[0].Tol == 0 {
		t.Fatalf("%s: %+v", j.q.Name, want)
	}
	near := append(promshape.Vector(nil), want...)
	near[0].Value = math.Nextafter(math.Nextafter(want[0].Value, 0), 0)
	_, nearDigest, diff, _ := check(vectorJSON(j.t, near))
	_, exactDigest, _, _ := check(vectorJSON(j.t, want))
	if diff != "" || nearDigest != exactDigest {
		t.Errorf("two ulps off: %q, digest %x against %x", diff, nearDigest, exactDigest)
	}
	far := append(promshape.Vector(nil), want...)
	far[0].Value *= 1 + 1e-6
	if _, _, diff, _ := check(vectorJSON(j.t, far)); !strings.Contains(diff, "(±") {
		t.Errorf("a millionth off: %q", diff)
	}
}

func TestPlanInRealTimeStartsOnTheNextGridLine(t *testing.T) {
	now := time.UnixMilli(1_700_000_000_500)
	c := Plan(Config{Shape: promshape.Config{Interval: 10 * time.Second}, Scrapes: 30, RealTime: true}, now, "j")
	if c.Shape.Start%40_000 != 0 || c.Shape.Start <= now.UnixMilli() || c.Shape.Start > now.UnixMilli()+40_000 {
		t.Errorf("start %d: want the first 40 s grid line after %d", c.Shape.Start, now.UnixMilli())
	}
}
