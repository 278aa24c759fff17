package promshape

import (
	"math"
	"regexp"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

// Each boundary replaces exactly round(share x targets) slots, or
// round(spike x targets) at every every-th one; every slot is replaced
// within ceil(targets/churn) periods (ceil(1/share) when share x targets
// is whole), or ceil(targets/spike) spikes with spikes only; Birth is
// where Generation first reaches g.
func TestChurn(t *testing.T) {
	cases := []struct {
		targets int
		share   float64
		period  int64 // scrapes
		spike   float64
		every   int
	}{
		{10, 0.2, 4, 0, 0}, {10, 0.15, 1, 0, 0}, {7, 1, 3, 0, 0}, {1, 1, 2, 0, 0}, {100, 0.01, 5, 0, 0}, {13, 0.3, 2, 0, 0},
		{1000, 0.05, 10, 0, 0},
		// spikes: beside a steady churn, alone, every boundary, all at once
		{10, 0.2, 4, 0.5, 3}, {100, 0.01, 5, 0.3, 4}, {13, 0, 2, 0.4, 2}, {7, 0.15, 3, 1, 1}, {1000, 0.05, 10, 0.6, 6},
	}
	for _, c := range cases {
		cfg := testConfig()
		cfg.Targets, cfg.ChurnShare, cfg.ChurnPeriod = c.targets, c.share, time.Duration(c.period)*cfg.Interval
		cfg.SpikeShare, cfg.SpikeEvery = c.spike, c.every
		m := mustNew(t, cfg)
		n := int(math.Round(c.share * float64(c.targets)))
		ns := int(math.Round(c.spike * float64(c.targets)))
		var within int64
		if n > 0 {
			within = int64((c.targets + n - 1) / n)
			if whole := c.share * float64(c.targets); c.every == 0 && whole == math.Trunc(whole) && within != int64(math.Ceil(1/c.share)) {
				t.Fatalf("%+v: replaced within %d periods, not ceil(1/share)", c, within)
			}
		} else {
			within = int64((c.targets+ns-1)/ns) * int64(c.every)
		}
		last := make([]int64, c.targets) // period of each slot's last replacement
		for p := int64(1); p <= 3*within; p++ {
			k := p * c.period
			changed := 0
			for s := 0; s < c.targets; s++ {
				g, before := m.Generation(s, k), m.Generation(s, k-1)
				if g == before {
					if m.Replaced(s, k) {
						t.Fatalf("%+v: slot %d reported replaced without a new generation", c, s)
					}
					continue
				}
				if g != before+1 || !m.Replaced(s, k) {
					t.Fatalf("%+v: slot %d at boundary %d: generation %d after %d", c, s, p, g, before)
				}
				if b := m.Birth(s, g); b != k {
					t.Fatalf("%+v: slot %d generation %d born at %d, Birth says %d", c, s, g, k, b)
				}
				if p-last[s] > within {
					t.Fatalf("%+v: slot %d went %d periods without replacement, more than %d", c, s, p-last[s], within)
				}
				last[s] = p
				changed++
			}
			want := n
			if c.every > 0 && p%int64(c.every) == 0 {
				want = ns
			}
			if changed != want {
				t.Fatalf("%+v: boundary %d replaced %d slots, want %d", c, p, changed, want)
			}
			// Generations change only at boundaries.
			for s := 0; s < c.targets; s++ {
				for j := int64(1); j < c.period; j++ {
					if m.Generation(s, k+j) != m.Generation(s, k) {
						t.Fatalf("%+v: slot %d changed generation inside a period", c, s)
					}
				}
			}
		}
	}
}

func TestNoChurn(t *testing.T) {
	cfg := testConfig()
	cfg.ChurnShare, cfg.ChurnPeriod = 0, 0
	m := mustNew(t, cfg)
	for _, k := range []int64{0, 1, 1000, 1 << 40} {
		if g := m.Generation(3, k); g != 0 || m.Replaced(3, k) {
			t.Fatalf("generation %d at %d without churn", g, k)
		}
	}
}

// A replaced target's series get exactly one staleness marker, at the
// boundary, and nothing after; the new generation's series begin there;
// SeriesWritten counts the distinct series the scrapes wrote.
func TestStalenessMarkers(t *testing.T) {
	for _, churn := range []Churn{ChurnInstance, ChurnRevision} {
		t.Run(churn.String(), func(t *testing.T) { checkStalenessMarkers(t, churn) })
	}
}

func checkStalenessMarkers(t *testing.T, churn Churn) {
	cfg := testConfig()
	cfg.Churn = churn
	m := mustNew(t, cfg)
	sc := m.NewScraper()
	type life struct {
		first, last, stale int64 // scrape indexes; stale -1 = none yet
		afterStale         int
	}
	lives := map[string]*life{}
	const scrapes = 40
	for k := int64(0); k < scrapes; k++ {
		_ = sc.Scrape(k, func(ls []remotewrite.Label, ts int64, v float64) {
			if ts != m.Time(k) {
				t.Fatalf("sample of scrape %d at %d", k, ts)
			}
			key := Key(ls)
			l := lives[key]
			if l == nil {
				if IsStale(v) {
					t.Fatalf("%s: staleness marker before any sample", key)
				}
				l = &life{first: k, stale: -1}
				lives[key] = l
			}
			switch {
			case l.stale >= 0:
				l.afterStale++
			case IsStale(v):
				l.stale = k
			default:
				if l.last != k-1 && l.first != k {
					t.Fatalf("%s: gap before scrape %d", key, k)
				}
				l.last = k
			}
		})
	}
	ended := 0
	for key, l := range lives {
		if l.afterStale > 0 {
			t.Fatalf("%s: %d samples after its staleness marker", key, l.afterStale)
		}
		if l.stale >= 0 {
			ended++
			if l.stale != l.last+1 || l.stale%m.period != 0 {
				t.Fatalf("%s: last sample %d, marker %d: want the marker at the next scrape, a boundary", key, l.last, l.stale)
			}
		} else if l.last != scrapes-1 {
			t.Fatalf("%s: ended at %d without a staleness marker", key, l.last)
		}
	}
	// Boundaries 1..9 each end 2 targets of 41 series.
	if want := 9 * 2 * m.SeriesPerTarget(); ended != want {
		t.Fatalf("%d series ended, want %d", ended, want)
	}
	if got, want := m.SeriesWritten(0, cfg.Targets, scrapes-1), int64(len(lives)); got != want {
		t.Fatalf("SeriesWritten says %d series, the scrapes wrote %d", got, want)
	}
	if got, want := m.SeriesWritten(2, 5, scrapes-1)+m.SeriesWritten(0, 2, scrapes-1)+m.SeriesWritten(5, cfg.Targets, scrapes-1),
		int64(len(lives)); got != want {
		t.Fatalf("SeriesWritten of three slot ranges adds up to %d, want %d", got, want)
	}
	if !IsStale(StaleNaN()) || IsStale(math.NaN()) || IsStale(1) {
		t.Fatal("IsStale tells the marker from other values wrongly")
	}
}

// A replaced target's series differ from the old ones by their instance
// (ChurnInstance) or, the instance kept, by their revision label
// (ChurnRevision); InstancePattern matches every generation's instance of
// the slots asked, and no other slot's.
func TestChurnLabels(t *testing.T) {
	cases := []struct {
		churn         Churn
		inst, rev     string
		match, refuse string
	}{
		{ChurnInstance, "host-3-2:9100", "", "host-3-7:9100", "host-5-0:9100"},
		{ChurnRevision, "host-3:9100", "2", "host-4:9100", "host-5:9100"},
	}
	for _, c := range cases {
		cfg := testConfig()
		cfg.Churn = c.churn
		m := mustNew(t, cfg)
		series, err := m.Series(3, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, ls := range series {
			if labelOf(ls, "instance") != c.inst || labelOf(ls, "revision") != c.rev {
				t.Fatalf("%v: %s: want instance %q, revision %q", c.churn, Key(ls), c.inst, c.rev)
			}
		}
		re := regexp.MustCompile("^(?:" + m.InstancePattern(3, 5) + ")$")
		if !re.MatchString(c.inst) || !re.MatchString(c.match) || re.MatchString(c.refuse) {
			t.Errorf("%v: pattern %s", c.churn, m.InstancePattern(3, 5))
		}
	}
}

// Every series' label names are sorted and distinct in every profile and
// churn: a series the node profile exposes with a revision label of its
// own (node_exporter_build_info) keeps it as exported_revision when the
// target's revision label comes (the stores refuse a series with a label
// name twice: 13 such series were lost before).
func TestLabelNamesDistinct(t *testing.T) {
	for _, p := range Profiles {
		for _, churn := range []Churn{ChurnInstance, ChurnRevision} {
			cfg := testConfig()
			cfg.Profile, cfg.Churn = p, churn
			m := mustNew(t, cfg)
			series, err := m.Series(0, 1)
			if err != nil {
				t.Fatal(err)
			}
			exported := 0
			for _, ls := range series {
				for i := 1; i < len(ls); i++ {
					if ls[i-1].Name >= ls[i].Name {
						t.Fatalf("%v, %v: %s: label names not sorted and distinct", p, churn, Key(ls))
					}
				}
				if labelOf(ls, "exported_revision") != "" {
					exported++
				}
			}
			if want := map[bool]int{true: 1}[p == Node && churn == ChurnRevision]; exported != want {
				t.Errorf("%v, %v: %d series with exported_revision, want %d", p, churn, exported, want)
			}
		}
	}
}
