package pgwire

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/tsbench/tsbench/internal/targets"
)

// RunStatement runs one of the user's own queries on pg, bound, and reads
// its answer (targets.CollectRows, NUMERIC as a number): what the targets
// that speak the protocol (postgres, timescaledb, questdb) do alike once
// they hold their connection. wrap gives an error the target's context:
// what failed ("own query", or "own query: read answer" for a row that
// could not be read) and where.
func RunStatement(ctx context.Context, pg *pgx.Conn, st *targets.Statement, wrap func(what string, err error) error) (targets.Rows, error) {
	args := st.Args
	if st.ServerText {
		args = append([]any{serverText}, args...)
	}
	rows, err := pg.Query(ctx, st.Text, args...)
	if err != nil {
		return targets.Rows{}, wrap("own query", err)
	}
	defer rows.Close()
	if st.CountOnly {
		return countRows(rows, wrap)
	}
	var cols []string
	var times, texts []bool
	for _, f := range rows.FieldDescriptions() {
		cols = append(cols, f.Name)
		times = append(times, f.DataTypeOID == pgtype.TimestamptzOID || f.DataTypeOID == pgtype.TimestampOID || f.DataTypeOID == pgtype.DateOID)
		_, text := serverText[f.DataTypeOID]
		texts = append(texts, st.ServerText && text)
	}
	cells := func() ([]any, error) {
		vals, err := rows.Values()
		if err != nil || !st.ServerText {
			return vals, err
		}
		for i, raw := range rows.RawValues() {
			if texts[i] && raw != nil {
				vals[i] = string(raw)
			}
		}
		return vals, nil
	}
	out, err := targets.CollectRows(st, cols, rows.Next, cells, normal)
	out.Times = times
	if err != nil {
		return out, wrap("own query: read answer", err)
	}
	if err := rows.Err(); err != nil {
		return out, wrap("own query", err)
	}
	return out, nil
}

// serverText asks the server for NUMERIC and INTERVAL in its text format
// (Statement.ServerText): their raw bytes are then the server's own text.
var serverText = pgx.QueryResultFormatsByOID{pgtype.NumericOID: pgx.TextFormatCode, pgtype.IntervalOID: pgx.TextFormatCode}

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

// countRows reads an answer's rows without decoding them.
func countRows(rows pgx.Rows, wrap func(what string, err error) error) (targets.Rows, error) {
	var out targets.Rows
	for rows.Next() {
		out.Count++
	}
	if err := rows.Err(); err != nil {
		return out, wrap("own query", err)
	}
	return out, nil
}
