package questdb

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/tsbench/tsbench/internal/targets"
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
	rows, err := t.conn.Query(ctx, st.Text, st.Args...)
	if err != nil {
		return targets.Rows{}, t.wrap("own query", err)
	}
	defer rows.Close()
	var out targets.Rows
	for _, f := range rows.FieldDescriptions() {
		out.Columns = append(out.Columns, f.Name)
	}
	for rows.Next() {
		out.Count++
		if len(out.Values) >= targets.MaxRows {
			continue
		}
		vals, err := rows.Values()
		if err != nil {
			return out, t.wrap("own query: read answer", err)
		}
		for i, v := range vals {
			vals[i] = normal(v)
		}
		out.Values = append(out.Values, vals)
	}
	if err := rows.Err(); err != nil {
		return out, t.wrap("own query", err)
	}
	return out, nil
}

// normal is a pgx value in targets.Rows' form: NUMERIC as a number.
func normal(v any) any {
	if n, ok := v.(pgtype.Numeric); ok {
		if !n.Valid {
			return nil
		}
		if f, err := n.Float64Value(); err == nil && f.Valid {
			return targets.NormalValue(f.Float64)
		}
	}
	return targets.NormalValue(v)
}
