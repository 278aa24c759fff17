package workload

import (
	"math"

	"github.com/tsbench/tsbench/internal/ts"
)

// Op is one kind of operation: Write, or a query kind (Q1..Q10 share the
// numbers of ts.QueryKind).
type Op uint8

// Write is the ingestion operation.
const Write Op = 0

// NumOps is the number of operation kinds: Write and Q1..Q10.
const NumOps = 11

// Query returns the query kind of a non-write op.
func (o Op) Query() ts.QueryKind { return ts.QueryKind(o) }

// String is the row name of the matrices: INGESTION or the query kind's name.
func (o Op) String() string {
	if o == Write {
		return "INGESTION"
	}
	return ts.QueryKind(o).String()
}

// The operation orders of OPERATION_ORDER.
const (
	// OrderSpread is tsbench's: LOOP operations whose counts per kind are
	// OPERATION_PROPORTION apportioned exactly, interleaved smoothly, each
	// client starting at another place of the sequence.
	OrderSpread = "spread"
	// OrderRandom is IoT-benchmark's: each operation drawn from the
	// proportions with java.util.Random seeded with the client's index.
	OrderRandom = "random"
)

// Plan is the operation sequence of one client.
type Plan struct {
	seq    *Sequence   // OrderSpread
	rnd    *javaRandom // OrderRandom
	cum    []float64   // OrderRandom: cumulative proportions
	left   int64       // OrderRandom: operations still to draw
	counts []int64
}

// NewPlan apportions loop operations by the weights (write, Q1..Q10, then
// the user's own queries, if any), from the start of the sequence.
func NewPlan(weights []int64, loop int64) *Plan {
	counts := Counts(weights, loop)
	return &Plan{seq: NewSequence(counts), counts: counts}
}

// ClientPlan is the plan of client (of clients) in the given order. In
// OrderSpread every client holds the same operations and starts at its own
// place in the sequence (client·cycle/clients), so that the clients do not
// all send the same kind at once. In OrderRandom the counts differ from
// client to client, as in IoT-benchmark.
func ClientPlan(order string, weights []int64, loop int64, client, clients int) *Plan {
	if order == OrderRandom {
		return randomPlan(weights, loop, client)
	}
	p := NewPlan(weights, loop)
	if clients > 1 {
		p.seq.Skip(int64(client) * spreadCycle(weights, loop) / int64(clients))
	}
	return p
}

// spreadCycle is the length of sequence over which the clients' starting
// places are spread: one round of the weights (a smooth sequence of counts
// in proportion to the weights repeats with it), or the plan when shorter,
// and at most 2^16 steps, so that skipping to a start costs little.
func spreadCycle(weights []int64, loop int64) int64 {
	var sum int64
	for _, w := range weights {
		sum += w
	}
	return min(sum, loop, 1<<16)
}

// randomPlan draws loop operations as IoT-benchmark's OperationController
// does: proportions are the weights over their sum; a run of writes only
// draws nothing; otherwise the operation is the first kind whose cumulative
// interval [p(i-1), p(i)] holds the draw, and a draw past the last interval
// (rounding) is a write.
func randomPlan(weights []int64, loop int64, client int) *Plan {
	p := &Plan{rnd: newJavaRandom(int64(client)), left: loop,
		cum: make([]float64, len(weights)+1), counts: make([]int64, len(weights))}
	var sum float64
	for _, w := range weights {
		sum += float64(w)
	}
	for i, w := range weights {
		p.cum[i+1] = p.cum[i] + float64(w)/sum
	}
	if math.Abs(p.cum[1]-1) < 1e-7 {
		p.rnd = nil // all writes: IoT-benchmark draws nothing
	}
	if loop < unknownCounts {
		counter := *p
		counter.counts = nil
		if p.rnd != nil {
			r := *p.rnd
			counter.rnd = &r
		}
		for {
			op, ok := counter.Next()
			if !ok {
				break
			}
			p.counts[op]++
		}
	}
	return p
}

// unknownCounts is the plan length from which a random plan's counts are
// not drawn in advance: a run bounded by its duration.
const unknownCounts = 1 << 40

// Counts is how many operations of each kind the plan holds (zeros for a
// random plan too long to count).
func (p *Plan) Counts() []int64 { return p.counts }

// Next returns the next operation, or false when the plan is done.
func (p *Plan) Next() (Op, bool) {
	if p.seq != nil {
		i := p.seq.Next()
		if i < 0 {
			return 0, false
		}
		return Op(i), true
	}
	if p.left <= 0 {
		return 0, false
	}
	p.left--
	if p.rnd == nil {
		return Write, true
	}
	draw := p.rnd.nextDouble()
	for i := 1; i < len(p.cum); i++ {
		if draw >= p.cum[i-1] && draw <= p.cum[i] {
			return Op(i - 1), true
		}
	}
	return Write, true
}
