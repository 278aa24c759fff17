package workload

import (
	"reflect"
	"testing"
)

func TestCounts(t *testing.T) {
	cases := []struct {
		weights []int64
		n       int64
		want    []int64
	}{
		{[]int64{1, 1, 1, 1, 1, 1}, 300, []int64{50, 50, 50, 50, 50, 50}},
		{[]int64{1, 2}, 10, []int64{3, 7}},
		{[]int64{0, 0, 0, 0, 1, 0}, 3000, []int64{0, 0, 0, 0, 3000, 0}},
		{[]int64{10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 1000, []int64{500, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50}},
		{[]int64{0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 30, []int64{0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}},
		{[]int64{1, 1, 1}, 4, []int64{2, 1, 1}},
		{[]int64{1, 1}, 0, []int64{0, 0}},
		{[]int64{0, 0}, 5, nil},
		{[]int64{-1, 2}, 5, nil},
	}
	for _, c := range cases {
		if got := Counts(c.weights, c.n); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Counts(%v, %d) = %v, want %v", c.weights, c.n, got, c.want)
		}
	}
}

// Every count is met exactly, and every prefix stays within one item of the
// exact proportion (the smoothness that makes short, interrupted runs fair).
func TestSequenceExactAndSmooth(t *testing.T) {
	for _, counts := range [][]int64{{500, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50}, {3, 7}, {1, 0, 5}, {7}} {
		s := NewSequence(counts)
		var total int64
		for _, c := range counts {
			total += c
		}
		seen := make([]int64, len(counts))
		for step := int64(1); ; step++ {
			i := s.Next()
			if i < 0 {
				if step-1 != total {
					t.Fatalf("%v: sequence ended after %d steps, want %d", counts, step-1, total)
				}
				break
			}
			seen[i]++
			for j, c := range counts {
				ideal := float64(c) * float64(step) / float64(total)
				if d := float64(seen[j]) - ideal; d > 1 || d < -1 {
					t.Fatalf("%v: after %d steps index %d has %d, ideal %.2f", counts, step, j, seen[j], ideal)
				}
			}
		}
		if !reflect.DeepEqual(seen, counts) {
			t.Fatalf("sequence gave %v, want %v", seen, counts)
		}
	}
}
