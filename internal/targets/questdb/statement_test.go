package questdb

import (
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// ownTable is the table of the own-query dataset's group.
const ownTable = "tsbench_own_g_0"

// ownData sets up targettest.OwnData in table tsbench_own_g_0: s_1
// (VARCHAR) holds targettest.Texts. It returns once the WAL applied every
// row.
func ownData(t *testing.T) *Target {
	ctx := t.Context()
	tg := server.OwnTexts(ctx, t, Driver, "tsbench_own", targettest.Texts).(*Target)
	tg.mu.Lock()
	defer tg.mu.Unlock()
	if _, err := tg.settled(ctx); err != nil {
		t.Fatal(err)
	}
	return tg
}

// hostile are targettest.Hostile and values of this language's own.
var hostile = targettest.HostileAnd(`$1`)

// A statement with bound parameters answers exactly the rows written, in
// Rows' normal form: the TIMESTAMP as Unix milliseconds, a bound time a
// time.Time, doubles as float64, SYMBOL and VARCHAR as strings.
func TestRunStatement(t *testing.T) {
	ctx := t.Context()
	tg := ownData(t)
	start := targettest.OwnStart
	t0 := start.UnixMilli()
	targettest.Answers(ctx, t, tg, targettest.Answer{Text: "SELECT ts, s_0 FROM " + ownTable + " WHERE device = $1 AND ts >= $2 ORDER BY ts",
		Args:    []any{"d_1", language.Time(start.Add(time.Second))},
		Columns: []string{"ts", "s_0"}, Values: [][]any{{t0 + 1000, 21.25}, {t0 + 2000, 22.25}},
	}, targettest.Answer{Text: "SELECT device, s_1, count() n FROM " + ownTable + " WHERE ts < $1 GROUP BY device, s_1 ORDER BY device",
		Args:    []any{language.Time(start.Add(time.Millisecond))},
		Columns: []string{"device", "s_1", "n"}, Values: [][]any{{"d_0", "a0", int64(1)}, {"d_1", "b0", int64(1)}},
	})
	// A bound text holding a quote or a backslash finds its row.
	for k, text := range targettest.Texts[0] {
		targettest.Answer{Text: "SELECT device, ts FROM " + ownTable + " WHERE s_1 = $1", Args: []any{text},
			Values: [][]any{{"d_0", t0 + int64(k)*1000}}}.Check(ctx, t, tg)
	}
	if got := targettest.RunOwn(ctx, t, tg, language.Explain("SELECT s_0 FROM "+ownTable+" WHERE ts >= $1"), language.Time(start)); got.Count == 0 {
		t.Errorf("EXPLAIN answered no rows")
	}
}

// A hostile text parameter, bound or written by Literal, is one value the
// comparison does not match: the statement succeeds with no rows and the
// data is all still there.
func TestRunStatementHostile(t *testing.T) {
	ctx := t.Context()
	tg := ownData(t)
	for _, col := range []string{"device", "s_1"} {
		text := "SELECT ts, s_0 FROM " + ownTable + " WHERE " + col + " = "
		for _, h := range hostile {
			targettest.Answers(ctx, t, tg, targettest.Answer{Text: text + "$1", Args: []any{h}}, targettest.Answer{Text: text + language.Literal(h)})
		}
	}
	for _, h := range hostile {
		targettest.Answer{Text: "SELECT " + language.Literal(h) + " x", Values: [][]any{{h}}}.Check(ctx, t, tg)
	}
	targettest.Answer{Text: "SELECT count() FROM " + ownTable, Values: [][]any{{int64(6)}}}.Check(ctx, t, tg)
}

// Literal and Ident write any value as one QuestDB literal or identifier
// (a backslash is an ordinary character in QuestDB's strings).
func TestLiteralIdent(t *testing.T) {
	targettest.Language{Name: "sql", Bind: "$", Literals: targettest.SQLLiterals, Idents: targettest.Idents{
		{"s_0", `"s_0"`},
		{`a"b`, `"a""b"`},
	}}.Check(t, Driver, language)
	if got := language.Time(time.UnixMilli(1_700_000_000_123)); got != time.UnixMilli(1_700_000_000_123).UTC() {
		t.Errorf("Time = %v", got)
	}
}
