package cassandra

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/big"
	"reflect"
	"strconv"

	"github.com/gocql/gocql"
	"github.com/tsbench/tsbench/internal/targets"
)

// language is how the user's own queries meet Cassandra: CQL with ? bind
// markers (gocql prepares each text once per session and binds the values
// by the types the server declares), names in double quotes, times as the
// points table's bigint Unix milliseconds. The session has no keyspace of
// its own: a statement names its table with it ("<DB_NAME>".points). CQL
// has no EXPLAIN.
var language = &targets.Language{Name: "cql", Bind: "?", Literal: targets.SQLLiteral,
	Ident: col, Time: targets.UnixMillis}

var _ targets.StatementRunner = (*Target)(nil)

// RunStatement runs one of the user's own queries, bound, reading every
// page of its answer.
func (t *Target) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	iter := t.session.Query(st.Text, st.Args...).WithContext(ctx).Iter()
	var out targets.Rows
	cols := iter.Columns()
	cells := make([]cell, len(cols))
	dest := make([]any, len(cols))
	for i, c := range cols {
		out.Columns = append(out.Columns, c.Name)
		dest[i] = &cells[i]
	}
	for iter.Scan(dest...) {
		if !out.Keep() {
			continue
		}
		row := make([]any, len(cells))
		for i := range cells {
			row[i] = cells[i].v
		}
		out.Values = append(out.Values, row)
	}
	if err := iter.Close(); err != nil {
		return out, t.wrap("own query", err)
	}
	return out, nil
}

// cell reads one value of an answer in targets.Rows' form: null as nil
// (gocql would give a zero), varint as int64 (or float64 past it),
// decimal as float64, timestamp and date as Unix milliseconds, a type
// gocql has no Go form for (a vector) as hex.
type cell struct{ v any }

func (c *cell) UnmarshalCQL(info gocql.TypeInfo, data []byte) error {
	c.v = nil
	if data == nil {
		return nil
	}
	p, err := info.NewWithError()
	if err != nil {
		c.v = hex.EncodeToString(data)
		return nil
	}
	if err := gocql.Unmarshal(info, data, p); err != nil {
		return err
	}
	v := reflect.ValueOf(p).Elem().Interface()
	switch x := v.(type) {
	case *big.Int:
		if x == nil {
			return nil
		}
		if x.IsInt64() {
			c.v = x.Int64()
		} else {
			c.v, _ = new(big.Float).SetInt(x).Float64()
		}
		return nil
	}
	if info.Type() == gocql.TypeDecimal {
		if v == nil || reflect.ValueOf(v).IsNil() {
			return nil
		}
		f, err := strconv.ParseFloat(fmt.Sprint(v), 64)
		if err != nil {
			return fmt.Errorf("decimal %v: %w", v, err)
		}
		c.v = targets.NormalValue(f)
		return nil
	}
	c.v = targets.NormalValue(v)
	return nil
}
