package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/pgwire"
)

// loopConnectTimeout bounds a loop connection's opening and a text's
// preparing when the configuration gives no connect timeout.
const loopConnectTimeout = 10 * time.Second

// OpenStatementLoop opens clients connections served from one goroutine
// (CLIENT_IO=epoll; pgwire.Loop). The timescaledb driver has none: its
// connections prepare no named statements.
func (t *Target) OpenStatementLoop(ctx context.Context, clients int) (targets.StatementLoop, error) {
	if t.timescale {
		return nil, fmt.Errorf("timescaledb: CLIENT_IO=epoll is not served: this driver's connections prepare no named statements")
	}
	timeout := t.cfg.ConnectTimeout
	if timeout <= 0 {
		timeout = loopConnectTimeout
	}
	cfg := t.cfg.Config.Copy()
	l, err := pgwire.OpenLoop(ctx, clients, timeout, func(ctx context.Context) (*pgconn.PgConn, error) {
		return pgconn.ConnectConfig(ctx, cfg)
	})
	if err != nil {
		return nil, t.wrapLoop("open the client loop", err)
	}
	s := &statementLoop{l: l, t: t}
	s.report = s.ended
	return s, nil
}

// statementLoop gives a pgwire.Loop's errors the target's context.
type statementLoop struct {
	l *pgwire.Loop
	t *Target
	// done is the callback of the Wait under way; report, made once,
	// passes each ended execution on to it (no allocation per Wait).
	done, report func(int, time.Time, int64, error)
}

func (s *statementLoop) Send(ctx context.Context, client int, st *targets.Statement) error {
	if err := s.l.Send(ctx, client, st); err != nil {
		return s.t.wrapLoop("own query", err)
	}
	return nil
}

func (s *statementLoop) Wait(until time.Time, done func(int, time.Time, int64, error)) error {
	s.done = done
	return s.l.Wait(until, s.report)
}

func (s *statementLoop) ended(i int, at time.Time, rows int64, err error) {
	if err != nil {
		err = s.t.wrapLoop("own query", err)
	}
	s.done(i, at, rows, err)
}

func (s *statementLoop) Abort(client int)  { s.l.Abort(client) }
func (s *statementLoop) Reconnects() int64 { return s.l.Reopens() }
func (s *statementLoop) Clock() string     { return s.l.Clock() }
func (s *statementLoop) Close() error      { return s.l.Close() }

func (t *Target) wrapLoop(what string, err error) error {
	return fmt.Errorf("postgres: %s at %s: %w", what, t.addr, err)
}
