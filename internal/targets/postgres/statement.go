package postgres

import (
	"context"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/pgwire"
)

// language is how the user's own queries meet PostgreSQL: SQL with
// numbered placeholders ($1, $2, ...; pgx prepares each text once per
// connection and caches it, as pgbench -M prepared does), times as the
// points table's Unix milliseconds.
var language = &targets.Language{Name: "sql", Bind: "$", Literal: targets.SQLLiteral,
	Ident: targets.SQLIdent, Time: targets.UnixMillis, Explain: targets.SQLExplain}

// RunStatement runs one of the user's own queries, bound.
func (t *Target) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	if err := t.c.lock(ctx); err != nil {
		return targets.Rows{}, t.wrap("own query", err)
	}
	defer t.c.mu.Unlock()
	return pgwire.RunStatement(ctx, t.c.pg, st, t.wrap)
}
