package runner

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/workload"
)

// ownLoop serves the clients' own queries from one event loop
// (CLIENT_IO=epoll): the engine's AsyncWorker over the target's
// StatementLoop, client i its worker i.
type ownLoop struct {
	ctx     context.Context // bounds a connection's re-opening
	clients []*client
	loop    targets.StatementLoop
	query   []int  // each client's query in flight, by its place in the file
	warm    []bool // whether it belongs to the warm-up
	// done is the engine's callback of the Wait under way; report, made
	// once, passes each ended query on to it (no allocation per Wait).
	done   func(int, time.Time, int64, error)
	report func(int, time.Time, int64, error)
}

// openOwnLoops opens the event loops CLIENT_IO=epoll asks for: CLIENT_LOOPS,
// by default as many as the processors Go may use (GOMAXPROCS), at most one
// a client, as pgbench runs -j threads of its connections (on two cores one
// loop left a server backend idle while it served another's answer). Each
// opens, through the run's admin connection, one connection for each of its
// clients, who open none of their own (loopServed). None without
// CLIENT_IO=epoll.
func (r *Runner) openOwnLoops(ctx context.Context, admin targets.Target, clients []*client) ([]*ownLoop, error) {
	if !r.loopsServe() || len(clients) == 0 {
		return nil, nil
	}
	l, ok := admin.(targets.StatementLooper)
	if !ok || r.own == nil {
		return nil, badinput.Errorf("CLIENT_IO = epoll: %s serves no client loop; CLIENT_IO = goroutines serves every run", r.driver.Name)
	}
	n := r.cfg.ClientLoops
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	n = min(n, len(clients)) // a worker's share of the clients may be fewer than the loops
	var loops []*ownLoop
	for k := range n {
		group := clients[k*len(clients)/n : (k+1)*len(clients)/n]
		loop, err := l.OpenStatementLoop(ctx, len(group))
		if err != nil {
			closeLoops(loops)
			return nil, fmt.Errorf("%s: %w", r.driver.Name, err)
		}
		o := &ownLoop{ctx: ctx, clients: group, loop: loop, query: make([]int, len(group)), warm: make([]bool, len(group))}
		o.report = o.ended
		loops = append(loops, o)
	}
	return loops, nil
}

func closeLoops(loops []*ownLoop) {
	for _, l := range loops {
		l.loop.Close()
	}
}

// asyncGroups are the engine's view of loops.
func asyncGroups(loops []*ownLoop) []engine.AsyncGroup {
	var gs []engine.AsyncGroup
	for _, l := range loops {
		g := engine.AsyncGroup{Worker: l}
		for _, c := range l.clients {
			g.Handles = append(g.Handles, c.h)
		}
		gs = append(gs, g)
	}
	return gs
}

// Begin sends client i's next own query.
func (o *ownLoop) Begin(i int, warm bool) (engine.Op, bool, error) {
	c := o.clients[i]
	op, ok := c.next(warm)
	if !ok {
		return engine.Op{}, false, nil
	}
	eop := c.op(op, 0)
	q := int(op) - workload.NumOps
	if q < 0 {
		return eop, true, fmt.Errorf("CLIENT_IO = epoll serves your own queries alone, not %s", op)
	}
	o.query[i], o.warm[i] = q, warm
	st, err := c.renderOwn(q)
	if err == nil {
		err = o.loop.Send(o.ctx, i, st)
	}
	return eop, true, err
}

// Wait reports the queries that ended, keeping each measured one's rows.
func (o *ownLoop) Wait(until time.Time, done func(int, time.Time, int64, error)) error {
	o.done = done
	return o.loop.Wait(until, o.report)
}

func (o *ownLoop) ended(i int, at time.Time, rows int64, err error) {
	if err == nil && !o.warm[i] {
		_ = o.clients[i].own.rows[o.query[i]].RecordValue(rows)
	}
	o.done(i, at, rows, err)
}

func (o *ownLoop) Abort(i int) { o.loop.Abort(i) }

// loopsServe reports whether event loops serve the clients' queries
// (CLIENT_IO=epoll, which the command line settles CLIENT_IO=auto on where
// they serve the run).
func (r *Runner) loopsServe() bool { return r.cfg.ClientIO == "epoll" }

// loopServed is the connection of a client whose queries its event loop
// sends: it opens none of its own, which would sit idle and hold a server
// backend (and at CLIENT_NUMBER near max_connections, leave the loops none).
type loopServed struct{}

var errLoopServed = errors.New("CLIENT_IO = epoll: this client's queries go through its event loop")

func (loopServed) Setup(context.Context, *ts.Schema, bool) error { return errLoopServed }
func (loopServed) Write(context.Context, *ts.Batch) error        { return errLoopServed }
func (loopServed) Query(context.Context, *ts.Query) (ts.Result, error) {
	return ts.Result{}, errLoopServed
}
func (loopServed) Count(context.Context, ts.CountRange) (int64, error) { return 0, errLoopServed }
func (loopServed) Close() error                                        { return nil }
