package promshape

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

func testConfig() Config {
	return Config{Targets: 10, Interval: 15 * time.Second, ChurnShare: 0.2, ChurnPeriod: time.Minute,
		Start: 1_700_000_000_000, Seed: 42, Job: "node"}
}

func mustNew(t testing.TB, c Config) *Model {
	t.Helper()
	m, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Config)
		want string // substring of the error; "" = valid
	}{
		{"ok", func(*Config) {}, ""},
		{"no churn", func(c *Config) { c.ChurnShare, c.ChurnPeriod = 0, 0 }, ""},
		{"all churn", func(c *Config) { c.ChurnShare = 1 }, ""},
		{"targets 0", func(c *Config) { c.Targets = 0 }, "targets 0 must be between 1 and 100000"},
		{"targets too many", func(c *Config) { c.Targets = MaxTargets + 1 }, "targets 100001 must be"},
		{"interval 0", func(c *Config) { c.Interval = 0 }, "interval 0s must be a positive whole number of milliseconds"},
		{"interval sub-ms", func(c *Config) { c.Interval = 1500 * time.Microsecond }, "interval 1.5ms must be"},
		{"share negative", func(c *Config) { c.ChurnShare = -0.1 }, "churn share -0.1 must be between 0 and 1"},
		{"share NaN", func(c *Config) { c.ChurnShare = math.NaN() }, "churn share NaN must be"},
		{"share above 1", func(c *Config) { c.ChurnShare = 1.5 }, "churn share 1.5 must be"},
		{"period not multiple", func(c *Config) { c.ChurnPeriod = 20 * time.Second }, "churn period 20s must be a non-negative multiple of the interval 15s"},
		{"period negative", func(c *Config) { c.ChurnPeriod = -time.Minute }, "churn period -1m0s must be"},
		{"period 0 with churn", func(c *Config) { c.ChurnPeriod = 0 }, "churn period 0s must be positive when the churn share is 0.2"},
		{"share rounds to none", func(c *Config) { c.ChurnShare = 0.04 }, "churn share 0.04 of 10 targets replaces no target per period; it must be 0 or at least 0.05"},
		{"start negative", func(c *Config) { c.Start = -1 }, "start -1 must not be negative"},
		{"job empty", func(c *Config) { c.Job = "" }, "job must not be empty"},
		{"spikes", func(c *Config) { c.SpikeShare, c.SpikeEvery = 0.5, 3 }, ""},
		{"spikes alone", func(c *Config) { c.ChurnShare, c.SpikeShare, c.SpikeEvery = 0, 0.5, 3 }, ""},
		{"spikes negative", func(c *Config) { c.SpikeShare, c.SpikeEvery = 0.5, -1 }, "spikes every -1 boundaries must not be negative"},
		{"spikes no period", func(c *Config) { c.ChurnShare, c.ChurnPeriod, c.SpikeShare, c.SpikeEvery = 0, 0, 0.5, 3 },
			"churn period 0s must be positive with spikes"},
		{"spike no bigger", func(c *Config) { c.SpikeShare, c.SpikeEvery = 0.2, 3 }, "spike share 0.2 must be at most 1 and replace more"},
		{"spike above 1", func(c *Config) { c.SpikeShare, c.SpikeEvery = 1.5, 3 }, "spike share 1.5 must be at most 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := testConfig()
			c.edit(&cfg)
			err := cfg.Validate()
			if c.want == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want it to contain %q", err, c.want)
			}
			if _, err := New(cfg); err == nil {
				t.Fatal("New accepted an invalid config")
			}
		})
	}
}

// sample is one emitted sample, labels rendered.
type sample struct {
	key  string
	t    int64
	bits uint64
}

func scrapeAll(t testing.TB, sc *Scraper, k int64) []sample {
	t.Helper()
	var out []sample
	if err := sc.Scrape(k, func(ls []remotewrite.Label, ts int64, v float64) {
		out = append(out, sample{Key(ls), ts, math.Float64bits(v)})
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// Same config, same samples; and a scrape computed alone (by a fresh
// Scraper) equals the same scrape computed in sequence.
func TestDeterminism(t *testing.T) {
	cfg := testConfig()
	a, b := mustNew(t, cfg).NewScraper(), mustNew(t, cfg).NewScraper()
	seq := make([][]sample, 30)
	for k := range seq {
		seq[k] = scrapeAll(t, a, int64(k))
		if got := scrapeAll(t, b, int64(k)); !equalSamples(got, seq[k]) {
			t.Fatalf("scrape %d differs between two models of one config", k)
		}
	}
	for _, k := range []int64{29, 0, 4, 17, 8} {
		if got := scrapeAll(t, mustNew(t, cfg).NewScraper(), k); !equalSamples(got, seq[k]) {
			t.Fatalf("scrape %d computed alone differs from it computed in sequence", k)
		}
	}
	cfg.Seed++
	if equalSamples(scrapeAll(t, mustNew(t, cfg).NewScraper(), 3), seq[3]) {
		t.Fatal("another seed gives the same samples")
	}
}

func equalSamples(a, b []sample) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Each profile's series: the small one's 41, the node one's as many as a
// real node_exporter's (800 to 1,300); every series' labels sorted with
// __name__ first, its target's instance and job, none listed twice, and
// Scrape giving them in Series' order.
func TestSeriesPerTarget(t *testing.T) {
	sm := smallShape
	for _, c := range []struct {
		profile  Profile
		min, max int
	}{
		{Small, 41, 41}, {Node, 800, 1300},
	} {
		t.Run(c.profile.String(), func(t *testing.T) {
			cfg := testConfig()
			cfg.Profile = c.profile
			m := mustNew(t, cfg)
			if n := m.SeriesPerTarget(); n < c.min || n > c.max {
				t.Fatalf("%d series per target, want %d to %d", n, c.min, c.max)
			}
			if c.profile == Small {
				if want := 1 + len(sm.cpus)*len(sm.modes) + 2 + 2*len(sm.filesystems) + 1 + 1 + len(handlers)*(len(leLabels)+2); m.SeriesPerTarget() != want {
					t.Fatalf("%d series per target, want %d", m.SeriesPerTarget(), want)
				}
			}
			checkSeries(t, m)
		})
	}
}

func checkSeries(t *testing.T, m *Model) {
	t.Helper()
	series, err := m.Series(3, 2)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, ls := range series {
		if ls[0].Name != remotewrite.MetricName {
			t.Fatalf("%v: __name__ is not first", ls)
		}
		for i := 1; i < len(ls); i++ {
			if ls[i-1].Name >= ls[i].Name {
				t.Fatalf("%v: labels not sorted by name", ls)
			}
			if ls[i].Value == "" {
				t.Fatalf("%v: an empty label, which Prometheus drops", ls)
			}
		}
		if v := labelValue(ls, "instance"); v != "host-3-2:9100" {
			t.Fatalf("%v: instance %q", ls, v)
		}
		if labelValue(ls, "job") != "node" {
			t.Fatalf("%v: job", ls)
		}
		if seen[Key(ls)] {
			t.Fatalf("series %s listed twice", Key(ls))
		}
		seen[Key(ls)] = true
	}
	if _, err := m.Series(10, 0); err == nil || !strings.Contains(err.Error(), "slot 10 must be in [0, 10)") {
		t.Fatalf("slot out of range: %v", err)
	}
	// Scrape gives each target's series in Series' order.
	var got []string
	_ = m.NewScraper().ScrapeSlots(0, 3, 4, func(ls []remotewrite.Label, _ int64, _ float64) { got = append(got, Key(ls)) })
	first, _ := m.Series(3, 0)
	for i, ls := range first {
		if got[i] != Key(ls) {
			t.Fatalf("scrape order %d: %s, Series says %s", i, got[i], Key(ls))
		}
	}
}

func labelValue(ls []remotewrite.Label, name string) string {
	for _, l := range ls {
		if l.Name == name {
			return l.Value
		}
	}
	return ""
}

func TestScrapeRejects(t *testing.T) {
	sc := mustNew(t, testConfig()).NewScraper()
	nop := func([]remotewrite.Label, int64, float64) {}
	for _, c := range []struct {
		k      int64
		lo, hi int
		want   string
	}{
		{-1, 0, 10, "scrape index -1 must not be negative"},
		{0, -1, 10, "slots [-1, 10) must be within [0, 10)"},
		{0, 0, 11, "slots [0, 11)"},
		{0, 5, 4, "slots [5, 4)"},
	} {
		if err := sc.ScrapeSlots(c.k, c.lo, c.hi, nop); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ScrapeSlots(%d, %d, %d): %v, want %q", c.k, c.lo, c.hi, err, c.want)
		}
	}
}
