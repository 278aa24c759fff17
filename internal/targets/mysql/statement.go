package mysql

import (
	"context"
	"database/sql"
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
// prepared on the server once per connection (ownStmts) and each run sends
// only its values, as an application's prepared statement would.
func (t *Target) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	t.Mu.Lock()
	defer t.Mu.Unlock()
	stmt, err := t.own.get(ctx, t.db, st.Text)
	if err != nil {
		return targets.Rows{}, t.wrap("own query: prepare", err)
	}
	rows, err := stmt.QueryContext(ctx, st.Args...)
	if err != nil {
		return targets.Rows{}, t.wrap("own query", err)
	}
	out, err := targets.ScanSQL(rows)
	if err != nil {
		return out, t.wrap("own query: read answer", err)
	}
	return out, nil
}

// maxOwnStmts bounds the prepared own queries of a connection: a query file
// has a few texts, but a template that writes values into its text (an
// identifier parameter) makes one per value.
const maxOwnStmts = 64

// ownStmts are a connection's prepared own queries, by text.
type ownStmts struct{ m map[string]*sql.Stmt }

func (c *ownStmts) get(ctx context.Context, db *sql.DB, text string) (*sql.Stmt, error) {
	if st, ok := c.m[text]; ok {
		return st, nil
	}
	if len(c.m) >= maxOwnStmts {
		c.close()
	}
	st, err := db.PrepareContext(ctx, text)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[text] = st
	return st, nil
}

func (c *ownStmts) close() {
	for text, st := range c.m {
		st.Close()
		delete(c.m, text)
	}
}
