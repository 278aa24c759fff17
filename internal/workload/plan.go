package workload

import (
	"github.com/tsbench/tsbench/internal/apportion"
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

// Plan is the operation sequence of one client: LOOP operations whose counts
// per kind are OPERATION_PROPORTION apportioned exactly, interleaved smoothly.
// Every client gets the same sequence, so the whole run's counts are exact too.
type Plan struct {
	seq    *apportion.Sequence
	counts [NumOps]int64
}

// NewPlan apportions loop operations by the weights (write, Q1..Q10).
func NewPlan(weights [NumOps]int64, loop int64) *Plan {
	counts := apportion.Counts(weights[:], loop)
	p := &Plan{seq: apportion.NewSequence(counts)}
	copy(p.counts[:], counts)
	return p
}

// Counts is how many operations of each kind the plan holds.
func (p *Plan) Counts() [NumOps]int64 { return p.counts }

// Next returns the next operation, or false when the plan is done.
func (p *Plan) Next() (Op, bool) {
	i := p.seq.Next()
	if i < 0 {
		return 0, false
	}
	return Op(i), true
}
