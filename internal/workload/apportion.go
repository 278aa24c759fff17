package workload

// Whole numbers divided by weights exactly: how many of n items each weight
// gets (largest remainder), and in which order to hand them out so that
// every prefix stays close to the proportion (smooth weighted round-robin).
// Sensor types and operation mixes both use it, which is why a run's
// operation counts match OPERATION_PROPORTION exactly instead of drifting
// like a weighted dice roll.

import (
	"math/big"
	"sort"
)

// Counts splits n by weights with the largest-remainder method: weight i
// first gets floor(n*w_i/sum), and what is left goes one each to the largest
// remainders, ties to the earlier weight. It returns nil when a weight is
// negative, all are zero, or n < 0.
func Counts(weights []int64, n int64) []int64 {
	var sum int64
	for _, w := range weights {
		if w < 0 {
			return nil
		}
		sum += w
	}
	if sum <= 0 || n < 0 {
		return nil
	}
	counts := make([]int64, len(weights))
	rems := make([]int64, len(weights))
	var given int64
	N, S := big.NewInt(n), big.NewInt(sum)
	for i, w := range weights {
		q, r := new(big.Int).QuoRem(new(big.Int).Mul(N, big.NewInt(w)), S, new(big.Int))
		counts[i], rems[i] = q.Int64(), r.Int64()
		given += counts[i]
	}
	order := make([]int, len(weights))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rems[order[a]] > rems[order[b]] })
	for _, i := range order[:n-given] {
		counts[i]++
	}
	return counts
}

// Sequence hands out items by counts in smooth weighted round-robin order:
// over len = sum(counts) steps each index i comes exactly counts[i] times,
// spread evenly. It is deterministic and keeps O(len(counts)) state.
type Sequence struct {
	counts []int64
	credit []int64
	total  int64
	step   int64
}

// NewSequence starts a sequence over the counts.
func NewSequence(counts []int64) *Sequence {
	s := &Sequence{counts: counts, credit: make([]int64, len(counts))}
	for _, c := range counts {
		s.total += c
	}
	return s
}

// Next returns the next index, or -1 after sum(counts) steps.
func (s *Sequence) Next() int {
	if s.step >= s.total {
		return -1
	}
	s.step++
	return s.pick()
}

// pick advances the credits one step and returns the index chosen.
func (s *Sequence) pick() int {
	best := -1
	for i, c := range s.counts {
		s.credit[i] += c
		if c > 0 && (best < 0 || s.credit[i] > s.credit[best]) {
			best = i
		}
	}
	s.credit[best] -= s.total
	return best
}

// Skip starts the sequence n steps later without shortening it: the credits
// return to zero after sum(counts) steps, so the sequence is periodic, and
// the sum(counts) steps that follow the skipped ones are a rotation of it,
// with the same counts. Skip must be called before Next.
func (s *Sequence) Skip(n int64) {
	if s.total == 0 {
		return
	}
	for n %= s.total; n > 0; n-- {
		s.pick()
	}
}
