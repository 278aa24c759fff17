package pgwire

// yieldGate decides whether an answer not there right after its send is
// worth a second read after the loop gives up its core (sched_yield). On a
// core shared with the server the scheduler often queues the woken backend
// behind the client, which keeps the rest of its time slice: yielding lets
// the backend answer now, where otherwise the client would ask epoll, find
// nothing and sleep. On plus-one about half the yields found the answer; on
// a statement of a millisecond almost none do, and each is two system calls
// for nothing, so the gate keeps a credit: a yield that found the answer
// earns yieldEarn, one that did not costs one, and the loop yields while
// the credit lasts, so while more than one in yieldEarn+1 pays. Without
// credit it still tries every yieldProbe-th miss, to see whether yields
// pay again (docs/measuring.md, "Yielding after a miss").
type yieldGate struct {
	credit int // earned by yields that found the answer, at most yieldMax
	misses int // misses seen without credit, for the probe
}

const (
	yieldEarn  = 3
	yieldMax   = 30 // bounds the futile yields once they stop paying
	yieldProbe = 32
)

// worth reports whether to yield and read again after a miss.
func (g *yieldGate) worth() bool {
	if g.credit > 0 {
		return true
	}
	g.misses++
	return g.misses%yieldProbe == 1
}

// paid records whether the read after a yield found the answer.
func (g *yieldGate) paid(found bool) {
	if found {
		g.credit = min(g.credit+yieldEarn, yieldMax)
	} else {
		g.credit = max(g.credit-1, 0)
	}
}
