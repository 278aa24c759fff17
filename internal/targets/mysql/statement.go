package mysql

import (
	"context"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
)

// language is how the user's own queries meet MySQL and MariaDB: SQL with ?
// placeholders (prepared on the server: the connector never interpolates),
// identifiers in backquotes, times as the points table's BIGINT Unix
// milliseconds.
var language = &targets.Language{Name: "sql", Bind: "?", Literal: literal,
	Ident: quoteIdent, Time: targets.UnixMillis, Explain: targets.SQLExplain}

var _ targets.StatementRunner = (*Target)(nil)

// literal is a value as a MySQL literal: numbers as they are, text in
// single quotes with each backslash and quote escaped. MySQL reads a
// backslash in a string as an escape (unless sql_mode has
// NO_BACKSLASH_ESCAPES), so doubling quotes alone would let a trailing
// backslash end the string early; doubled backslashes and doubled quotes
// keep the string one literal in either mode.
func literal(v any) string {
	if s, ok := v.(string); ok {
		return "'" + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(s) + "'"
	}
	return targets.NumberLiteral(v)
}

// RunStatement runs one of the user's own queries, bound: the text is
// prepared on the server once per connection (sqlfamily.Stmts) and each
// run sends only its values, as an application's prepared statement would.
func (t *Target) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	t.Mu.Lock()
	defer t.Mu.Unlock()
	return t.own.Run(ctx, t.db, st, func(step string, err error) error {
		if step == "query" { // running it is the own query itself
			return t.wrap("own query", err)
		}
		return t.wrap("own query: "+step, err)
	})
}
