package tpcc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/summary"
)

// Hooks let the caller follow a run; all are optional and must not block.
type Hooks struct {
	// OnMeasure is called once as the measured phase begins.
	OnMeasure func(start time.Time)
	// OnInterval receives each one-second interval as it closes.
	OnInterval func(seq int, iv summary.Interval)
	// Progress is called once a second with the interval just closed and
	// the running totals.
	Progress func(elapsed time.Duration, iv summary.Interval, tot metrics.Totals)
}

// Result is what a run measured.
type Result struct {
	Elapsed     time.Duration
	Operations  []summary.Operation // one row per transaction type, by Names
	Intervals   []summary.Interval
	Interrupted bool
	StopReason  string // "duration" or "interrupted"
	// Rollbacks are New-Orders rolled back by design (counted in
	// NEW_ORDER's successes, as the specification counts them).
	Rollbacks int64
	// DeliverySkipped counts districts a Delivery found no new order in.
	DeliverySkipped int64
	WarmupTx        int64 // transactions completed during the warm-up
	Reconnects      int64 // connections re-opened after the server dropped one
}

// Run is one TPC-C run against a database.
type Run struct {
	db       *sql.DB
	d        *dialect
	cfg      Config
	c        constants
	stop     chan struct{}
	stopOnce sync.Once
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
	return &Run{db: db, d: d, cfg: cfg, c: runConstants(loaded, cfg.Seed), stop: make(chan struct{})}, nil
}

// Interrupt ends the run after the transactions in flight.
func (r *Run) Interrupt() { r.stopOnce.Do(func() { close(r.stop) }) }

func (r *Run) stopped() bool {
	select {
	case <-r.stop:
		return true
	default:
		return false
	}
}

// Execute opens the terminals, runs the warm-up and the measured phase and
// returns what was measured; an interrupted run returns what it measured
// so far.
func (r *Run) Execute(ctx context.Context, hooks Hooks) (*Result, error) {
	terms, err := r.openTerminals(ctx)
	defer func() {
		for _, t := range terms {
			t.conn.Close()
		}
	}()
	if err != nil {
		return nil, err
	}
	start := time.Now().Add(r.cfg.Warmup)
	end := start.Add(r.cfg.Duration)
	rec := metrics.NewRunNamed(len(terms), false, start, Names())
	var rollbacks, skipped, warm, reconnects atomic.Int64
	var wg sync.WaitGroup
	for i, t := range terms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := worker{r: r, t: t, rec: rec.Client(i), start: start, end: end,
				rollbacks: &rollbacks, warm: &warm, reconnects: &reconnects}
			w.loop(ctx)
			skipped.Add(t.deliverySkipped)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	r.sleepUntil(start, done)
	if hooks.OnMeasure != nil {
		hooks.OnMeasure(start)
	}
	r.collect(rec, start, done, hooks)
	elapsed := time.Since(start)
	rec.Snapshot(time.Now())
	res := &Result{Elapsed: elapsed, Operations: rec.Operations(elapsed), Intervals: rec.Intervals(),
		Rollbacks: rollbacks.Load(), DeliverySkipped: skipped.Load(), WarmupTx: warm.Load(),
		Reconnects: reconnects.Load(), StopReason: "duration"}
	if r.stopped() {
		res.Interrupted, res.StopReason = true, "interrupted"
	}
	return res, nil
}

func (r *Run) openTerminals(ctx context.Context) ([]*terminal, error) {
	var terms []*terminal
	for i := 0; i < r.cfg.Terminals; i++ {
		conn, err := r.db.Conn(ctx)
		if err != nil {
			return terms, fmt.Errorf("tpcc: connect terminal %d: %w", i, err)
		}
		terms = append(terms, &terminal{conn: conn, d: r.d, g: newRandom(r.cfg.Seed, int64(1000+i), r.c),
			w: i%r.cfg.Warehouses + 1, district: i/r.cfg.Warehouses%districtsPerW + 1, warehouses: r.cfg.Warehouses,
			stmts: map[string]string{}, now: func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) },
			mode: r.mode()})
	}
	return terms, nil
}

// mode is how the terminals send transactions; "" is ModeBatched.
func (r *Run) mode() string {
	if r.cfg.Mode == "" {
		return ModeBatched
	}
	return r.cfg.Mode
}

// collect closes one-second intervals until the terminals end
// (metrics.Run.Collect), feeding the hooks.
func (r *Run) collect(rec *metrics.Run, start time.Time, done <-chan struct{}, hooks Hooks) {
	rec.Collect(done, func(now time.Time, seq int, iv summary.Interval, tot metrics.Totals) {
		if hooks.OnInterval != nil && iv.Seconds > 0 {
			hooks.OnInterval(seq, iv)
		}
		if hooks.Progress != nil {
			hooks.Progress(now.Sub(start), iv, tot)
		}
	})
}

// sleepUntil waits until t, the run's stop or done (nil: never); it
// reports whether it waited until t.
func (r *Run) sleepUntil(t time.Time, done <-chan struct{}) bool {
	d := time.Until(t)
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-r.stop:
		return false
	case <-done:
		return false
	}
}

// worker drives one terminal.
type worker struct {
	r                           *Run
	t                           *terminal
	rec                         *metrics.Client
	start, end                  time.Time
	rollbacks, warm, reconnects *atomic.Int64
	deck                        []Tx
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

func (w *worker) loop(ctx context.Context) {
	r := w.r
	for !r.stopped() && time.Now().Before(w.end) && ctx.Err() == nil {
		tx := w.nextTx()
		if r.cfg.Think && !w.pause(keying[tx]) {
			return
		}
		begin := time.Now()
		tctx, cancel := context.WithTimeout(ctx, r.cfg.TxTimeout)
		err := w.t.run(tctx, tx)
		cancel()
		took := time.Since(begin)
		w.account(tx, begin, took, err)
		if err != nil && !errors.Is(err, errRollback) {
			w.reopenIfBroken(ctx)
		}
		if r.cfg.Think && !w.pause(thinkTime(w.t.g, think[tx])) {
			return
		}
	}
}

// account records one transaction: those begun before the measured phase
// are warm-up and only counted.
func (w *worker) account(tx Tx, begin time.Time, took time.Duration, err error) {
	ok := err == nil || errors.Is(err, errRollback)
	if begin.Before(w.start) {
		if ok {
			w.warm.Add(1)
		}
		return
	}
	if !ok {
		w.rec.Fail(metrics.Kind(tx), 1, fmt.Errorf("%s: %w", tx, err))
		return
	}
	w.rec.Record(metrics.Kind(tx), 1, took, took)
	if err != nil {
		w.rollbacks.Add(1)
	}
}

// reopenIfBroken replaces the terminal's connection when the server
// dropped it, so one failure does not fail every later transaction.
func (w *worker) reopenIfBroken(ctx context.Context) {
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if w.t.conn.PingContext(pctx) == nil {
		return
	}
	w.t.conn.Close()
	if conn, err := w.r.db.Conn(pctx); err == nil {
		w.t.conn = conn
		w.reconnects.Add(1)
	}
}

// pause sleeps d unless the run stops or ends first; false means stop.
func (w *worker) pause(d time.Duration) bool {
	d = min(d, time.Until(w.end))
	if d <= 0 {
		return false
	}
	return w.r.sleepUntil(time.Now().Add(d), nil) && time.Now().Before(w.end)
}

// thinkTime is a negative-exponential think time with the given mean,
// capped at ten times the mean (clause 5.2.5.4).
func thinkTime(g *random, mean time.Duration) time.Duration {
	u := 1 - g.r.Float64() // (0, 1]
	return min(time.Duration(-math.Log(u)*float64(mean)), 10*mean)
}
