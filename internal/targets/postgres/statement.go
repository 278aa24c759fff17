package postgres

import (
	"context"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/pgwire"
)

// language is how the user's own queries meet PostgreSQL: SQL with
// numbered placeholders ($1, $2, ...; each text is prepared once per
// connection, by pgx or by pgwire.Counted, as pgbench -M prepared does),
// times as the points table's Unix milliseconds.
var language = &targets.Language{Name: "sql", Bind: "$", Literal: targets.SQLLiteral,
	Ident: targets.SQLIdent, Time: targets.UnixMillis, Explain: targets.SQLExplain}

// RunStatement runs one of the user's own queries, bound. A measured
// execution, which keeps only its row count, runs at pgconn's level
// (pgwire.Counted) except on the timescaledb driver, whose connections
// prepare no named statements.
func (t *Target) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	if err := t.c.lock(ctx); err != nil {
		return targets.Rows{}, t.wrap("own query", err)
	}
	defer t.c.mu.Unlock()
	if st.CountOnly && !t.timescale {
		return t.c.counted.Count(ctx, t.c.pg, st, t.wrap)
	}
	return pgwire.RunStatement(ctx, t.c.pg, st, t.wrap)
}
