package sqlfamily

import (
	"context"
	"database/sql"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Queries is Setup, Query and Count of a database/sql target, embedded by
// it: each takes the target's lock, reads its schema and runs the Dialect's
// SQL on DB, and Wrap adds the target's context to an error.
type Queries struct {
	D     *Dialect
	DB    DB
	Bound *targets.Bound
	Wrap  func(what string, err error) error
	// Drop are the statements that drop the tables (Setup with reset), DDL
	// the ones that create them if they do not exist.
	Drop, DDL []string
}

// Setup creates the tables (dropping them first with reset) and records
// the series and devices of s in one transaction.
func (x *Queries) Setup(ctx context.Context, s *ts.Schema, reset bool) error {
	x.Bound.Mu.Lock()
	defer x.Bound.Mu.Unlock()
	var stmts []string
	if reset {
		stmts = x.Drop
	}
	for _, q := range append(stmts[:len(stmts):len(stmts)], x.DDL...) {
		if _, err := x.DB.ExecContext(ctx, q); err != nil {
			return x.Wrap("create tables", err)
		}
	}
	tx, err := x.DB.BeginTx(ctx, nil)
	if err != nil {
		return x.Wrap("record series", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	if err := x.D.InsertMetadata(ctx, tx, s); err != nil {
		return x.Wrap("setup", err)
	}
	if err := tx.Commit(); err != nil {
		return x.Wrap("record series", err)
	}
	x.Bound.Binding.Set(s)
	return nil
}

// Query runs one of Q1..Q10 (see ts.Query for the semantics).
func (x *Queries) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	x.Bound.Mu.Lock()
	defer x.Bound.Mu.Unlock()
	s, err := x.Bound.Binding.Schema()
	if err != nil {
		return ts.Result{}, err
	}
	res, err := x.D.QueryDB(ctx, x.DB, q, s.SeriesIDs(q.Devices, q.Sensors), len(s.Sensors))
	if err != nil {
		return ts.Result{}, x.Wrap(q.Kind.String(), err)
	}
	return res, nil
}

// Count returns the distinct points stored (one row per point by the
// primary key).
func (x *Queries) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	x.Bound.Mu.Lock()
	defer x.Bound.Mu.Unlock()
	var s *ts.Schema
	if len(r.Devices) > 0 {
		var err error
		if s, err = x.Bound.Binding.Schema(); err != nil {
			return 0, err
		}
	}
	n, err := x.D.CountDB(ctx, x.DB, s, r)
	if err != nil {
		return 0, x.Wrap("count", err)
	}
	return n, nil
}

// Analytic runs an analytics query; a target that has them makes it its
// Analyze (targets.Analyzer).
func (x *Queries) Analytic(ctx context.Context, a *ts.Analytic) (ts.Result, error) {
	x.Bound.Mu.Lock()
	defer x.Bound.Mu.Unlock()
	if _, err := x.Bound.Binding.Schema(); err != nil {
		return ts.Result{}, err
	}
	res, err := x.D.AnalyzeDB(ctx, x.DB, a)
	if err != nil {
		return ts.Result{}, x.Wrap("analytics "+a.Name, err)
	}
	return res, nil
}

// Querier runs statements that return rows: *sql.DB and *sql.Conn are.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// DB is a database/sql handle: *sql.DB and *sql.Conn are.
type DB interface {
	Querier
	Execer
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}

// QueryDB runs q over the series ids on a database/sql handle; perDevice
// is the schema's sensors per device (see Query).
func (d *Dialect) QueryDB(ctx context.Context, db Querier, q *ts.Query, ids []int64, perDevice int) (ts.Result, error) {
	b := NewBuilder(d)
	if err := d.Query(b, q, ids, perDevice); err != nil {
		return ts.Result{}, err
	}
	rows, err := db.QueryContext(ctx, b.String(), b.Args...)
	if err != nil {
		return ts.Result{}, err
	}
	defer rows.Close()
	return d.Collect(rows, q)
}

// AnalyzeDB runs the analytics query a on a database/sql handle.
func (d *Dialect) AnalyzeDB(ctx context.Context, db Querier, a *ts.Analytic) (ts.Result, error) {
	b := NewBuilder(d)
	if err := d.Analytic(b, a); err != nil {
		return ts.Result{}, err
	}
	rows, err := db.QueryContext(ctx, b.String(), b.Args...)
	if err != nil {
		return ts.Result{}, err
	}
	defer rows.Close()
	return CollectAnalytic(rows)
}

// CountDB counts the points of r on a database/sql handle; s names the
// series of r's devices (nil when r has none).
func (d *Dialect) CountDB(ctx context.Context, db Querier, s *ts.Schema, r ts.CountRange) (int64, error) {
	b := NewBuilder(d)
	if len(r.Devices) > 0 {
		d.CountPoints(b, s.SeriesIDs(r.Devices, s.AllSensors()), false, r.Start, r.End)
	} else {
		d.CountPoints(b, nil, true, r.Start, r.End)
	}
	var n int64
	err := db.QueryRowContext(ctx, b.String(), b.Args...).Scan(&n)
	return n, err
}
