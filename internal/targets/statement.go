package targets

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Statement is one of the user's own queries (a query file, --queries)
// ready for a target: its text in the target's language with the drawn
// parameters bound (Args, in the order of the placeholders) where the
// language binds, or written into the text by the language's quoting rules
// where it cannot.
type Statement struct {
	Text string
	Args []any
	// At is when a language that evaluates at an instant (PromQL) evaluates
	// the statement: the end of its window parameter, or zero for now.
	At time.Time
	// KeepAll keeps every row of the answer in Rows.Values, not only the
	// first MaxRows, where the target reads its answer through
	// CollectRows (the PostgreSQL-wire targets): for printing whole answers
	// (--tsbs-queries --print-responses).
	KeepAll bool
	// ServerText keeps NUMERIC and INTERVAL values as the server's own text
	// ("24.0000000000000000", "1 day 10:30:00"), where a PostgreSQL-wire
	// target reads its answer: what a database/sql client such as TSBS's
	// runner sees and prints (--tsbs-queries --print-responses). Otherwise
	// NUMERIC is a number and INTERVAL pgx's value.
	ServerText bool
	// CountOnly asks for the answer's rows to be counted, not read into
	// values, where the target can (the PostgreSQL-wire ones): a measured
	// execution keeps only its row count, and decoding values it would
	// drop cost tsbench's client CPU on every query.
	CountOnly bool
}

// Rows is a statement's answer: its rows of values, normalised so that two
// databases' answers compare: whole numbers as int64, other numbers as
// float64, text as string, booleans as bool, times as int64 Unix
// milliseconds, a missing value as nil.
type Rows struct {
	Columns []string
	Values  [][]any // the first MaxRows rows
	Count   int64   // every row of the answer
	// Times, where a target knows its columns' types (the PostgreSQL-wire
	// ones), marks the columns that held times: their values are Unix
	// milliseconds like any integer, and a printer may show them as times.
	Times []bool

	all bool // Keep keeps every row (Statement.KeepAll)
}

// StatementRunner is implemented by targets that run a user's own query
// text (Driver.Language says in which language).
type StatementRunner interface {
	RunStatement(ctx context.Context, st *Statement) (Rows, error)
}

// Language is a target's query language as the user's own queries meet it:
// its name (the key of a query file's text), how it takes parameters, and
// what its time columns hold.
type Language struct {
	// Name is the key a query file writes the language's text under:
	// "sql", "influxql", "promql", "cql", "iotdb".
	Name string
	// Bind is the placeholder of a bound parameter: "?" or "$" (numbered,
	// $1, $2, ...); "" when the language cannot bind and Literal writes
	// each value into the text.
	Bind string
	// Literal writes a value (int64, float64, string) into the text as the
	// language's literal of it, quoted and escaped.
	Literal func(v any) string
	// Ident writes a name (a table, column, measurement or metric) as the
	// language quotes identifiers; never bound.
	Ident func(name string) string
	// Time is what a time parameter becomes by default: the form the
	// target's time column holds (Unix milliseconds for most).
	Time func(t time.Time) any
	// Explain, when set, turns a statement's text into the one that shows
	// its plan (SQL's EXPLAIN).
	Explain func(text string) string
	// Engine names the engine that evaluates the text where one language
	// has several that answer some functions differently by design:
	// PromQL's "prometheus" (Prometheus' own engine, which Mimir and Thanos
	// run) and "metricsql" (VictoriaMetrics'). Answers of two engines are
	// compared knowing their differences (ownquery.KnownDifference).
	Engine string
}

// UnixMillis is the time form of a target whose time column holds Unix
// milliseconds.
func UnixMillis(t time.Time) any { return t.UnixMilli() }

// SQLLiteral is a value as an SQL literal: numbers as they are, text in
// single quotes with each quote doubled.
func SQLLiteral(v any) string {
	if s, ok := v.(string); ok {
		return SQLString(s)
	}
	return NumberLiteral(v)
}

// SQLString is s as an SQL string literal: in single quotes, each quote
// doubled.
func SQLString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// SQLIdent is a name as a double-quoted SQL identifier.
func SQLIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// SQLExplain is the EXPLAIN of an SQL statement.
func SQLExplain(text string) string { return "EXPLAIN " + text }

// JSONLiteral is a value as a JSON literal for the JSON-bodied query
// languages (kairosdb, opentsdb): text through str (JSONString, or a
// language's stricter form), numbers as they are, a number JSON has no
// form for (NaN, ±Inf) as null, anything else as json.Marshal writes it.
func JSONLiteral(v any, str func(string) string) string {
	switch x := v.(type) {
	case string:
		return str(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "null"
		}
	case int64, int, interface{ UnixMilli() int64 }:
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return "null"
		}
		return string(b)
	}
	return NumberLiteral(v)
}

// JSONString is s as a JSON string: quotes, backslashes and control
// characters escaped, nothing else (no HTML escapes).
func JSONString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s) //nolint:errcheck // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// NumberLiteral writes a number (int64, float64, time.Time as Unix
// milliseconds) in decimal; anything else in Go's %v.
func NumberLiteral(v any) string {
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case time.Time:
		return strconv.FormatInt(x.UnixMilli(), 10)
	}
	return fmt.Sprint(v)
}

// Literal writes a value (int64, float64, string) into a statement's text
// for a language that cannot bind it: text through str (the language's
// quoting), a float (float64 or float32) through float, any other number
// as NumberLiteral does. A language with a literal of its own for another
// type (a time) writes that one before it asks Literal.
func Literal(v any, str func(string) string, float func(float64) string) string {
	switch x := v.(type) {
	case string:
		return str(x)
	case float64:
		return float(x)
	case float32:
		return float(float64(x))
	}
	return NumberLiteral(v)
}

// PlainFloat is f in decimal without an exponent, for a language whose
// scanner has no exponent form (InfluxQL reads 1e+21 as a duration, IoTDB
// as a name); NaN and the infinities, which such a language has no literal
// for, as Go writes them (the statement then fails, its structure
// unchanged).
func PlainFloat(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// NonFinite names f when it is NaN or an infinity, as a language spells
// them (nan, inf, negInf); ok is false for a finite f.
func NonFinite(f float64, nan, inf, negInf string) (name string, ok bool) {
	switch {
	case math.IsNaN(f):
		return nan, true
	case math.IsInf(f, 1):
		return inf, true
	case math.IsInf(f, -1):
		return negInf, true
	}
	return "", false
}

// NormalValue is a value of a driver's answer in Rows' normal form.
func NormalValue(v any) any {
	switch x := v.(type) {
	case nil, string, bool, int64:
		return v
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x)
		}
		return x
	case float32:
		return NormalValue(float64(x))
	case int:
		return int64(x)
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x)
		}
		return float64(x)
	case []byte:
		return string(x)
	case time.Time:
		return x.UnixMilli()
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

// MaxRows bounds the rows of a statement's answer that a target keeps: an
// own query's latency covers reading every row, but comparing answers
// needs only the first ones (Rows.Count counts them all).
const MaxRows = 1000

// Keep counts one more row of the answer and reports whether Values keeps
// it: the first MaxRows rows are kept, the rest only counted. A target
// reads a row's values only when it is kept, and then appends them.
func (r *Rows) Keep() bool {
	r.Count++
	return r.all || len(r.Values) < MaxRows
}

// CollectRows reads an answer into Rows through a driver's own cursor:
// next moves to the answer's next row (false past the last), cells reads
// that row's values into a slice of its own, and normal puts each value in
// Rows' form. Every row is counted; cells is called for the kept ones
// only (every row where st.KeepAll). The error is cells': the answer's
// own error (the one that ended next early) is the caller's to ask the
// cursor for.
func CollectRows(st *Statement, columns []string, next func() bool, cells func() ([]any, error), normal func(any) any) (Rows, error) {
	out := Rows{Columns: columns, all: st.KeepAll}
	for next() {
		if !out.Keep() {
			continue
		}
		row, err := cells()
		if err != nil {
			return out, err
		}
		for i, c := range row {
			row[i] = normal(c)
		}
		out.Values = append(out.Values, row)
	}
	return out, nil
}

// ScanSQL reads a database/sql answer into Rows: every row counted, the
// first MaxRows kept.
func ScanSQL(rows *sql.Rows) (Rows, error) { return ScanSQLAs(rows, NormalValue) }

// ScanSQLAs is ScanSQL with each value put in Rows' form by normal, for a
// driver whose values NormalValue does not know.
func ScanSQLAs(rows *sql.Rows, normal func(any) any) (Rows, error) {
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return Rows{}, err
	}
	cells := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range cells {
		ptrs[i] = &cells[i]
	}
	out, err := CollectRows(&Statement{}, cols, rows.Next, func() ([]any, error) {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		return slices.Clone(cells), nil
	}, normal)
	if err != nil {
		return out, err
	}
	return out, rows.Err()
}
