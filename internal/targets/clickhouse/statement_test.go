package clickhouse

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

var ownTexts = [2][3]string{{"a0", "it's", `back\slash`}, {"b0", "b1", "tab\there"}}

// ownData sets up targettest.OwnData in database tsbench_own: s_1 (TEXT)
// holds the texts of ownTexts.
func ownData(t *testing.T) *Target {
	return server.OwnTexts(t.Context(), t, Driver, "tsbench_own", ownTexts).(*Target)
}

// hostile are targettest.Hostile and values of this language's own.
var hostile = targettest.HostileAnd(`\`, `''`, "tab\tnul\x00", "`points`")

// render writes each value into text at its {} (targettest.Render).
func render(text string, vals ...any) string { return targettest.Render(language, text, vals...) }

// A statement with its values written as literals answers exactly the
// points written, read by their column types.
func TestRunStatement(t *testing.T) {
	ctx := t.Context()
	tg := ownData(t)
	t0 := targettest.OwnStart.UnixMilli()
	targettest.Answer{Text: render(`SELECT t, v FROM points FINAL
		WHERE series IN (SELECT toUInt32(pos * 2) FROM devices FINAL WHERE device = {}) AND t >= {} ORDER BY t`,
		"d_1", language.Time(targettest.OwnStart.Add(time.Second))),
		Columns: []string{"t", "v"}, Values: [][]any{{t0 + 1000, 21.25}, {t0 + 2000, 22.25}}}.Check(ctx, t, tg)
	// A text holding a quote, a backslash or a tab finds its point.
	for d, texts := range ownTexts {
		for k, text := range texts {
			targettest.Answer{Text: render("SELECT series, t, s FROM points FINAL WHERE s = {}", text),
				Values: [][]any{{int64(d*2 + 1), t0 + int64(k)*1000, text}}}.Check(ctx, t, tg)
		}
	}
	// Every kind of column reads into Rows' normal form.
	var zone string
	if z := targettest.RunOwn(ctx, t, tg, "SELECT timezone()"); len(z.Values) == 1 {
		zone, _ = z.Values[0][0].(string)
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatalf("server zone %q: %v", zone, err)
	}
	targettest.Answers(ctx, t, tg, targettest.Answer{Text: render(`SELECT toUInt64(18446744073709551615) AS big, toUInt8(7) AS u, toInt32(-3) AS i,
		toNullable(toFloat64(1.5)) AS f, NULL AS n, toDateTime(intDiv({}, 1000)) AS dt,
		toDateTime(intDiv({}, 1000), 'Asia/Tokyo') AS dtz, toDate('2023-11-14') AS d, 'a\tb\\c' AS s, [1, 2] AS arr`, t0, t0),
		Columns: []string{"big", "u", "i", "f", "n", "dt", "dtz", "d", "s", "arr"},
		Values: [][]any{{float64(math.MaxUint64), int64(7), int64(-3), 1.5, nil, t0, t0,
			time.Date(2023, 11, 14, 0, 0, 0, 0, loc).UnixMilli(), "a\tb\\c", "[1,2]"}},
	}, targettest.Answer{ // A negative number after a minus stays a number, not a comment.
		Text: render("SELECT 10 -{} AS x", int64(-5)), Values: [][]any{{int64(15)}},
	})
	// A server error is an error, not rows.
	if _, err := tg.RunStatement(ctx, &targets.Statement{Text: "SELECT nosuchcolumn FROM points"}); err == nil ||
		!strings.Contains(err.Error(), "nosuchcolumn") {
		t.Errorf("a bad column: %v", err)
	}
	if _, err := tg.RunStatement(ctx, &targets.Statement{Text: "SELECT 1", Args: []any{int64(1)}}); err == nil {
		t.Errorf("bound values were accepted")
	}
}

// A hostile text parameter written by Literal is one value the comparison
// does not match: the statement succeeds with no rows, the value comes back
// as it was, and the data is all still there.
func TestRunStatementHostile(t *testing.T) {
	ctx := t.Context()
	tg := ownData(t)
	for _, h := range hostile {
		targettest.Answers(ctx, t, tg,
			targettest.Answer{Text: render("SELECT t, v FROM points FINAL WHERE s = {}", h)},
			targettest.Answer{Text: render("SELECT series FROM points FINAL WHERE series IN (SELECT pos FROM devices FINAL WHERE device = {})", h)},
			targettest.Answer{Text: render("SELECT {} AS x", h), Values: [][]any{{h}}})
	}
	targettest.Answer{Text: "SELECT count() AS n FROM points FINAL", Values: [][]any{{int64(12)}}}.Check(ctx, t, tg)
}

// Literal and Ident write any value as one ClickHouse literal or
// identifier.
func TestLiteralIdent(t *testing.T) {
	targettest.Language{Name: "sql", Bind: "", Literals: targettest.Literals{
		{int64(42), "42"},
		{int64(-42), "(-42)"},
		{1.5, "1.5"},
		{-1.5, "(-1.5)"},
		{math.Inf(1), "inf"},
		{math.Inf(-1), "(-inf)"},
		{math.NaN(), "nan"},
		{"plain", "'plain'"},
		{"it's", `'it\'s'`},
		{`trailing\`, `'trailing\\'`},
		{`\' OR 1=1 -- `, `'\\\' OR 1=1 -- '`},
		{"new\nline", "'new\nline'"},
		{"", "''"},
	}, Idents: targettest.Idents{
		{"points", "`points`"},
		{"a`b", "`a\\`b`"},
		{`a\`, "`a\\\\`"},
	}}.Check(t, Driver, language)
}
