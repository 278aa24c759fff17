package iotdb

import (
	"context"
	"fmt"

	"github.com/tsbench/tsbench/internal/targets"
)

// language is how the user's own queries meet IoTDB: its tree model's SQL
// dialect, which the session API cannot bind (Bind ""), so every value is
// written into the text (iotdbLiteral): text single-quoted with each quote
// doubled — IoTDB's lexer (SqlLexer.g4, SQUOTA_STRING) knows no backslash
// escape, so a backslash, a newline or a semicolon inside the quotes are
// text as they are — numbers in plain decimal. Names are path nodes in
// backticks, a backtick inside doubled (quoteNode): write a device path as
// root.<db>.<group>.{{device|ident}}. A time parameter is Unix
// milliseconds, the server's default timestamp precision.
var language = &targets.Language{Name: "iotdb", Bind: "", Literal: iotdbLiteral, Ident: quoteNode,
	Time: targets.UnixMillis}

var _ targets.StatementRunner = (*Target)(nil)

// iotdbLiteral writes a parameter value as an IoTDB literal: a string
// single-quoted with each quote doubled (targets.SQLString), an integer
// in decimal, a float in decimal without an exponent (targets.PlainFloat).
func iotdbLiteral(v any) string { return targets.Literal(v, targets.SQLString, targets.PlainFloat) }

// RunStatement runs one of the user's own statements through the session
// (ExecuteStatementWithContext) and reads every row of its answer: the
// Time column, where the answer has one (raw rows, GROUP BY time), first
// as Unix milliseconds, then each column's value as the answer orders
// them (ALIGN BY DEVICE's Device column as text). Numbers keep their
// type's form (INT32 and INT64 as int64, FLOAT and DOUBLE as float64),
// TEXT and STRING are text, a TIMESTAMP or DATE value is Unix
// milliseconds, a null nil. Columns are the answer's names (series paths
// as IoTDB writes them).
func (t *Target) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	if len(st.Args) > 0 {
		return targets.Rows{}, fmt.Errorf("iotdb: a statement binds no parameters (%d given)", len(st.Args))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	ds, err := t.session.ExecuteStatementWithContext(ctx, st.Text)
	if err != nil {
		return targets.Rows{}, t.wrap("own query: "+st.Text, err)
	}
	if ds == nil {
		return targets.Rows{}, nil
	}
	defer ds.Close()
	cols := ds.GetColumnNames()
	out := targets.Rows{Columns: append([]string(nil), cols...)}
	for {
		ok, err := ds.Next()
		if err != nil {
			return out, t.wrap("own query: read answer", err)
		}
		if !ok {
			break
		}
		if !out.Keep() {
			continue
		}
		row := make([]any, len(cols))
		for i := range cols {
			// By position: an answer may name two columns alike (GROUP
			// BY LEVEL), and the Time column (position 1) comes as a
			// time.Time, which NormalValue makes Unix milliseconds.
			v, err := ds.GetObjectByIndex(int32(i + 1))
			if err != nil {
				return out, t.wrap("own query: read column "+cols[i], err)
			}
			row[i] = targets.NormalValue(v)
		}
		out.Values = append(out.Values, row)
	}
	return out, nil
}
