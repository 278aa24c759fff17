package sqlfamily

import (
	"context"
	"database/sql"

	"github.com/tsbench/tsbench/internal/targets"
)

// maxStmts bounds the prepared statements of a connection: the query kinds
// and a query file have a few texts each, but a template that writes
// values into its text (an identifier parameter) makes one per value.
const maxStmts = 64

// Stmts are a connection's prepared statements, by text: each text is
// prepared on the server once and then sends only its values, as an
// application's prepared statements do. Once maxStmts texts are prepared,
// the next new one closes them all first. The target's lock guards it.
type Stmts struct{ m map[string]*sql.Stmt }

// Get returns text prepared on db.
func (c *Stmts) Get(ctx context.Context, db *sql.DB, text string) (*sql.Stmt, error) {
	if st, ok := c.m[text]; ok {
		return st, nil
	}
	if len(c.m) >= maxStmts {
		c.Close()
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

// Close closes every prepared statement.
func (c *Stmts) Close() {
	for text, st := range c.m {
		st.Close()
		delete(c.m, text)
	}
}

// Run runs one of the user's own queries prepared (Get) and bound, and
// reads its answer (targets.ScanSQL). wrap gives an error the target's
// context, told the step that failed: "prepare", "query" or "read answer".
func (c *Stmts) Run(ctx context.Context, db *sql.DB, st *targets.Statement, wrap func(step string, err error) error) (targets.Rows, error) {
	stmt, err := c.Get(ctx, db, st.Text)
	if err != nil {
		return targets.Rows{}, wrap("prepare", err)
	}
	rows, err := stmt.QueryContext(ctx, st.Args...)
	if err != nil {
		return targets.Rows{}, wrap("query", err)
	}
	out, err := targets.ScanSQL(rows)
	if err != nil {
		return out, wrap("read answer", err)
	}
	return out, nil
}
