package runner

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/workload"
)

// client is one concurrent worker with its own connection, devices, batch
// buffer and operation sequence.
type client struct {
	id        int // the client's number among CLIENT_NUMBER (global across workers)
	slot      int // its place among this process's clients
	r         *Runner
	conn      targets.Target
	host      *hostStats // its host's figures, with several hosts (hosts.go); else nil
	devices   []ts.Device
	plan      *workload.Plan
	queries   *workload.Queries
	batch     *ts.Batch
	filler    filler // fills batch n of a device: generated, or replayed
	rec       *metrics.Client
	pacer     pacer
	opctx     *opContext // each operation's context, re-armed (opctx.go)
	unyielded int        // operations since the client last yielded (yield)

	written int64 // write steps done: batch n of every owned device is the n-th

	// warmOps are the operations acknowledged during warm-up (not
	// measured), warmPoints the points its writes stored: a query's
	// answer points are not written and must not count toward
	// verification.
	warmOps, warmPoints int64
	// duplicatePoints are points of acknowledged batches whose (device,
	// time) an earlier row of a replayed file already had.
	duplicatePoints int64
	// inDoubtPoints are points of write attempts that failed in a way
	// that may still have stored them (metrics.InDoubt): verification
	// allows for them.
	inDoubtPoints int64
	// stored counts each device's acknowledged batches (by position in
	// devices): what a replay's query check computes its answers from.
	stored []int64
	// acked are each device's acknowledged batch numbers (by position in
	// devices), which a loss map counts range by range (loss.go).
	acked []spans
	query ts.Query
	own   *ownClient // the user's own queries (ownqueries.go), if any
}

// run executes the warm-up and then the measured plan until it is done, the
// deadline passes or the run is stopped.
func (c *client) run(ctx context.Context) {
	r := c.r
	c.opctx = newOpContext(ctx)
	if r.warmupEnd.After(time.Now()) {
		warm := workload.ClientPlan(workload.OrderSpread, r.weights(), unboundedLoop, c.id, r.cfg.Clients) // same mix, not counted against LOOP
		// A step once begun ends whole (a write step's batch number counts
		// for every device the client owns); one due after the warm-up is
		// not begun.
		for time.Now().Before(r.warmupEnd) && !r.stopped() && !c.pacer.dueFrom(r.warmupEnd) {
			op, _ := warm.Next()
			c.do(ctx, op, true)
		}
	}
	<-r.measureStart // every client starts measuring together
	c.pacer.start(time.Now())
	for !r.stopped() {
		op, ok := c.plan.Next()
		if !ok {
			return
		}
		if c.pastDeadline() {
			// An open model's client with nothing more due before the
			// deadline idles until it: the phase lasts its length, and the
			// achieved rate is counted over all of it.
			sleepUntil(r.deadline, r.stopCh)
			return
		}
		c.do(ctx, op, false)
	}
}

// pastDeadline reports whether the measured phase is over for this client:
// its deadline has passed, or its next operation would be due after it.
func (c *client) pastDeadline() bool {
	return c.r.deadlineHit() || c.pacer.dueFrom(c.r.deadline)
}

// do performs one plan step: a write step writes one batch to every device
// the client owns (each batch is one operation), a query step one query.
func (c *client) do(ctx context.Context, op workload.Op, warm bool) {
	if op == workload.Write {
		for i := range c.devices {
			if !warm && (c.r.stopped() || c.pastDeadline()) {
				return
			}
			if err := c.filler.fill(c.batch, &c.devices[i], c.written); err != nil {
				c.failFill(warm, err)
				continue
			}
			if c.batch.Len() == 0 {
				continue // a replayed device whose rows are all written
			}
			c.measure(ctx, op, warm, c.batch.Points(), func(ctx context.Context) (int64, error) {
				err := c.conn.Write(ctx, c.batch)
				if err == nil {
					c.stored[i]++
					c.acked[i].add(c.written)
					if dup := c.batch.DuplicatePoints; dup > 0 {
						atomic.AddInt64(&c.duplicatePoints, dup)
					}
				}
				return c.batch.Points(), err
			})
		}
		c.written++
		c.r.ownWritten(c.written)
		c.pacer.stepDone()
		return
	}
	if op >= workload.NumOps {
		c.doOwn(ctx, op, warm)
		c.pacer.stepDone()
		return
	}
	c.queries.Next(op.Query(), &c.query)
	c.measure(ctx, op, warm, 0, func(ctx context.Context) (int64, error) {
		res, err := query(ctx, c.r.driver.Caps, c.conn, &c.query)
		return res.Points, err
	})
	c.pacer.stepDone()
}

// measure times one operation and records it. In the open model latency
// counts from the operation's intended start, so a slow server cannot hide
// the queue it causes (coordinated omission); service time counts from the
// send. A write that fails on a connection error or a timeout is sent again
// up to RETRIES times (see retry): the operation is recorded once, and its
// latency includes the failed attempts and the waits between them.
func (c *client) measure(ctx context.Context, op workload.Op, warm bool, points int64, call func(context.Context) (int64, error)) {
	c.yield()
	intended := c.pacer.wait(c.r.stopCh)
	if !warm && c.r.stopped() {
		return
	}
	timeout := c.r.cfg.ReadTimeout
	if op == workload.Write {
		timeout = c.r.cfg.WriteTimeout
	}
	var doubt int64 // points of this operation's attempts in doubt
	attempt := func() (int64, error) {
		c.opctx.arm(timeout)
		defer c.opctx.disarm()
		got, err := call(c.opctx)
		if err != nil && points > 0 && metrics.InDoubt(err) {
			atomic.AddInt64(&c.inDoubtPoints, points)
			doubt += points
		}
		return got, err
	}
	sent := time.Now()
	got, err := attempt()
	var retries int64
	if op == workload.Write {
		got, err, retries = c.retry(ctx, got, err, attempt)
	}
	done := time.Now()
	if intended.IsZero() {
		intended = sent
	}
	switch {
	case warm:
		if err == nil {
			atomic.AddInt64(&c.warmOps, 1)
			if op == workload.Write {
				atomic.AddInt64(&c.warmPoints, got)
			}
		}
		return
	case err == nil:
		c.rec.Record(metrics.Kind(op), got, done.Sub(intended), done.Sub(sent))
	case errors.Is(err, targets.ErrUnsupported):
		c.rec.Unsupported(metrics.Kind(op))
	default:
		c.rec.Fail(metrics.Kind(op), points, err)
	}
	if retries > 0 {
		c.rec.Retried(metrics.Kind(op), retries)
	}
	if doubt > 0 {
		c.rec.InDoubt(metrics.Kind(op), doubt)
	}
	if c.host != nil && !errors.Is(err, targets.ErrUnsupported) {
		c.host.record(op == workload.Write, err, got, done.Sub(intended))
	}
}

// failFill counts a batch that could not be made (a replayed dataset that
// cannot be read) as a failed write: it was attempted, and not sent.
func (c *client) failFill(warm bool, err error) {
	if !warm && c.rec != nil {
		c.rec.Fail(metrics.Kind(workload.Write), 0, err)
	}
}

// yieldEvery is how many operations a client runs before it lets other
// goroutines run.
const yieldEvery = 64

// yield lets the other goroutines run every yieldEvery operations. Against
// a target that never blocks (null, or an embedded database) a client would
// otherwise keep its processor for a whole 10 ms preemption slice, and with
// a thousand clients the once-a-second collector waited seconds for its
// turn: the time series lost its seconds and the latencies piled up in
// memory (seen at 1,000 clients: 2 intervals in 8 s, RSS +11 MB/s).
func (c *client) yield() {
	if c.unyielded++; c.unyielded >= yieldEvery {
		c.unyielded = 0
		runtime.Gosched()
	}
}

// retry sends a failed write again while RETRIES allows, the failure is
// transient (metrics.Transient: the connection or the clock failed it, the
// server did not refuse it), and the run goes on: a stop or the deadline
// ends the retries, so a dead server never holds the run past its end. It
// returns the last attempt's outcome and the number of retries made.
func (c *client) retry(ctx context.Context, got int64, err error, attempt func() (int64, error)) (int64, error, int64) {
	var n int64
	for int(n) < c.r.cfg.Retries && err != nil && metrics.Transient(err) && ctx.Err() == nil {
		if !sleepUntil(time.Now().Add(c.backoff(n)), c.r.stopCh) || c.r.deadlineHit() {
			break
		}
		n++
		got, err = attempt()
	}
	return got, err, n
}

// backoff is the wait before retry n (from 0): RETRY_BACKOFF doubled n
// times, capped at RETRY_MAX_BACKOFF, then drawn uniformly from its upper
// half so that clients that failed together do not retry together.
func (c *client) backoff(n int64) time.Duration {
	d := c.r.cfg.RetryMaxBackoff
	if n < 30 {
		d = min(d, c.r.cfg.RetryBackoff<<n)
	}
	half := int64(d / 2)
	if half <= 0 {
		return d
	}
	return time.Duration(half + c.pacer.rng.Int64N(half+1))
}

func (c *client) warmOpsNow() int64    { return atomic.LoadInt64(&c.warmOps) }
func (c *client) warmPointsNow() int64 { return atomic.LoadInt64(&c.warmPoints) }
