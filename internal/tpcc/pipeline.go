package tpcc

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// The batched mode talks to pgx directly, on the same connection the
// terminal holds through database/sql: (*sql.Conn).Raw hands over the
// *stdlib.Conn for the length of one transaction. That keeps one pool, one
// set of connection settings (the target's) and the terminal's reconnect
// logic for both modes, where a pgxpool of its own would duplicate all
// three; and it skips database/sql's per-statement locking and value
// conversion, which led the client's CPU profile.

// pipe is one transaction in progress in batched mode: statements are
// queued and sent together by flush, one round trip per flush.
type pipe struct {
	t   *terminal
	c   *pgx.Conn
	ctx context.Context
	b   *pgx.Batch
}

// runBatched runs transaction tx as pgx pipelines. BEGIN rides in the
// first pipeline and COMMIT in the last, so neither costs a round trip.
func (t *terminal) runBatched(ctx context.Context, tx Tx) error {
	return t.conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("tpcc: batched mode needs a pgx connection, not %T", dc)
		}
		p := &pipe{t: t, c: sc.Conn(), ctx: ctx, b: &pgx.Batch{}}
		p.b.Queue("BEGIN")
		if err := tx.run(p); err != nil {
			return p.abort(err)
		}
		return nil
	})
}

// queue adds statement q (in ?-form) to the next round trip.
func (p *pipe) queue(q string, args ...any) *pgx.QueuedQuery {
	return p.b.Queue(p.t.traced(q, args), args...)
}

// flush sends the queued statements in one round trip and runs their
// callbacks in order; the first error stops the callbacks. On a server
// error PostgreSQL skips the rest of the pipeline, COMMIT included, so a
// callback that can fail on its own (not on a server error) must not share
// a pipeline with COMMIT.
func (p *pipe) flush() error {
	b := p.b
	p.b = &pgx.Batch{}
	p.t.roundTrips++
	return p.c.SendBatch(p.ctx, b).Close()
}

// commit sends what is queued and COMMIT in one round trip.
func (p *pipe) commit() error {
	p.b.Queue("COMMIT")
	return p.flush()
}

// abort ends a failed transaction with ROLLBACK when the server still has
// it open (a failed pipeline leaves it open and aborted).
func (p *pipe) abort(err error) error {
	if p.c.IsClosed() || p.c.PgConn().TxStatus() == 'I' {
		return err
	}
	p.t.roundTrips++
	if _, rbErr := p.c.Exec(p.ctx, "ROLLBACK"); rbErr != nil && !errors.Is(err, errRollback) {
		return fmt.Errorf("%w (and rollback: %v)", err, rbErr)
	}
	return err
}

// row is a callback that scans the statement's one row into dest.
func row(dest ...any) func(pgx.Row) error {
	return func(r pgx.Row) error { return r.Scan(dest...) }
}
