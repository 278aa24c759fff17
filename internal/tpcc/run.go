package tpcc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/tsbench/tsbench/internal/arrival"
	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/metrics"
)

// Run is one TPC-C run against a database: its terminals are the
// engine's workers, each drawing the standard mix from its own deck.
type Run struct {
	db    *sql.DB
	d     *dialect
	cfg   Config
	c     constants
	terms []*terminal

	rollbacks, reconnects atomic.Int64
	orders                *orderBook // committed New-Orders per district (durability.go)
}

// NewRun prepares a run on db, which Prepare loaded (c are its constants).
func NewRun(db *sql.DB, dialectName string, cfg Config, loaded constants) (*Run, error) {
	d, err := dialectOf(dialectName)
	if err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Run{db: db, d: d, cfg: cfg, c: runConstants(loaded, cfg.Seed), orders: newOrderBook()}, nil
}

// Outcome is what the run's terminals counted beside the engine's
// figures.
type Outcome struct {
	// Rollbacks are measured New-Orders rolled back by design (counted in
	// NEW_ORDER's successes, as the specification counts them).
	Rollbacks int64
	// DeliverySkipped counts districts a Delivery found no new order in.
	DeliverySkipped int64
	Reconnects      int64 // connections re-opened after the server dropped one
}

// Open connects the terminals and snapshots the orders of every district
// (what the run's committed New-Orders are counted against afterwards).
// The workers it returns are the terminals, for the engine; Close them.
func (r *Run) Open(ctx context.Context) ([]engine.Worker, error) {
	terms, err := r.openTerminals(ctx)
	r.terms = terms
	if err != nil {
		return nil, err
	}
	if r.orders.before, err = ordersPerDistrict(ctx, r.db); err != nil {
		return nil, err
	}
	workers := make([]engine.Worker, len(terms))
	for i, t := range terms {
		workers[i] = &worker{r: r, t: t}
	}
	return workers, nil
}

// Close closes the terminals' connections.
func (r *Run) Close() {
	for _, t := range r.terms {
		t.conn.Close()
	}
}

// Outcome is what the terminals counted.
func (r *Run) Outcome() Outcome {
	o := Outcome{Rollbacks: r.rollbacks.Load(), Reconnects: r.reconnects.Load()}
	for _, t := range r.terms {
		o.DeliverySkipped += t.deliverySkipped
	}
	return o
}

func (r *Run) openTerminals(ctx context.Context) ([]*terminal, error) {
	var terms []*terminal
	// Each terminal's connection is a fresh one dialed under its arrival
	// clock (arrival.Dial): the pool's idle ones, the load's, carry none.
	r.db.SetMaxIdleConns(0)
	defer r.db.SetMaxIdleConns(defaultIdleConns)
	for _, i := range r.cfg.TerminalIDs() {
		arrived := &arrival.Clock{}
		conn, err := r.db.Conn(arrival.WithClock(ctx, arrived))
		if err != nil {
			return terms, fmt.Errorf("tpcc: connect terminal %d: %w", i, err)
		}
		terms = append(terms, &terminal{conn: conn, arrived: arrived, d: r.d, g: newRandom(r.cfg.Seed, int64(1000+i), r.c),
			w: i%r.cfg.Warehouses + 1, district: i/r.cfg.Warehouses%districtsPerW + 1, warehouses: r.cfg.Warehouses,
			stmts: map[string]string{}, now: func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) },
			mode: r.mode(), sock: socketOf(conn)})
	}
	return terms, nil
}

// defaultIdleConns is database/sql's own default of idle connections kept.
const defaultIdleConns = 2

// Clocks are the terminals' arrival clocks, in the order of Open's workers:
// the engine ends each transaction at its last answer's arrival
// (engine.Handle.Arrivals).
func (r *Run) Clocks() []*arrival.Clock {
	clocks := make([]*arrival.Clock, len(r.terms))
	for i, t := range r.terms {
		clocks[i] = t.arrived
	}
	return clocks
}

// mode is how the terminals send transactions; "" is ModeBatched.
func (r *Run) mode() string {
	if r.cfg.Mode == "" {
		return ModeBatched
	}
	return r.cfg.Mode
}

// worker drives one terminal.
type worker struct {
	r    *Run
	t    *terminal
	deck []Tx
}

// nextTx draws from a shuffled deck holding the mix's cards (clause
// 5.2.4.2 allows a deck): every 100 transactions of a terminal follow
// the mix exactly.
func (w *worker) nextTx() Tx {
	if len(w.deck) == 0 {
		for tx, n := range Mix {
			for range n {
				w.deck = append(w.deck, Tx(tx))
			}
		}
		w.t.g.r.Shuffle(len(w.deck), func(i, j int) { w.deck[i], w.deck[j] = w.deck[j], w.deck[i] })
	}
	tx := w.deck[len(w.deck)-1]
	w.deck = w.deck[:len(w.deck)-1]
	return tx
}

// Step runs one transaction, between its keying and think times when the
// run has them. A New-Order rolled back by design counts as done, as the
// specification counts it; a failure is counted under the server's
// message, and a connection the server dropped is opened again.
func (w *worker) Step(ctx context.Context, h *engine.Handle, warm bool) bool {
	r := w.r
	tx := w.nextTx()
	if r.cfg.Think && !h.Pause(keying[tx]) {
		return false
	}
	rolledBack := false
	done, err := h.Do(engine.Op{Kind: metrics.Kind(tx), Points: 1, Timeout: r.cfg.TxTimeout}, warm,
		func(ctx context.Context) (int64, error) {
			err := w.t.run(ctx, tx)
			switch {
			case errors.Is(err, errRollback):
				rolledBack = true
			case err != nil:
				return 0, fmt.Errorf("%s: %w", tx, err)
			}
			return 1, nil
		})
	if !done {
		return false
	}
	w.account(tx, warm, rolledBack, err)
	if err != nil && !w.reopenIfBroken(ctx) && !h.Pause(reconnectPause) {
		return false
	}
	return !r.cfg.Think || h.Pause(thinkTime(w.t.g, think[tx]))
}

// account counts what the engine does not: measured rollbacks, and every
// New-Order committed or in doubt, warm-up included, by district.
func (w *worker) account(tx Tx, warm, rolledBack bool, err error) {
	if rolledBack && !warm {
		w.r.rollbacks.Add(1)
	}
	if tx != NewOrder || rolledBack {
		return
	}
	switch {
	case err == nil:
		w.r.orders.committed(w.t.w, w.t.orderDistrict)
	case metrics.InDoubt(err):
		w.r.orders.inDoubt(w.t.w, w.t.orderDistrict)
	}
}

// reconnectPause is how long a terminal whose server cannot be reached
// waits before its next transaction: a dead server (a crash) is not
// hammered with transactions that cannot connect.
const reconnectPause = 100 * time.Millisecond

// reopenIfBroken replaces the terminal's connection when the server
// dropped it, so one failure does not fail every later transaction; false
// when it is broken and could not be replaced.
func (w *worker) reopenIfBroken(ctx context.Context) bool {
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if w.t.conn.PingContext(pctx) == nil {
		return true
	}
	w.t.conn.Close()
	conn, err := w.r.db.Conn(arrival.WithClock(pctx, w.t.arrived))
	if err != nil {
		return false
	}
	w.t.conn, w.t.sock = conn, socketOf(conn)
	w.r.reconnects.Add(1)
	return true
}

// thinkTime is a negative-exponential think time with the given mean,
// capped at ten times the mean (clause 5.2.5.4).
func thinkTime(g *random, mean time.Duration) time.Duration {
	u := 1 - g.r.Float64() // (0, 1]
	return min(time.Duration(-math.Log(u)*float64(mean)), 10*mean)
}
