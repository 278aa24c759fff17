package postgres

import (
	"context"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/tsbench/tsbench/internal/targets"
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
	rows, err := t.c.pg.Query(ctx, st.Text, st.Args...)
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
		f, err := n.Float64Value()
		if err == nil && f.Valid {
			return targets.NormalValue(f.Float64)
		}
	}
	return targets.NormalValue(v)
}
