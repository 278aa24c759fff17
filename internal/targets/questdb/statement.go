package questdb

import (
	"context"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/pgwire"
)

// language is how the user's own queries meet QuestDB: SQL over the
// PostgreSQL wire protocol with numbered placeholders ($1, $2, ...) bound
// by pgx, identifiers in double quotes, and times bound as the time.Time a
// TIMESTAMP column (the designated timestamp ts) compares with.
var language = &targets.Language{Name: "sql", Bind: "$", Literal: targets.SQLLiteral,
	Ident: quote, Time: bindTime, Explain: targets.SQLExplain}

var _ targets.StatementRunner = (*Target)(nil)

// bindTime is a time parameter as QuestDB's TIMESTAMP compares with it:
// a time.Time in UTC (microseconds are what QuestDB keeps).
func bindTime(t time.Time) any { return t.UTC() }

// RunStatement runs one of the user's own queries, bound. QuestDB applies
// ILP writes to its WAL tables asynchronously, so a statement sees what
// the tables applied so far, as any reader of the server would.
func (t *Target) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.useSQL(ctx); err != nil {
		return targets.Rows{}, err
	}
	return pgwire.RunStatement(ctx, t.conn, st, t.wrap)
}
