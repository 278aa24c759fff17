// Package sqlfamily is the SQL the narrow-table SQL targets (sqlite,
// postgres, mysql, duckdb, clickhouse) share: Q1..Q10, Count, the analytics
// queries, multi-row INSERT ... VALUES with upsert, the metadata tables and
// the TabSeparated point rows, all built from a small Dialect that holds what
// differs between the engines (placeholders, series lists, aggregates, time
// bucketing, the Q8 form, tag access, upsert form).
//
// Every target stores points the same way: points(series, t, v[, s]) with
// the primary key (series, t), where series is ts.Schema.SeriesID. What
// truly differs stays in the targets: connections, and server-specific write
// paths (postgres COPY, mysql LOAD DATA, duckdb's Appender, ClickHouse over
// HTTP). For database/sql targets, Bound (lock, schema, Bind), Queries
// (Setup, Query, Count, analytics) and Inserter (prepared multi-row upserts
// in a transaction) are the target's methods and write loop; sqltest holds
// their shared tests.
package sqlfamily

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
)

// Placeholder is how a statement refers to its parameters.
type Placeholder uint8

const (
	// Question is "?" (SQLite, MySQL, DuckDB).
	Question Placeholder = iota
	// Dollar is "$1", "$2", ... (PostgreSQL); a number may be used twice.
	Dollar
	// Inline writes every value into the SQL as a literal, for a server
	// reached without parameters (ClickHouse over HTTP).
	Inline
)

// IDs is how a statement names its series.
type IDs uint8

const (
	// IDList writes the ids as integer literals: series IN (1,2,3).
	IDList IDs = iota
	// IDArray passes them as one []int32 array parameter: series = ANY($1).
	IDArray
	// IDBound binds each id as a parameter up to Dialect.MaxBound ids and
	// writes longer lists as literals: with the parameters a repeated query
	// shape is one cached prepared statement, without them thousands of
	// series stay clear of the engine's parameter limit.
	IDBound
)

// Latest is the form of Q8 (the newest point of each series).
type Latest uint8

const (
	// LatestJoin joins the points to max(t) per series.
	LatestJoin Latest = iota
	// LatestArgMax is ClickHouse's max(t), argMax(v, t) per series.
	LatestArgMax
	// LatestProbe looks up each series' greatest t through the primary key,
	// one probe per series (SQLite, which would otherwise scan every point
	// of the series for max(t) in the join).
	LatestProbe
	// LatestLateral reads each series' newest row with one backward scan
	// of the primary key (series, t), LIMIT 1, for the series of an
	// IDArray parameter (PostgreSQL): the join to max(t) reads every row
	// of every series, hundreds of milliseconds for TSBS's lastpoint.
	LatestLateral
)

// Dialect is what one engine's SQL needs that another's does not.
type Dialect struct {
	Name        string
	Placeholder Placeholder
	IDs         IDs
	MaxBound    int // IDBound: the longest list bound as parameters

	// Table is what the queries read: "points", or ClickHouse's
	// "`db`.points FINAL" (FINAL collapses rewritten rows).
	Table string
	// ZeroTime is the time column of Q4..Q6 rows, which have no time.
	ZeroTime string
	// Count and Sum are the SQL of those aggregates, which differ by engine
	// in their result type (a count as a float, SQLite's overflow-free
	// TOTAL); avg, min and max are the same everywhere.
	Count, Sum string
	// Bucket writes the start of Q7's bucket of t: origin + (t - origin) /
	// width * width in integer arithmetic (t >= origin, the query's
	// BucketOrigin, so the division is a floor), in the engine's spelling.
	Bucket func(b *Builder, start, width int64) string
	Latest Latest
	// SkipNullAggregates drops aggregate rows whose value is NULL (an
	// aggregate over no numbers) instead of counting them as 0.
	SkipNullAggregates bool
	// KeepTimes keeps the first and last times of Q7 and Q8 results, which
	// other targets clear (their rows' time order is not part of the
	// contract); the sqlite target's tests pin them.
	KeepTimes bool

	// Tag is the analytics expression of a device's tag named by key
	// (tags are a JSON object in devices.tags); nil: no analytics.
	Tag func(b *Builder, key string) string
	// Real is the SQL type a fleet question casts its numbers to (tags are
	// text, counts integers) so that every driver scans a float; "" or a
	// nil Tag: no fleet questions (Fleet says they are unsupported).
	Real string

	// Insert starts the multi-row point INSERT, up to VALUES; Row lists
	// the type cast after each column's placeholder ("" for none) and so
	// the number of columns; Upsert follows the rows.
	Insert string
	Row    []string
	Upsert string
	// Replace starts the metadata INSERT that replaces a row with the same
	// key ("INSERT OR REPLACE INTO", "REPLACE INTO").
	Replace string
}

// Builder accumulates one statement and its parameters.
type Builder struct {
	D    *Dialect
	SQL  strings.Builder
	Args []any
	num  []byte
}

// NewBuilder is an empty statement of dialect d.
func NewBuilder(d *Dialect) *Builder { return &Builder{D: d} }

// Reset empties b for the next statement, keeping its buffers.
func (b *Builder) Reset() {
	b.SQL.Reset()
	clear(b.Args) // drop the references to the boxed values
	b.Args = b.Args[:0]
}

// S appends SQL text.
func (b *Builder) S(s string) *Builder {
	b.SQL.WriteString(s)
	return b
}

// Param adds the parameter v and returns its placeholder (with Inline, v's
// literal). With Dollar the placeholder may be written again for the same
// value; with Question each use needs its own Param.
func (b *Builder) Param(v any) string {
	switch b.D.Placeholder {
	case Dollar:
		b.Args = append(b.Args, v)
		return "$" + strconv.Itoa(len(b.Args))
	case Inline:
		return Literal(v)
	}
	b.Args = append(b.Args, v)
	return "?"
}

// P appends the placeholder of the parameter v.
func (b *Builder) P(v any) *Builder {
	if b.D.Placeholder == Question {
		b.Args = append(b.Args, v)
		b.SQL.WriteByte('?')
		return b
	}
	b.SQL.WriteString(b.Param(v))
	return b
}

// Int appends the integer literal v.
func (b *Builder) Int(v int64) *Builder {
	b.num = strconv.AppendInt(b.num[:0], v, 10)
	b.SQL.Write(b.num)
	return b
}

// String is the statement's SQL.
func (b *Builder) String() string { return b.SQL.String() }

// Literal is v written as an SQL literal: integers and floats as numbers,
// strings quoted (quotes doubled), nil as NULL.
func Literal(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int:
		return strconv.Itoa(x)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return Quote(x)
	}
	panic(fmt.Sprintf("sqlfamily: no SQL literal for %T", v))
}

// Quote is the string literal of s ('...', quotes doubled): the SQL
// family's, targets.SQLString.
func Quote(s string) string { return targets.SQLString(s) }

// JSONTag is a Dialect's Tag where devices.tags holds the tags as JSON
// text, read with the SQL function fn at the path '$.' || key (SQLite's
// json_extract, DuckDB's json_extract_string).
func JSONTag(fn string) func(b *Builder, key string) string {
	return func(b *Builder, key string) string {
		return fn + "(d.tags, '$.' || " + b.Param(key) + ")"
	}
}

// IntDiv is a Dialect.Bucket for engines whose integer division is op
// (MySQL's DIV, DuckDB's //): start + (t - start) op width * width, with
// start and width as literals, like the series lists of those dialects
// (their statements are not cached per shape, so literals cost nothing).
func IntDiv(op string) func(b *Builder, start, width int64) string {
	return func(_ *Builder, start, width int64) string {
		st, w := strconv.FormatInt(start, 10), strconv.FormatInt(width, 10)
		return st + " + (t - " + st + ") " + op + " " + w + " * " + w
	}
}

// ParamDiv is a Dialect.Bucket with start and width as parameters and "/"
// as integer division (SQLite, PostgreSQL).
func ParamDiv(b *Builder, start, width int64) string {
	if b.D.Placeholder == Dollar {
		s, w := b.Param(start), b.Param(width)
		return s + " + (t - " + s + ") / " + w + " * " + w
	}
	// Go evaluates the calls left to right: the parameters in text order.
	return b.Param(start) + " + (t - " + b.Param(start) + ") / " + b.Param(width) + " * " + b.Param(width)
}
