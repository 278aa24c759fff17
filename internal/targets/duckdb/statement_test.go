package duckdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// ownData sets up targettest.OwnData (s_1 TEXT holding targettest.Texts)
// in a database file of the test's own.
func ownData(t *testing.T) *Target {
	o := targets.Options{Database: "own", DataDir: t.TempDir()}
	return targettest.OwnData(t.Context(), t, Driver, o, ts.Text, targettest.OwnTexts(targettest.Texts)).(*Target)
}

// hostile are targettest.Hostile and values of this language's own.
var hostile = targettest.HostileAnd(`$1`, "?")

// A statement with bound parameters answers exactly the points written,
// in Rows' normal form: times as BIGINT Unix milliseconds, doubles as
// float64, text as string, SUM of integers (HUGEINT) and DECIMALs as
// numbers.
func TestRunStatement(t *testing.T) {
	ctx := t.Context()
	tg := ownData(t)
	targettest.PointsAnswers(ctx, t, tg, language, targettest.Texts)
	t0 := targettest.OwnStart.UnixMilli()
	targettest.Answer{Text: "SELECT SUM(t - $1) AS st, COUNT(*) AS n, 1.5 AS d FROM points WHERE series = $2", Args: []any{t0, int64(0)},
		Values: [][]any{{int64(3000), int64(3), 1.5}}}.Check(ctx, t, tg)
}

// A hostile text parameter, bound or written by Literal, is one value the
// comparison does not match: the statement succeeds with no rows and the
// data is all still there.
func TestRunStatementHostile(t *testing.T) {
	ctx := t.Context()
	targettest.PointsHostile(ctx, t, ownData(t), language, hostile)
}

// Literal and Ident write any value as one DuckDB literal or identifier
// (a backslash is an ordinary character in DuckDB's strings).
func TestLiteralIdent(t *testing.T) {
	targettest.Language{Name: "sql", Bind: "$", Literals: targettest.SQLLiterals, Idents: targettest.Idents{
		{"points", `"points"`},
		{`a"b`, `"a""b"`},
		{"a`b", "\"a`b\""},
	}}.Check(t, Driver, language)
	// Ident names a column whatever its name.
	ctx := t.Context()
	tg := ownData(t)
	for _, name := range []string{`a"b`, "x y", "select"} {
		targettest.Answer{Text: "SELECT 7 AS " + language.Ident(name), Columns: []string{name}, Values: [][]any{{int64(7)}}}.Check(ctx, t, tg)
	}
}
