// Package tpcc is the TPC-C workload (TPC Benchmark C, standard
// specification revision 5.11): its nine tables, a loader for W warehouses,
// the five transactions sent in one of three modes — batched (statements
// that do not need each other's answers share a round trip: a pgx pipeline
// on PostgreSQL, merged statements on MySQL), interactive (one statement
// per round trip, as BenchmarkSQL sends them) or procedures (one call of a
// server-side routine per transaction, as HammerDB runs TPC-C) —,
// terminals drawing the standard mix, optional keying and think times, and
// the consistency conditions checked after a run.
//
// It speaks database/sql to any target that declares target.SQLAccess
// (PostgreSQL, and with it any PostgreSQL-wire server such as openGauss or
// MogDB by its address; MySQL and MariaDB). Tables are named tpcc_*, so
// they sit beside a time-series run's tables in the same database.
//
// Isolation is each server's default (PostgreSQL READ COMMITTED, InnoDB
// REPEATABLE READ); rows a transaction reads and then writes are read with
// SELECT ... FOR UPDATE, and running totals are updated in place (x = x +
// ?), which keeps the consistency conditions true at those levels. A
// transaction the server aborts (deadlock, serialisation failure) is
// counted as failed under the server's message; it is not retried.
package tpcc

import (
	"fmt"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/summary"
)

// Tx is one of the five transaction types.
type Tx int

// The transaction types, in the order the matrices print them.
const (
	NewOrder Tx = iota
	Payment
	OrderStatus
	Delivery
	StockLevel
	NumTx
)

var txNames = [NumTx]string{summary.NewOrderRow, "PAYMENT", "ORDER_STATUS", "DELIVERY", "STOCK_LEVEL"}

func (t Tx) String() string { return txNames[t] }

// transactions is a mode's code for each of the five transaction types
// (batched statements, stored procedures).
type transactions interface {
	newOrder() error
	payment() error
	orderStatus() error
	delivery() error
	stockLevel() error
}

// run runs transaction tx with m's code for it.
func (tx Tx) run(m transactions) error {
	switch tx {
	case NewOrder:
		return m.newOrder()
	case Payment:
		return m.payment()
	case OrderStatus:
		return m.orderStatus()
	case Delivery:
		return m.delivery()
	case StockLevel:
		return m.stockLevel()
	}
	return fmt.Errorf("tpcc: no transaction %d", tx)
}

// Names are the transaction types' names, by Tx: the rows of a TPC-C run's
// matrices.
func Names() []string { return txNames[:] }

// Mix is the standard mix in cards per deck of 100 (clause 5.2.3: at least
// 43 % Payment and 4 % each of Order-Status, Delivery and Stock-Level; the
// rest New-Order).
var Mix = [NumTx]int{NewOrder: 45, Payment: 43, OrderStatus: 4, Delivery: 4, StockLevel: 4}

// Keying and mean think times of clause 5.2.5.7, used when Config.Think is
// set.
var (
	keying = [NumTx]time.Duration{18 * time.Second, 3 * time.Second, 2 * time.Second, 2 * time.Second, 2 * time.Second}
	think  = [NumTx]time.Duration{12 * time.Second, 12 * time.Second, 10 * time.Second, 5 * time.Second, 5 * time.Second}
)

// Load policies: reuse a complete load of the same shape, always reload,
// or never load (the tables must be there).
const (
	LoadAuto   = "auto"
	LoadAlways = "always"
	LoadNever  = "never"
)

// Modes: how a terminal sends a transaction's statements.
const (
	// ModeBatched sends each group of statements that do not need each
	// other's answers in one round trip: on PostgreSQL as a pgx pipeline
	// (BEGIN and COMMIT included), on MySQL and MariaDB merged into one
	// statement (joins, IN lists, multi-row INSERT, UPDATE joined to a
	// list of rows).
	ModeBatched = "batched"
	// ModeInteractive sends one statement per round trip through
	// database/sql, as BenchmarkSQL does.
	ModeInteractive = "interactive"
	// ModeProcedures calls one server-side function (PostgreSQL) or
	// stored procedure (MySQL, MariaDB) per transaction, created when the
	// run is prepared, as HammerDB runs TPC-C; the terminal draws the
	// input and passes it as arguments.
	ModeProcedures = "procedures"
)

// Config is one TPC-C run.
type Config struct {
	Warehouses int
	Terminals  int           // concurrent connections; terminal i's home warehouse is i mod W + 1
	Duration   time.Duration // the measured phase
	Warmup     time.Duration // transactions run but not measured
	Think      bool          // keying and think times (clause 5.2.5); off: back to back
	Unlogged   bool          // PostgreSQL UNLOGGED tables (no write-ahead log)
	Tablespace string        // PostgreSQL tablespace for tables and indexes ("" = default)
	Load       string        // LoadAuto, LoadAlways or LoadNever
	Seed       int64         // loader and terminal randomness
	TxTimeout  time.Duration // per transaction
	Mode       string        // ModeBatched ("" too), ModeInteractive or ModeProcedures
	// LoadWorkers is how many parts of the load (the items, each
	// warehouse) go in at once, each on its own connection; 0 is
	// defaultLoadWorkers, 1 one after the other.
	LoadWorkers int
	// Rate is transactions per second of every terminal together, in the
	// standard mix, the open model (latency from each one's intended
	// start); 0: each terminal sends its next one when the last ended.
	Rate float64
	// Share is this process's part of a run split between worker
	// processes (WORKERS); the zero Share is the whole run.
	Share Share
	// Joined: the load and the routines are another process's (worker 0
	// of the share's group, which has prepared them); Prepare only reads
	// the load's record, so that workers do not race at creating them.
	Joined bool
}

// Share is worker Index of Of: it runs the terminals whose home warehouse
// is in its range of the warehouses (WarehouseRange), the same terminals,
// with the same random streams, as a single process would. Disjoint
// warehouses keep each worker's check of its New-Orders its own: a New-
// Order goes to a district of its terminal's home warehouse.
type Share struct{ Index, Of int }

// WarehouseRange is the share's warehouses, first to last (1-based).
func (c *Config) WarehouseRange() (first, last int) {
	n := max(c.Share.Of, 1)
	return c.Share.Index*c.Warehouses/n + 1, (c.Share.Index + 1) * c.Warehouses / n
}

// TerminalIDs are the numbers of the share's terminals among all
// Terminals: those whose home warehouse (i mod W + 1) is in its range.
func (c *Config) TerminalIDs() []int {
	first, last := c.WarehouseRange()
	var ids []int
	for i := 0; i < c.Terminals; i++ {
		if home := i%c.Warehouses + 1; home >= first && home <= last {
			ids = append(ids, i)
		}
	}
	return ids
}

// validShare refuses a split that leaves a worker no warehouse or no
// terminal.
func (c *Config) validShare() error {
	n := c.Share.Of
	if n <= 1 {
		return nil
	}
	if c.Warehouses < n {
		return fmt.Errorf("WORKERS = %d with TPCC_WAREHOUSES = %d: each worker runs the terminals of warehouses of its own; "+
			"raise TPCC_WAREHOUSES to at least %d or lower WORKERS", n, c.Warehouses, n)
	}
	for k := 0; k < n; k++ {
		other := *c
		other.Share.Index = k
		if len(other.TerminalIDs()) == 0 {
			first, last := other.WarehouseRange()
			return fmt.Errorf("WORKERS = %d with TPCC_WAREHOUSES = %d and CLIENT_NUMBER = %d: worker %d's warehouses %d..%d "+
				"would have no terminal (terminal i's home is warehouse i mod %d + 1); raise CLIENT_NUMBER to at least %d",
				n, c.Warehouses, c.Terminals, k, first, last, c.Warehouses, c.Warehouses)
		}
	}
	return nil
}

// Drive sets what of ec is TPC-C's: the transactions' names, one worker
// per terminal, the rate, the warm-up and the measured phase; no retries
// (a failed transaction is counted, not sent again) and no OP_MIN_INTERVAL
// (keying and think times pace a terminal, when asked for).
func (c Config) Drive(ec *engine.Config) {
	ec.Names, ec.Workers, ec.FirstWorker, ec.Rate = Names(), c.Terminals, 0, c.Rate
	ec.Warmup, ec.Duration, ec.Seed = c.Warmup, c.Duration, uint64(c.Seed)
	ec.Retries, ec.MinStep, ec.RandomStep = 0, 0, false
}

// defaultLoadWorkers: see docs/tpcc.md for the load times it was chosen by.
const defaultLoadWorkers = 4

func (c *Config) loadWorkers() int {
	if c.LoadWorkers > 0 {
		return c.LoadWorkers
	}
	return defaultLoadWorkers
}

// Validate reports the first setting out of range, naming its key.
func (c *Config) Validate() error {
	switch {
	case c.Warehouses < 1:
		return fmt.Errorf("TPCC_WAREHOUSES = %d: must be >= 1", c.Warehouses)
	case c.Terminals < 1:
		return fmt.Errorf("CLIENT_NUMBER = %d: TPC-C needs at least one terminal", c.Terminals)
	case c.Duration <= 0:
		return fmt.Errorf("duration = %v: a TPC-C run lasts a time; give --duration (e.g. 60s)", c.Duration)
	case c.Rate > 0 && c.Think:
		return fmt.Errorf("RATE = %g with TPCC_THINK = true: keying and think times pace each terminal as the specification does, "+
			"a rate paces them all in the open model; use one", c.Rate)
	}
	switch c.Load {
	case LoadAuto, LoadAlways, LoadNever:
	default:
		return fmt.Errorf("TPCC_LOAD = %q: allowed: %s", c.Load, strings.Join([]string{LoadAuto, LoadAlways, LoadNever}, ", "))
	}
	switch c.Mode {
	case "", ModeBatched, ModeInteractive, ModeProcedures:
	default:
		return fmt.Errorf("TPCC_MODE = %q: allowed: %s, %s, %s", c.Mode, ModeBatched, ModeInteractive, ModeProcedures)
	}
	return c.validShare()
}

// Table sizes of clause 4.3.3.1.
const (
	items             = 100_000
	districtsPerW     = 10
	customersPerD     = 3_000
	ordersPerD        = 3_000
	firstUndelivered  = 2_101 // orders from here on are new (undelivered) at load
	stockPerW         = items
	invalidItem       = items + 1 // the unused item id of a rolled-back New-Order
	maxItemsPerOrder  = 15
	minItemsPerOrder  = 5
	initialNextOrder  = ordersPerD + 1
	lastNameSyllables = 1000
)
