package metrics

import (
	"math"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// second is one interval of a synthetic series: n operations at lat each,
// plus slow ones at slowLat (operations a stall held until its end).
type second struct {
	n, slow      int64
	lat, slowLat time.Duration
	length       float64
}

func series(secs ...second) []summary.Interval {
	var out []summary.Interval
	t := 0.0
	for _, s := range secs {
		length := s.length
		if length == 0 {
			length = 1
		}
		iv := summary.Interval{Start: t, Seconds: length}
		if s.n+s.slow > 0 {
			h := NewHistogram()
			h.RecordValues(micros(s.lat), s.n)
			if s.slow > 0 {
				h.RecordValues(micros(s.slowLat), s.slow)
			}
			iv.Ops = []summary.IntervalOp{{Name: "INGESTION", OKOps: s.n + s.slow, MaxMS: ms(h.Max()), Histogram: Encode(h)}}
		}
		out = append(out, iv)
		t += length
	}
	return out
}

func repeat(n int, s second) []second {
	out := make([]second, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func concat(parts ...[]second) []second {
	var out []second
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestStalls(t *testing.T) {
	steady := second{n: 1000, lat: time.Millisecond}
	idle := second{}
	// The four clients frozen with the server complete just after it,
	// 4 s late; the second after them is steady again.
	released := second{n: 996, lat: time.Millisecond, slow: 4, slowLat: 4 * time.Second}
	cases := []struct {
		name  string
		secs  []second
		want  []summary.Stall
		total int64
	}{
		{name: "none", secs: repeat(20, steady)},
		{name: "freeze of four seconds",
			secs: concat(repeat(10, steady), repeat(4, idle), []second{released}, repeat(5, steady)),
			want: []summary.Stall{{Start: 10, Seconds: 4, OpsPerSecond: 0, MedianOpsPerSecond: 1000,
				HeldOperations: 4, MaxMS: 4000}},
			total: 16000},
		{name: "a two-second dip is no stall",
			secs: concat(repeat(10, steady), repeat(2, second{n: 100, lat: time.Millisecond}), repeat(8, steady))},
		{name: "a slow tail",
			secs: concat(repeat(10, steady), repeat(3, second{n: 300, lat: time.Millisecond}), []second{{n: 10, lat: time.Millisecond, length: 0.2}}),
			want: []summary.Stall{{Start: 10, Seconds: 3, OpsPerSecond: 300, MedianOpsPerSecond: 1000,
				HeldOperations: 900, MaxMS: 1, AtEnd: true}},
			total: 10910},
		{name: "a short last interval is no stall",
			secs: concat(repeat(10, steady), []second{{n: 1, lat: time.Millisecond, length: 0.3}})},
		{name: "empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Stalls(series(c.secs...), 3*time.Second, 0.5)
			if len(got) != len(c.want) {
				t.Fatalf("got %d stalls %+v, want %d", len(got), got, len(c.want))
			}
			for i, w := range c.want {
				w.Share = float64(w.HeldOperations) / float64(c.total)
				g := got[i]
				if math.Abs(g.MaxMS-w.MaxMS) > w.MaxMS/100 { // HDR's precision
					t.Errorf("max %.1f ms, want %.1f", g.MaxMS, w.MaxMS)
				}
				g.MaxMS = w.MaxMS
				if g != w {
					t.Errorf("got %+v\nwant %+v", g, w)
				}
			}
		})
	}
}

// An operation completed well after the stall, whose latency does not
// reach back into it, is not held by it.
func TestStallsHoldOnlyWhatOverlapped(t *testing.T) {
	steady := second{n: 1000, lat: time.Millisecond}
	secs := concat(repeat(10, steady), repeat(3, second{}),
		[]second{{n: 999, lat: time.Millisecond, slow: 1, slowLat: 800 * time.Millisecond}},  // ended ≤1 s after, 0.8 s long: unsure, not counted
		[]second{{n: 998, lat: time.Millisecond, slow: 2, slowLat: 2500 * time.Millisecond}}, // ended ≤2 s after, 2.5 s long: held
		repeat(5, steady))
	got := Stalls(series(secs...), 3*time.Second, 0.5)
	if len(got) != 1 || got[0].HeldOperations != 2 {
		t.Fatalf("got %+v, want one stall holding 2 operations", got)
	}
}
