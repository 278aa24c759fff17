package runner

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/tsbench/tsbench/internal/arrival"
	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/workload"
)

// client is one concurrent worker with its own connection, devices, batch
// buffer and operation sequence; the engine drives it (Step) and measures
// its operations.
type client struct {
	id      int // the client's number among CLIENT_NUMBER (global across workers)
	r       *Runner
	conn    targets.Target
	host    *hostStats // its host's figures, with several hosts (hosts.go); else nil
	devices []ts.Device
	plan    *workload.Plan
	warm    *workload.Plan // the warm-up's: the same mix, not counted against LOOP
	queries *workload.Queries
	batch   *ts.Batch
	filler  filler // fills batch n of a device: generated, or replayed

	h       *engine.Handle // its part of the engine: pacing, recording
	arrived *arrival.Clock // its connections' last arrival (engine.Handle.Arrivals)
	written int64          // write steps done: batch n of every owned device is the n-th

	// duplicatePoints are points of acknowledged batches whose (device,
	// time) an earlier row of a replayed file already had.
	duplicatePoints int64
	// stored counts each device's acknowledged batches (by position in
	// devices): what a replay's query check computes its answers from.
	stored []int64
	// acked are each device's acknowledged batch numbers (by position in
	// devices), which a loss map counts range by range (loss.go).
	acked []spans
	// holed marks the devices (by position in devices) of which a write
	// failed for good, warm-up included: their stored rows may have a hole,
	// which no expected answer knows.
	holed []bool
	query ts.Query
	own   *ownClient // the user's own queries (ownqueries.go), if any
}

// Step does the client's next plan step: a write step writes one batch to
// every device the client owns (each batch is one operation), a query
// step one query. The warm-up draws from a plan of its own, the same mix.
func (c *client) Step(ctx context.Context, h *engine.Handle, warm bool) bool {
	op, ok := c.next(warm)
	if !ok {
		return false
	}
	c.do(ctx, h, op, warm)
	return true
}

// next is the client's next plan step, of the warm-up's plan or the run's.
func (c *client) next(warm bool) (workload.Op, bool) {
	if !warm {
		return c.plan.Next()
	}
	if c.warm == nil {
		c.warm = workload.ClientPlan(workload.OrderSpread, c.r.weights(), unboundedLoop, c.id, c.r.cfg.Clients)
	}
	return c.warm.Next()
}

// do performs one plan step.
func (c *client) do(ctx context.Context, h *engine.Handle, op workload.Op, warm bool) {
	if op == workload.Write {
		c.writeStep(h, warm)
		return
	}
	if op >= workload.NumOps {
		c.doOwn(h, op, warm)
		return
	}
	c.queries.Next(op.Query(), &c.query)
	h.Do(c.op(op, 0), warm, func(ctx context.Context) (int64, error) {
		res, err := query(ctx, c.r.driver.Caps, c.conn, &c.query)
		return res.Points, err
	})
}

// writeStep writes batch c.written of every device the client owns. A
// step the run's end cuts short is not counted: its batch number was not
// written to every device.
func (c *client) writeStep(h *engine.Handle, warm bool) {
	for i := range c.devices {
		if err := c.filler.fill(c.batch, &c.devices[i], c.written); err != nil {
			h.Failed(c.op(workload.Write, 0), warm, err)
			c.holed[i] = true
			continue
		}
		if c.batch.Len() == 0 {
			continue // a replayed device whose rows are all written
		}
		done, err := h.Do(c.op(workload.Write, c.batch.Points()), warm, func(ctx context.Context) (int64, error) {
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
		if !done {
			return
		}
		if err != nil {
			c.holed[i] = true
		}
	}
	c.written++
	c.r.ownWritten(c.written)
}

// op is the engine's view of an operation of kind op carrying points.
func (c *client) op(op workload.Op, points int64) engine.Op {
	timeout := c.r.cfg.ReadTimeout
	if op == workload.Write {
		timeout = c.r.cfg.WriteTimeout
	}
	return engine.Op{Kind: metrics.Kind(op), Points: points, Write: op == workload.Write, Timeout: timeout}
}

// observe gives the client's host its figures (several hosts: hosts.go).
func (c *client) observe(op engine.Op, got int64, latency time.Duration, err error) {
	c.host.record(op.Write, err, got, latency)
}
