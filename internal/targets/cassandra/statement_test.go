package cassandra

import (
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// ownDay is the day partition of the own-query dataset.
var ownDay = targettest.OwnStart.UnixMilli() / dayMs

var ownTexts = [2][3]string{{"a0", "it's", `back\slash`}, {"b0", "b1", ""}}

// ownData sets up targettest.OwnData in keyspace tsbench_own, its three
// rows in one day partition: s_1 (text) holds the texts of ownTexts, but
// d_1's last s_1 is an empty cell (no value).
func ownData(t *testing.T) *Target {
	t.Helper()
	server.Require(t)
	return targettest.OwnData(t.Context(), t, Driver, targets.Options{Database: "tsbench_own"}, ts.Text, func(d int, k int64) any {
		if d == 1 && k == 2 {
			return nil
		}
		return ownTexts[d][k]
	}).(*Target)
}

// hostile are targettest.Hostile and values of this language's own.
var hostile = targettest.HostileAnd(`$$`, "?")

// A statement with bound parameters answers exactly the rows written, in
// Rows' normal form: t as bigint Unix milliseconds, doubles as float64,
// text as string, a cell without a value as nil, varint and decimal as
// numbers.
func TestRunStatement(t *testing.T) {
	ctx := t.Context()
	tg := ownData(t)
	t0 := targettest.OwnStart.UnixMilli()
	targettest.Answer{Text: `SELECT t, "s_0", "s_1" FROM "tsbench_own".points WHERE device = ? AND day = ? AND t >= ?`,
		Args:    []any{"d_1", ownDay, language.Time(targettest.OwnStart.Add(time.Second))},
		Columns: []string{"t", "s_0", "s_1"}, Values: [][]any{{t0 + 1000, 21.25, "b1"}, {t0 + 2000, 22.25, nil}}}.Check(ctx, t, tg)
	// A bound text holding a quote or a backslash finds its row.
	for k, text := range ownTexts[0] {
		targettest.Answer{Text: `SELECT t FROM "tsbench_own".points WHERE device = ? AND day = ? AND "s_1" = ? ALLOW FILTERING`,
			Args: []any{"d_0", ownDay, text}, Values: [][]any{{t0 + int64(k)*1000}}}.Check(ctx, t, tg)
	}
	targettest.Answers(ctx, t, tg, targettest.Answer{Text: `SELECT CAST(t AS varint) AS vi, CAST("s_0" AS decimal) AS dc, count(*) AS n
		FROM "tsbench_own".points WHERE device = ? AND day = ? AND t = ?`, Args: []any{"d_0", ownDay, t0 + 1000},
		Columns: []string{"vi", "dc", "n"}, Values: [][]any{{t0 + 1000, 11.5, int64(1)}},
	}, targettest.Answer{ // An empty text is "", not a missing value.
		Text: "SELECT blobAsText(textAsBlob('')) AS e, textAsBlob(?) AS b FROM system.local", Args: []any{"x"},
		Values: [][]any{{"", "x"}},
	})
}

// A hostile text parameter, bound or written by Literal, is one value the
// comparison does not match: the statement succeeds with no rows and the
// data is all still there.
func TestRunStatementHostile(t *testing.T) {
	ctx := t.Context()
	tg := ownData(t)
	const byDevice = `SELECT t, "s_0" FROM "tsbench_own".points WHERE day = ? AND device = `
	const byText = `SELECT t, "s_0" FROM "tsbench_own".points WHERE day = ? AND device = 'd_0' AND "s_1" = `
	for _, h := range hostile {
		targettest.Answers(ctx, t, tg,
			targettest.Answer{Text: byDevice + "?", Args: []any{ownDay, h}},
			targettest.Answer{Text: byDevice + language.Literal(h), Args: []any{ownDay}},
			targettest.Answer{Text: byText + "? ALLOW FILTERING", Args: []any{ownDay, h}},
			targettest.Answer{Text: byText + language.Literal(h) + " ALLOW FILTERING", Args: []any{ownDay}})
	}
	targettest.Answers(ctx, t, tg, targettest.Answer{ // Literal's quoting finds a text with a quote in it.
		Text: byText + language.Literal("it's") + " ALLOW FILTERING", Args: []any{ownDay},
		Values: [][]any{{targettest.OwnStart.UnixMilli() + 1000, 11.5}},
	}, targettest.Answer{Text: `SELECT count(*) FROM "tsbench_own".points`, Values: [][]any{{int64(6)}}})
}

// Literal and Ident write any value as one CQL literal or identifier (CQL
// strings have no backslash escapes).
func TestLiteralIdent(t *testing.T) {
	targettest.Language{Name: "cql", Bind: "?", Literals: targettest.SQLLiterals, Idents: targettest.Idents{
		{"s_0", `"s_0"`},
		{`a"b`, `"a""b"`},
		{"Temp.C", `"Temp.C"`},
	}}.Check(t, Driver, language)
	if language.Explain != nil {
		t.Errorf("CQL has no EXPLAIN, but Language.Explain is set")
	}
}
