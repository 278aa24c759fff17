package promshape

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/remotewrite"
	"github.com/tsbench/tsbench/internal/targets/promql"
)

// naiveSource evaluates selectors the way Prometheus does, from every
// sample the scrapes gave (staleness markers included): an instant
// selector takes a series' last sample in the 5-minute lookback (t-5m, t]
// and drops the series if that sample is a staleness marker; a range
// selector takes the samples in (t-w, t] that are not markers.
type naiveSource struct {
	series map[string]*Series
	hists  map[string]*naiveHistograms // native histogram series, by key
	eng    string
}

// naiveHistograms is a native histogram series' samples as scraped: a
// nil histogram is a staleness marker.
type naiveHistograms struct {
	labels []remotewrite.Label
	times  []int64
	hs     []*NativeHistogram
}

func (n naiveSource) addHistogram(ls []remotewrite.Label, t int64, h *NativeHistogram) {
	key := Key(ls)
	s := n.hists[key]
	if s == nil {
		s = &naiveHistograms{labels: append([]remotewrite.Label(nil), ls...)}
		n.hists[key] = s
	}
	s.times, s.hs = append(s.times, t), append(s.hs, h)
}

func (n naiveSource) histograms(sl selector, t int64) []hsample {
	var out []hsample
	for _, s := range n.hists {
		if !sl.matches(s.labels) {
			continue
		}
		var last *NativeHistogram
		found := false
		for i, ts := range s.times {
			if ts <= t && ts > t-lookback {
				last, found = s.hs[i], true
			}
		}
		if found && last != nil {
			out = append(out, hsample{labels: s.labels, h: *last})
		}
	}
	return out
}

func (n naiveSource) engine() string { return n.eng }

const lookback = 5 * 60 * 1000

func newNaiveSource(t *testing.T, m *Model, last int64) naiveSource {
	src := naiveSource{series: map[string]*Series{}, hists: map[string]*naiveHistograms{}}
	sc := m.NewScraper()
	sc.OnHistograms(func(n int, values []string, ts int64, h *NativeHistogram) {
		ls, open := m.Template(n)
		for j, i := range open {
			ls[i].Value = values[j]
		}
		src.addHistogram(ls, ts, &NativeHistogram{Schema: h.Schema, Count: h.Count, Sum: h.Sum, Offset: h.Offset,
			Counts: slices.Clone(h.Counts)})
	})
	for k := int64(0); k <= last; k++ {
		if err := sc.Scrape(k, func(ls []remotewrite.Label, ts int64, v float64) {
			if m.cfg.Histograms == Native && labelOf(ls, remotewrite.MetricName) == Histogram {
				src.addHistogram(ls, ts, nil) // a native histogram series' staleness marker
				return
			}
			key := Key(ls)
			s := src.series[key]
			if s == nil {
				s = &Series{Labels: append([]remotewrite.Label(nil), ls...)}
				src.series[key] = s
			}
			s.Points = append(s.Points, Point{T: ts, V: v})
		}); err != nil {
			t.Fatal(err)
		}
	}
	return src
}

func (n naiveSource) instant(sl selector, t int64) Vector {
	var out Vector
	for _, s := range n.series {
		if !sl.matches(s.Labels) {
			continue
		}
		var last *Point
		for i := range s.Points {
			if p := &s.Points[i]; p.T <= t && p.T > t-lookback {
				last = p
			}
		}
		if last != nil && !IsStale(last.V) {
			out = append(out, Sample{Labels: s.Labels, Value: last.V})
		}
	}
	return out
}

func (n naiveSource) window(sl selector, t, w int64) Matrix {
	var out Matrix
	for _, s := range n.series {
		if !sl.matches(s.Labels) {
			continue
		}
		in := Series{Labels: s.Labels}
		for _, p := range s.Points {
			if p.T <= t && p.T > t-w && !IsStale(p.V) {
				in.Points = append(in.Points, p)
			}
		}
		out = append(out, in)
	}
	return out
}

// For every query, at eval times around churn boundaries, Expect (from
// the model's closed forms) equals the query evaluated over every
// scraped sample with Prometheus' lookback and staleness rules.
func TestExpectMatchesNaive(t *testing.T) {
	cases := []struct {
		name   string
		edit   func(*Config)
		evalAt []int64 // scrape indexes
	}{
		// period 4: boundaries at 4, 8, 12, ...; window 4 scrapes.
		{"churn", func(*Config) {}, []int64{0, 1, 3, 4, 5, 7, 8, 9, 12, 13, 19}},
		{"no churn", func(c *Config) { c.ChurnShare, c.ChurnPeriod = 0, 0 }, []int64{0, 2, 3, 4, 10}},
		{"all every scrape", func(c *Config) { c.ChurnShare, c.ChurnPeriod = 1, c.Interval }, []int64{0, 1, 2, 5, 9}},
		{"odd shape", func(c *Config) {
			c.Targets, c.ChurnShare, c.Interval, c.ChurnPeriod = 7, 0.3, 1500*time.Millisecond, 3000*time.Millisecond
		}, []int64{0, 2, 3, 4, 6, 7, 11}},
		{"slow scrape", func(c *Config) { c.Interval, c.ChurnPeriod = 2*time.Minute, 4*time.Minute }, []int64{0, 1, 2, 3, 4, 6}},
		{"node profile", func(c *Config) { c.Profile = Node }, []int64{0, 3, 4, 5, 8, 9}},
		{"native histograms", func(c *Config) { c.Histograms = Native }, []int64{0, 3, 4, 5, 8, 9, 12}},
		// the node profile's own queries of native histograms and revisions
		{"revision churn", func(c *Config) { c.Churn = ChurnRevision }, []int64{0, 1, 3, 4, 5, 7, 8, 9, 12, 13, 19}},
		// a spike of 6 of the 10 targets at boundaries 2, 4, ... (scrapes 8, 16)
		{"spikes", func(c *Config) { c.SpikeShare, c.SpikeEvery = 0.6, 2 }, []int64{3, 4, 7, 8, 9, 11, 12, 16, 17, 19}},
		{"revision churn, node profile, native histograms", func(c *Config) { c.Profile, c.Histograms, c.Churn = Node, Native, ChurnRevision },
			[]int64{0, 4, 5, 8, 9}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := testConfig()
			c.edit(&cfg)
			m := mustNew(t, cfg)
			src := newNaiveSource(t, m, c.evalAt[len(c.evalAt)-1])
			for _, engine := range engines {
				src.eng = engine
				for _, q := range m.Queries() {
					for _, k := range c.evalAt {
						got, err := m.Expect(q, m.Time(k), engine)
						if err != nil {
							t.Fatal(err)
						}
						want := Sorted(q.eval(src, m.Time(k)))
						if d := diffVectors(got, want); d != "" {
							t.Fatalf("%s on %s at scrape %d: Expect differs from the naive evaluation: %s", q.Name, engine, k, d)
						}
					}
				}
			}
		})
	}
}

// within reports a and b equal bit for bit, or within tol of each other
// (inexact values: sums of rates, added in another order).
func within(a, b, tol float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.Abs(a-b) <= tol
}

// engines are the engines the model knows.
var engines = []string{promql.EnginePrometheus, promql.EngineMetricsQL}

func diffVectors(got, want Vector) string {
	if len(got) != len(want) {
		return "got " + vectorString(got) + ", want " + vectorString(want)
	}
	for i := range got {
		if Key(got[i].Labels) != Key(want[i].Labels) || !within(got[i].Value, want[i].Value, max(got[i].Tol, want[i].Tol)) {
			return "got " + vectorString(got) + ", want " + vectorString(want)
		}
	}
	return ""
}

func vectorString(v Vector) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, s := range v {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(Key(s.Labels))
		b.WriteString("=")
		b.WriteString(strconv.FormatFloat(s.Value, 'g', -1, 64))
	}
	b.WriteByte(']')
	return b.String()
}

func queryByName(t *testing.T, m *Model, name string) Query {
	t.Helper()
	for _, q := range m.Queries() {
		if q.Name == name {
			return q
		}
	}
	t.Fatalf("no query %s", name)
	return Query{}
}

// Answers known without evaluating anything: every slot has one live
// target at every scrape, whatever churn did, so up sums to Targets and
// a window of four scrapes holds four samples of up per slot.
func TestExpectByHand(t *testing.T) {
	m := mustNew(t, testConfig())
	up, scraped := queryByName(t, m, "job:up:sum"), queryByName(t, m, "samples-scraped")
	for k := int64(0); k < 30; k++ {
		v, _ := m.Expect(up, m.Time(k), "")
		if len(v) != 1 || v[0].Value != 10 || Key(v[0].Labels) != `{job="node"}` {
			t.Fatalf("job:up:sum at %d: %s", k, vectorString(v))
		}
		v, _ = m.Expect(scraped, m.Time(k), "")
		if want := float64(10 * min(k+1, 4)); len(v) != 1 || v[0].Value != want {
			t.Fatalf("samples-scraped at %d: %s, want %v", k, vectorString(v), want)
		}
	}
}

// Each alert fires for some targets at some scrapes, and never for all
// of them at every scrape: the read load checks both answers. An absent
// alert never fires while the targets are up.
func TestAlertsFireSometimes(t *testing.T) {
	for _, p := range Profiles {
		t.Run(p.String(), func(t *testing.T) { alertsFireSometimes(t, p) })
	}
}

func alertsFireSometimes(t *testing.T, p Profile) {
	cfg := testConfig()
	cfg.Targets = 50
	cfg.ChurnShare = 0.1
	cfg.Profile = p
	m := mustNew(t, cfg)
	for _, q := range m.Queries() {
		if q.Kind != Alert {
			continue
		}
		fired, empty := 0, 0
		for k := int64(0); k < 40; k++ {
			v, err := m.Expect(q, m.Time(k), promql.EnginePrometheus)
			if err != nil {
				t.Fatal(err)
			}
			fired += len(v)
			if len(v) == 0 {
				empty++
			}
			for _, s := range v {
				if labelOf(s.Labels, remotewrite.MetricName) != "" || labelOf(s.Labels, "instance") == "" {
					t.Fatalf("%s: alert series %s", q.Name, Key(s.Labels))
				}
			}
		}
		if strings.HasPrefix(q.PromQL, "absent(") {
			// Fires only when the job's targets are all gone: never here.
			if fired != 0 {
				t.Errorf("%s fired %d times while every target was up", q.Name, fired)
			}
			continue
		}
		if fired == 0 || fired >= 40*cfg.Targets {
			t.Errorf("%s fired %d times in 40 scrapes of %d targets", q.Name, fired, cfg.Targets)
		}
	}
}

// A range answer is the naive evaluation at each step, across churn.
func TestExpectRange(t *testing.T) {
	m := mustNew(t, testConfig())
	src := newNaiveSource(t, m, 24)
	src.eng = promql.EngineMetricsQL
	for _, q := range m.Queries() {
		if q.Kind != Dashboard {
			continue
		}
		if q.Step != 4*m.cfg.Interval {
			t.Fatalf("%s: step %v", q.Name, q.Step)
		}
		start, end := m.Time(2), m.Time(24)
		got, err := m.ExpectRange(q, start, end, src.eng)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string][]Point{}
		for ts := start; ts <= end; ts += q.Step.Milliseconds() {
			for _, s := range q.eval(src, ts) {
				want[Key(s.Labels)] = append(want[Key(s.Labels)], Point{T: ts, V: s.Value, Tol: s.Tol})
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d series, want %d", q.Name, len(got), len(want))
		}
		for i, s := range got {
			if i > 0 && Key(got[i-1].Labels) >= Key(s.Labels) {
				t.Fatalf("%s: series not sorted", q.Name)
			}
			w := want[Key(s.Labels)]
			if len(w) != len(s.Points) {
				t.Fatalf("%s: %s has %d points, want %d", q.Name, Key(s.Labels), len(s.Points), len(w))
			}
			for j := range w {
				if g := s.Points[j]; w[j].T != g.T || !within(w[j].V, g.V, max(w[j].Tol, g.Tol)) {
					t.Fatalf("%s: %s point %d: %v, want %v", q.Name, Key(s.Labels), j, s.Points[j], w[j])
				}
			}
		}
	}
}

func TestExpectRejects(t *testing.T) {
	m := mustNew(t, testConfig())
	q := m.Queries()[0]
	for _, c := range []struct {
		t    int64
		want string
	}{
		{m.Time(0) - 15000, "job:up:sum: eval time 1699999985000 must be a scrape time: 1700000000000 plus a multiple of 15000 ms"},
		{m.Time(3) + 1, "eval time 1700000045001 must be a scrape time"},
	} {
		if _, err := m.Expect(q, c.t, ""); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Expect at %d: %v, want %q", c.t, err, c.want)
		}
	}
	dash := queryByName(t, m, "load-max")
	odd := dash
	odd.Step = 20 * time.Second
	for _, c := range []struct {
		q          Query
		start, end int64
		want       string
	}{
		{dash, m.Time(5), m.Time(4), "load-max: range [1700000075000, 1700000060000] by 1m0s must be ordered and at most 11000 points"},
		{dash, m.Time(0), m.Time(4 * MaxPoints), "must be ordered and at most 11000 points"},
		{odd, m.Time(0), m.Time(4), "load-max: step 20s must be a multiple of the interval 15s"},
		{dash, m.Time(0) + 1, m.Time(4), "eval time 1700000000001 must be a scrape time"},
	} {
		if _, err := m.ExpectRange(c.q, c.start, c.end, ""); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ExpectRange(%s, %d, %d): %v, want %q", c.q.Name, c.start, c.end, err, c.want)
		}
	}
}

// The PromQL names the window the evaluation uses, and each kind is there.
func TestQueryList(t *testing.T) {
	cases := []struct {
		interval time.Duration
		window   string
	}{{15 * time.Second, "[60s]"}, {1100 * time.Millisecond, "[4400ms]"}}
	for _, c := range cases {
		cfg := testConfig()
		cfg.Interval, cfg.ChurnPeriod = c.interval, 4*c.interval
		m := mustNew(t, cfg)
		kinds := map[Kind]int{}
		names := map[string]bool{}
		for _, q := range m.Queries() {
			kinds[q.Kind]++
			if names[q.Name] {
				t.Fatalf("query %s twice", q.Name)
			}
			names[q.Name] = true
			if strings.Contains(q.PromQL, "[") && !strings.Contains(q.PromQL, c.window) {
				t.Errorf("%s: %s lacks the window %s", q.Name, q.PromQL, c.window)
			}
			// What the engines evaluate differently is left out, but for
			// rate and increase, whose answers are computed per engine.
			for _, banned := range []string{"delta(", "avg_over_time"} {
				if strings.Contains(q.PromQL, banned) {
					t.Errorf("%s uses %s", q.Name, banned)
				}
			}
			if strings.Contains(q.PromQL, "changes(") && !q.PerEngine {
				t.Errorf("%s counts changes, and its answer is not computed per engine", q.Name)
			}
			bare := strings.ReplaceAll(q.PromQL, "irate(", "")
			if (strings.Contains(bare, "rate(") || strings.Contains(bare, "increase(")) && !q.PerEngine {
				t.Errorf("%s takes a rate or an increase, and its answer is not computed per engine", q.Name)
			}
		}
		if kinds[Rule] == 0 || kinds[Alert] == 0 || kinds[Dashboard] == 0 || len(kinds) != 3 {
			t.Fatalf("kinds %v", kinds)
		}
	}
	if Rule.String() != "rule" || Alert.String() != "alert" || Dashboard.String() != "dashboard" || Kind(9).String() != "kind(9)" {
		t.Fatal("Kind.String")
	}
}

func TestRangeStart(t *testing.T) {
	cfg := testConfig()
	cfg.Start = 1_700_000_010_000 // a multiple of 15 s
	m := mustNew(t, cfg)
	for _, c := range []struct {
		t    int64
		step time.Duration
		want int64
		err  string
	}{
		{m.Time(0), time.Minute, 1_700_000_040_000, ""},
		{1_700_000_040_000, time.Minute, 1_700_000_040_000, ""},
		{1_700_000_040_001, time.Minute, 1_700_000_100_000, ""},
		{0, 15 * time.Second, m.Time(0), ""},
		{m.Time(0), 20 * time.Second, 0, "step 20s must be a positive multiple of the interval 15s"},
		{m.Time(0), 0, 0, "step 0s must be"},
	} {
		got, err := m.RangeStart(c.t, c.step)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("RangeStart(%d, %v): %v, want %q", c.t, c.step, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("RangeStart(%d, %v) = %d, %v; want %d", c.t, c.step, got, err, c.want)
		}
		if _, ok := m.Index(got); !ok || got%c.step.Milliseconds() != 0 {
			t.Errorf("RangeStart(%d, %v) = %d: not a scrape time and multiple of the step", c.t, c.step, got)
		}
	}
	cfg.Start++
	if _, err := mustNew(t, cfg).RangeStart(cfg.Start, time.Minute); err == nil ||
		!strings.Contains(err.Error(), "start 1700000010001 is not a multiple of the interval 15s") {
		t.Errorf("unaligned start: %v", err)
	}
}
