package sqlite

import (
	"context"
	"fmt"

	"github.com/tsbench/tsbench/internal/targets"
)

// language is how the user's own queries meet SQLite: SQL with ?
// placeholders, times as the points table's Unix milliseconds.
var language = &targets.Language{Name: "sql", Bind: "?", Literal: targets.SQLLiteral,
	Ident: targets.SQLIdent, Time: targets.UnixMillis,
	Explain: func(text string) string { return "EXPLAIN QUERY PLAN " + text }}

// RunStatement runs one of the user's own queries, prepared once per
// connection (the statement cache) and bound.
func (t *Target) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	stmt, err := t.stmts.get(ctx, t.db, st.Text)
	if err != nil {
		return targets.Rows{}, fmt.Errorf("sqlite: prepare: %w", err)
	}
	rows, err := stmt.QueryContext(ctx, st.Args...)
	if err != nil {
		return targets.Rows{}, fmt.Errorf("sqlite: query: %w", err)
	}
	out, err := targets.ScanSQL(rows)
	if err != nil {
		return out, fmt.Errorf("sqlite: read answer: %w", err)
	}
	return out, nil
}
