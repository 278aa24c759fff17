package workload

import (
	"math"
	"slices"
	"testing"
)

// The values java.util.Random gives (Java 17's `new Random(seed)`, three
// nextDouble calls each): the generator IoT-benchmark draws operations from.
func TestJavaRandomMatchesJava(t *testing.T) {
	for _, tc := range []struct {
		seed int64
		want [3]float64
	}{
		{0, [3]float64{0.730967787376657, 0.24053641567148587, 0.6374174253501083}},
		{1, [3]float64{0.7308781907032909, 0.41008081149220166, 0.20771484130971707}},
		{7, [3]float64{0.7306990420600421, 0.7491696031336331, 0.34830970303125697}},
		{19, [3]float64{0.7324906626029803, 0.35828168671931826, 0.942361279530953}},
	} {
		r := newJavaRandom(tc.seed)
		for i, want := range tc.want {
			if got := r.nextDouble(); got != want {
				t.Errorf("seed %d draw %d = %v, Java gives %v", tc.seed, i, got, want)
			}
		}
	}
}

func drain(p *Plan) []Op {
	var out []Op
	for op, ok := p.Next(); ok; op, ok = p.Next() {
		out = append(out, op)
	}
	return out
}

// A random plan takes the first kind whose cumulative interval holds the
// draw, with the draws above: client 0 of write:Q1 = 1:1 draws .73, .24,
// .64 (Q1, write, Q1); client 19 of 1:0:1 (write, Q2) draws .73, .36, .94.
func TestRandomPlanDrawsAsIoTBenchmark(t *testing.T) {
	for _, tc := range []struct {
		weights [NumOps]int64
		client  int
		want    []Op
	}{
		{[NumOps]int64{1, 1}, 0, []Op{1, Write, 1}},
		{[NumOps]int64{1, 0, 1}, 19, []Op{2, Write, 2}},
		{[NumOps]int64{1, 1, 1, 1}, 7, []Op{2, 2, 1}},
		{[NumOps]int64{5}, 3, []Op{Write, Write, Write}}, // writes only: no draw
	} {
		p := ClientPlan(OrderRandom, tc.weights[:], 3, tc.client, 20)
		got := drain(p)
		if len(got) != len(tc.want) {
			t.Fatalf("%v client %d: %v, want %v", tc.weights, tc.client, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%v client %d: %v, want %v", tc.weights, tc.client, got, tc.want)
				break
			}
		}
	}
}

// A random plan's Counts are what it hands out, and over many draws the
// shares approach the proportions; clients differ.
func TestRandomPlanCounts(t *testing.T) {
	w := [NumOps]int64{2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 4}
	const loop = 20000
	var first [NumOps]int64
	for client := range 3 {
		p := ClientPlan(OrderRandom, w[:], loop, client, 3)
		counts := [NumOps]int64(p.Counts())
		var got [NumOps]int64
		for _, op := range drain(p) {
			got[op]++
		}
		if got != counts {
			t.Fatalf("client %d: Counts %v, handed out %v", client, counts, got)
		}
		for i, wi := range w {
			if share := float64(got[i]) / loop; math.Abs(share-float64(wi)/8) > 0.02 {
				t.Errorf("client %d kind %d: share %.3f, proportion %.3f", client, i, share, float64(wi)/8)
			}
		}
		if client == 0 {
			first = counts
		} else if counts == first {
			t.Errorf("client %d has client 0's counts %v: the draws are not per client", client, counts)
		}
	}
}

// Spread plans hold the same counts for every client, start at different
// places, and are rotations of one sequence.
func TestSpreadPlanRotates(t *testing.T) {
	w := [NumOps]int64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	const loop, clients = 55, 4
	base := drain(NewPlan(w[:], loop))
	starts := map[Op]bool{}
	for client := range clients {
		p := ClientPlan(OrderSpread, w[:], loop, client, clients)
		if !slices.Equal(p.Counts(), NewPlan(w[:], loop).Counts()) {
			t.Fatalf("client %d counts %v", client, p.Counts())
		}
		got := drain(p)
		if len(got) != loop {
			t.Fatalf("client %d: %d operations, want %d", client, len(got), loop)
		}
		off := int64(client) * spreadCycle(w[:], loop) / clients
		for i := range got {
			if got[i] != base[(int64(i)+off)%loop] {
				t.Fatalf("client %d is not the sequence rotated by %d: %v", client, off, got)
			}
		}
		starts[got[0]] = true
	}
	if len(starts) != clients {
		t.Errorf("clients start on %d kinds, want %d", len(starts), clients)
	}
}
