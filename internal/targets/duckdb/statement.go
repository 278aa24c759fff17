package duckdb

import (
	"context"
	"math"
	"math/big"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/tsbench/tsbench/internal/targets"
)

// language is how the user's own queries meet DuckDB: SQL with numbered
// placeholders ($1, $2, ...) that duckdb-go binds in a prepared statement,
// identifiers in double quotes, times as the points table's BIGINT Unix
// milliseconds.
var language = &targets.Language{Name: "sql", Bind: "$", Literal: targets.SQLLiteral,
	Ident: targets.SQLIdent, Time: targets.UnixMillis, Explain: targets.SQLExplain}

var _ targets.StatementRunner = (*Target)(nil)

// RunStatement runs one of the user's own queries on the client's
// connection, bound.
func (t *Target) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	t.Mu.Lock()
	defer t.Mu.Unlock()
	rows, err := t.conn.QueryContext(ctx, st.Text, st.Args...)
	if err != nil {
		return targets.Rows{}, t.wrap("own query", err)
	}
	out, err := targets.ScanSQLAs(rows, normal)
	if err != nil {
		return out, t.wrap("own query: read answer", err)
	}
	return out, nil
}

// normal is a duckdb-go value in targets.Rows' form: HUGEINT (what SUM of
// integers is) as an int64, or a float64 past its range; DECIMAL (what AVG
// of integers or a literal 1.5 can be) as a number.
func normal(v any) any {
	switch x := v.(type) {
	case *big.Int:
		if x == nil {
			return nil
		}
		if x.IsInt64() {
			return x.Int64()
		}
		f, _ := new(big.Float).SetInt(x).Float64()
		return f
	case duckdb.Decimal:
		if x.Value == nil {
			return nil
		}
		f := x.Float64()
		if math.IsInf(f, 0) {
			return x.String()
		}
		return targets.NormalValue(f)
	}
	return targets.NormalValue(v)
}
