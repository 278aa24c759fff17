package tpcc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// meta is what a complete load records in tpcc_meta, so that a later run
// can reuse it (TPCC_LOAD=auto) and draw its NURand constants from the
// load's.
type meta struct {
	Warehouses int
	Tables     string // "logged" or "unlogged"
	Tablespace string
	C          constants
}

func (c *Config) wantMeta() meta {
	tables := "logged"
	if c.Unlogged {
		tables = "unlogged"
	}
	return meta{Warehouses: c.Warehouses, Tables: tables, Tablespace: c.Tablespace, C: loadConstants(c.Seed)}
}

// readMeta returns the recorded load, or ok=false when there is no
// complete one.
func readMeta(ctx context.Context, db *sql.DB) (m meta, ok bool) {
	rows, err := db.QueryContext(ctx, "SELECT k, v FROM tpcc_meta")
	if err != nil {
		return m, false // no table: nothing loaded
	}
	defer rows.Close()
	kv := map[string]string{}
	for rows.Next() {
		var k, v string
		if rows.Scan(&k, &v) != nil {
			return m, false
		}
		kv[k] = v
	}
	if rows.Err() != nil || kv["complete"] != "yes" {
		return m, false
	}
	atoi := func(k string) int { n, _ := strconv.Atoi(kv[k]); return n }
	m = meta{Warehouses: atoi("warehouses"), Tables: kv["tables"], Tablespace: kv["tablespace"],
		C: constants{Last: atoi("c_last"), ID: atoi("c_id"), Item: atoi("c_item")}}
	return m, true
}

func writeMeta(ctx context.Context, db *sql.DB, d *dialect, m meta) error {
	kv := [][]any{{"warehouses", strconv.Itoa(m.Warehouses)}, {"tables", m.Tables}, {"tablespace", m.Tablespace},
		{"c_last", strconv.Itoa(m.C.Last)}, {"c_id", strconv.Itoa(m.C.ID)}, {"c_item", strconv.Itoa(m.C.Item)},
		{"complete", "yes"}} // last: a load cut short is never taken for complete
	for _, r := range kv {
		if _, err := db.ExecContext(ctx, d.rebind("INSERT INTO tpcc_meta (k, v) VALUES (?, ?)"), r...); err != nil {
			return err
		}
	}
	return nil
}

// LoadResult says what Prepare did.
type LoadResult struct {
	Loaded  bool    // false: an earlier complete load of the same shape was reused
	Seconds float64 // time spent loading
	Rows    int64
	Checks  []Check // the consistency conditions on the fresh load (all twelve)
}

// Prepare makes sure the database holds a complete load for cfg: under
// LoadAuto it reuses one of the same shape, else it (re)creates the tables
// and loads W warehouses, then checks the fresh data's consistency. It
// returns the NURand constants the load used.
func Prepare(ctx context.Context, db *sql.DB, dialectName string, cfg *Config) (LoadResult, constants, error) {
	d, err := dialectOf(dialectName)
	if err != nil {
		return LoadResult{}, constants{}, err
	}
	want := cfg.wantMeta()
	have, ok := readMeta(ctx, db)
	switch {
	case cfg.Joined && !(ok && sameShape(have, want)):
		return LoadResult{}, constants{}, fmt.Errorf("tpcc: worker %d: the database holds no complete load of %d warehouses "+
			"(%s tables) after worker 0 prepared it (tpcc_meta): are the workers on one database?", cfg.Share.Index, want.Warehouses, want.Tables)
	case cfg.Joined:
		return LoadResult{}, have.C, nil
	case cfg.Load == LoadNever && !ok:
		return LoadResult{}, constants{}, errors.New("TPCC_LOAD = never, but the database holds no complete TPC-C load (tpcc_meta)")
	case cfg.Load == LoadNever, cfg.Load == LoadAuto && ok && sameShape(have, want):
		if err := prepareMode(ctx, db, d, cfg); err != nil {
			return LoadResult{}, constants{}, err
		}
		return LoadResult{}, have.C, nil
	}
	t0 := time.Now()
	indexes, err := createTables(ctx, db, d, cfg)
	if err != nil {
		return LoadResult{}, constants{}, fmt.Errorf("tpcc: %w", err)
	}
	l := &loader{db: db, d: d, c: want.C, seed: cfg.Seed, now: time.Now().UTC().Truncate(time.Microsecond),
		workers: cfg.loadWorkers()}
	if err := l.all(ctx, cfg.Warehouses); err != nil {
		return LoadResult{}, constants{}, fmt.Errorf("tpcc: load: %w", err)
	}
	if err := createIndexes(ctx, db, indexes, l.workers); err != nil {
		return LoadResult{}, constants{}, fmt.Errorf("tpcc: index the load: %w", err)
	}
	if err := analyze(ctx, db, d); err != nil {
		return LoadResult{}, constants{}, fmt.Errorf("tpcc: analyze: %w", err)
	}
	if err := writeMeta(ctx, db, d, want); err != nil {
		return LoadResult{}, constants{}, fmt.Errorf("tpcc: record the load: %w", err)
	}
	if err := prepareMode(ctx, db, d, cfg); err != nil {
		return LoadResult{}, constants{}, err
	}
	res := LoadResult{Loaded: true, Seconds: time.Since(t0).Seconds(), Rows: l.rows.Load()}
	res.Checks, err = CheckConsistency(ctx, db, dialectName, true)
	if err != nil {
		return res, constants{}, err
	}
	return res, want.C, nil
}

// prepareMode creates what cfg's mode needs on the server beside the
// tables: the five routines of ModeProcedures (replaced on every run, so
// a reused load gets the routines of this version).
func prepareMode(ctx context.Context, db *sql.DB, d *dialect, cfg *Config) error {
	if cfg.Mode != ModeProcedures {
		return nil
	}
	if err := createRoutines(ctx, db, d); err != nil {
		return fmt.Errorf("tpcc: TPCC_MODE = procedures: %w", err)
	}
	return nil
}

func sameShape(a, b meta) bool {
	return a.Warehouses == b.Warehouses && a.Tables == b.Tables && a.Tablespace == b.Tablespace
}

// analyze refreshes the planner's statistics after the load.
func analyze(ctx context.Context, db *sql.DB, d *dialect) error {
	for _, t := range tables {
		q := "ANALYZE " + t
		if d.name == "mysql" {
			q = "ANALYZE TABLE " + t
		}
		rows, err := db.QueryContext(ctx, q) // MySQL answers ANALYZE TABLE with a result set
		if err != nil {
			return err
		}
		rows.Close()
	}
	return nil
}

// loader generates the initial population of clause 4.3.3.1.
type loader struct {
	db   *sql.DB
	d    *dialect
	c    constants
	seed int64
	now  time.Time
	rows atomic.Int64
	// workers is how many parts (the items, each warehouse) load at
	// once, each on its own connection; 0 or 1: one after the other.
	workers int
}

// flushRows is how many rows the loader sends at once.
const flushRows = 5000

// batch collects rows of one table and sends them flushRows at a time.
type batch struct {
	l     *loader
	table string
	cols  []string
	rows  [][]any
}

func (l *loader) batch(table string, cols ...string) *batch {
	return &batch{l: l, table: table, cols: cols}
}

func (b *batch) add(ctx context.Context, row ...any) error {
	b.rows = append(b.rows, row)
	if len(b.rows) >= flushRows {
		return b.flush(ctx)
	}
	return nil
}

func (b *batch) flush(ctx context.Context) error {
	if len(b.rows) == 0 {
		return nil
	}
	if err := b.l.d.bulk(ctx, b.l.db, b.table, b.cols, b.rows); err != nil {
		return fmt.Errorf("%s: %w", b.table, err)
	}
	b.l.rows.Add(int64(len(b.rows)))
	b.rows = b.rows[:0]
	return nil
}

// all loads the items and the W warehouses, l.workers parts at a time.
// Each part draws from its own random stream (the items from stream 0,
// warehouse w from stream w), so what is loaded does not depend on the
// order the parts run in.
func (l *loader) all(ctx context.Context, warehouses int) error {
	return inParallel(ctx, warehouses+1, l.workers, func(ctx context.Context, w int) error {
		if w == 0 {
			return l.items(ctx)
		}
		return l.warehouse(ctx, w)
	})
}

// inParallel runs f(0) … f(n-1), up to workers at once (at least one);
// the first error cancels the rest and is returned.
func inParallel(ctx context.Context, n, workers int, f func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	var (
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	for range max(1, min(workers, n)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if ctx.Err() != nil {
					return
				}
				if err := f(ctx, i); err != nil {
					errOnce.Do(func() { firstErr = err; cancel() })
					return
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}

func (l *loader) items(ctx context.Context) error {
	g := newRandom(l.seed, 0, l.c)
	b := l.batch("tpcc_item", "i_id", "i_im_id", "i_name", "i_price", "i_data")
	for i := 1; i <= items; i++ {
		if err := b.add(ctx, i, g.intn(1, 10000), g.aString(14, 24), cents(int64(g.intn(100, 10000))), g.data()); err != nil {
			return err
		}
	}
	return b.flush(ctx)
}

// warehouse loads one warehouse with its stock, districts, customers,
// history, orders, order lines and new orders.
func (l *loader) warehouse(ctx context.Context, w int) error {
	g := newRandom(l.seed, int64(w), l.c)
	wb := l.batch("tpcc_warehouse", "w_id", "w_name", "w_street_1", "w_street_2", "w_city", "w_state", "w_zip", "w_tax", "w_ytd")
	if err := wb.add(ctx, w, g.aString(6, 10), g.aString(10, 20), g.aString(10, 20), g.aString(10, 20), g.state(), g.zip(),
		fraction(g.intn(0, 2000)), cents(30_000_000)); err != nil {
		return err
	}
	if err := wb.flush(ctx); err != nil {
		return err
	}
	if err := l.stock(ctx, g, w); err != nil {
		return err
	}
	for d := 1; d <= districtsPerW; d++ {
		if err := l.district(ctx, g, w, d); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) stock(ctx context.Context, g *random, w int) error {
	b := l.batch("tpcc_stock", "s_i_id", "s_w_id", "s_quantity", "s_dist_01", "s_dist_02", "s_dist_03", "s_dist_04",
		"s_dist_05", "s_dist_06", "s_dist_07", "s_dist_08", "s_dist_09", "s_dist_10", "s_ytd", "s_order_cnt", "s_remote_cnt", "s_data")
	for i := 1; i <= stockPerW; i++ {
		row := []any{i, w, g.intn(10, 100)}
		for range districtsPerW {
			row = append(row, g.aString(24, 24))
		}
		row = append(row, 0, 0, 0, g.data())
		if err := b.add(ctx, row...); err != nil {
			return err
		}
	}
	return b.flush(ctx)
}

func (l *loader) district(ctx context.Context, g *random, w, d int) error {
	db := l.batch("tpcc_district", "d_id", "d_w_id", "d_name", "d_street_1", "d_street_2", "d_city", "d_state", "d_zip",
		"d_tax", "d_ytd", "d_next_o_id")
	if err := db.add(ctx, d, w, g.aString(6, 10), g.aString(10, 20), g.aString(10, 20), g.aString(10, 20), g.state(), g.zip(),
		fraction(g.intn(0, 2000)), cents(3_000_000), initialNextOrder); err != nil {
		return err
	}
	if err := db.flush(ctx); err != nil {
		return err
	}
	if err := l.customers(ctx, g, w, d); err != nil {
		return err
	}
	return l.orders(ctx, g, w, d)
}

func (l *loader) customers(ctx context.Context, g *random, w, d int) error {
	cb := l.batch("tpcc_customer", "c_id", "c_d_id", "c_w_id", "c_first", "c_middle", "c_last", "c_street_1", "c_street_2",
		"c_city", "c_state", "c_zip", "c_phone", "c_since", "c_credit", "c_credit_lim", "c_discount", "c_balance",
		"c_ytd_payment", "c_payment_cnt", "c_delivery_cnt", "c_data")
	hb := l.batch("tpcc_history", "h_c_id", "h_c_d_id", "h_c_w_id", "h_d_id", "h_w_id", "h_date", "h_amount", "h_data")
	for c := 1; c <= customersPerD; c++ {
		last := c - 1 // the first 1,000 customers take every name once
		if c > lastNameSyllables {
			last = g.nuRand(maxCLast, l.c.Last, 0, lastNameSyllables-1)
		}
		credit := "GC"
		if g.r.IntN(10) == 0 {
			credit = "BC"
		}
		if err := cb.add(ctx, c, d, w, g.aString(8, 16), "OE", lastName(last), g.aString(10, 20), g.aString(10, 20),
			g.aString(10, 20), g.state(), g.zip(), g.nString(16, 16), l.now, credit, cents(5_000_000),
			fraction(g.intn(0, 5000)), cents(-1000), cents(1000), 1, 0, g.aString(300, 500)); err != nil {
			return err
		}
		if err := hb.add(ctx, c, d, w, d, w, l.now, cents(1000), g.aString(12, 24)); err != nil {
			return err
		}
	}
	if err := cb.flush(ctx); err != nil {
		return err
	}
	return hb.flush(ctx)
}

func (l *loader) orders(ctx context.Context, g *random, w, d int) error {
	ob := l.batch("tpcc_orders", "o_id", "o_d_id", "o_w_id", "o_c_id", "o_entry_d", "o_carrier_id", "o_ol_cnt", "o_all_local")
	lb := l.batch("tpcc_order_line", "ol_o_id", "ol_d_id", "ol_w_id", "ol_number", "ol_i_id", "ol_supply_w_id",
		"ol_delivery_d", "ol_quantity", "ol_amount", "ol_dist_info")
	nb := l.batch("tpcc_new_order", "no_o_id", "no_d_id", "no_w_id")
	customers := g.r.Perm(customersPerD) // each customer places one of the initial orders
	for o := 1; o <= ordersPerD; o++ {
		delivered := o < firstUndelivered
		var carrier, deliveryD any // NULL for new orders
		if delivered {
			carrier, deliveryD = g.intn(1, 10), l.now
		}
		lines := g.intn(minItemsPerOrder, maxItemsPerOrder)
		if err := ob.add(ctx, o, d, w, customers[o-1]+1, l.now, carrier, lines, 1); err != nil {
			return err
		}
		for n := 1; n <= lines; n++ {
			amount := cents(0)
			if !delivered {
				amount = cents(int64(g.intn(1, 999_999)))
			}
			if err := lb.add(ctx, o, d, w, n, g.intn(1, items), w, deliveryD, 5, amount, g.aString(24, 24)); err != nil {
				return err
			}
		}
		if !delivered {
			if err := nb.add(ctx, o, d, w); err != nil {
				return err
			}
		}
	}
	for _, b := range []*batch{ob, lb, nb} {
		if err := b.flush(ctx); err != nil {
			return err
		}
	}
	return nil
}
