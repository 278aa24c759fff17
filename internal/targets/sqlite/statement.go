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
	t.Mu.Lock()
	defer t.Mu.Unlock()
	return t.stmts.Run(ctx, t.db, st, func(step string, err error) error {
		return fmt.Errorf("sqlite: %s: %w", step, err)
	})
}
