package duckdb

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// ownStart is the time of the own-query dataset's first row.
var ownStart = time.UnixMilli(1_700_000_000_000)

var ownTexts = [2][3]string{{"a0", "it's", `back\slash`}, {"b0", "b1", "b2"}}

// ownData sets up a small known dataset through the target's own Setup and
// Write: devices d_0 and d_1, sensors s_0 (DOUBLE) and s_1 (TEXT), three
// rows a second apart; d_0's s_0 holds 10.5, 11.5, 12.5 and d_1's 20.25,
// 21.25, 22.25; s_1 holds the texts of ownTexts.
func ownData(ctx context.Context, t *testing.T) *Target {
	t.Helper()
	conn, err := Driver.Open(ctx, targets.Options{Database: "own", DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	s := &ts.Schema{Database: "own", Groups: []string{"g_0"},
		Devices:   []ts.Device{{Index: 0, Name: "d_0"}, {Index: 1, Name: "d_1"}},
		Sensors:   []ts.Sensor{{Name: "s_0", Type: ts.Double}, {Name: "s_1", Type: ts.Text}},
		StartTime: ownStart.UnixMilli(), PointStep: 1000}
	if err := conn.Setup(ctx, s, true); err != nil {
		t.Fatal(err)
	}
	for d := range s.Devices {
		b := &ts.Batch{Device: &s.Devices[d], Decimals: -1, Columns: []ts.Column{{Type: ts.Double}, {Type: ts.Text}}}
		for k := int64(0); k < 3; k++ {
			b.Times = append(b.Times, ownStart.UnixMilli()+k*1000)
			b.Rows = append(b.Rows, k)
			b.Columns[0].Doubles = append(b.Columns[0].Doubles, float64(10*(d+1))+float64(k)+0.5/float64(d+1))
			b.Columns[1].Texts = append(b.Columns[1].Texts, ownTexts[d][k])
		}
		if err := conn.Write(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	return conn.(*Target)
}

// hostile are parameter values that would change a statement's structure
// if they were spliced into its text unquoted or badly quoted.
var hostile = []string{`x' OR '1'='1`, `a"b`, `}{`, `;DROP TABLE x`, `trailing\`, "new\nline", `\' OR 1=1 -- `, `$1`, "?"}

func runOwn(ctx context.Context, t *testing.T, tg *Target, text string, args ...any) targets.Rows {
	t.Helper()
	rows, err := tg.RunStatement(ctx, &targets.Statement{Text: text, Args: args})
	if err != nil {
		t.Fatalf("%s %v: %v", text, args, err)
	}
	return rows
}

// A statement with bound parameters answers exactly the points written,
// in Rows' normal form: times as BIGINT Unix milliseconds, doubles as
// float64, text as string, SUM of integers (HUGEINT) and DECIMALs as
// numbers.
func TestRunStatement(t *testing.T) {
	ctx := context.Background()
	tg := ownData(ctx, t)
	if Driver.Language != language || language.Name != "sql" || language.Bind != "$" {
		t.Fatalf("Driver.Language = %+v", Driver.Language)
	}
	t0 := ownStart.UnixMilli()
	got := runOwn(ctx, t, tg, `SELECT p.t, p.v FROM points p JOIN series s ON s.id = p.series
		WHERE s.device = $1 AND s.sensor = $2 AND p.t >= $3 ORDER BY p.t`,
		"d_1", "s_0", language.Time(ownStart.Add(time.Second)))
	want := targets.Rows{Columns: []string{"t", "v"}, Count: 2,
		Values: [][]any{{t0 + 1000, 21.25}, {t0 + 2000, 22.25}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	got = runOwn(ctx, t, tg, `SELECT s.device, p.s, p.v FROM points p JOIN series s ON s.id = p.series
		WHERE s.sensor = $1 AND p.t = $2 ORDER BY s.device`, "s_1", t0)
	want = targets.Rows{Columns: []string{"device", "s", "v"}, Count: 2,
		Values: [][]any{{"d_0", "a0", nil}, {"d_1", "b0", nil}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	got = runOwn(ctx, t, tg, "SELECT SUM(t - $1) AS st, COUNT(*) AS n, 1.5 AS d FROM points WHERE series = $2", t0, int64(0))
	if want := [][]any{{int64(3000), int64(3), 1.5}}; !reflect.DeepEqual(got.Values, want) {
		t.Errorf("got %#v, want %#v", got.Values, want)
	}
	// A bound text holding a quote or a backslash finds its point.
	for k, text := range ownTexts[0] {
		got = runOwn(ctx, t, tg, "SELECT t, COUNT(*) AS n FROM points WHERE s = $1 GROUP BY t", text)
		if want := [][]any{{t0 + int64(k)*1000, int64(1)}}; !reflect.DeepEqual(got.Values, want) {
			t.Errorf("s = %q: got %v, want %v", text, got.Values, want)
		}
	}
	if got := runOwn(ctx, t, tg, language.Explain("SELECT v FROM points WHERE t >= $1"), t0); got.Count == 0 {
		t.Errorf("EXPLAIN answered no rows")
	}
}

// A hostile text parameter, bound or written by Literal, is one value the
// comparison does not match: the statement succeeds with no rows and the
// data is all still there.
func TestRunStatementHostile(t *testing.T) {
	ctx := context.Background()
	tg := ownData(ctx, t)
	const text = "SELECT p.t, p.v FROM points p JOIN series s ON s.id = p.series WHERE s.device = "
	for _, h := range hostile {
		if got := runOwn(ctx, t, tg, text+"$1", h); got.Count != 0 || len(got.Values) != 0 {
			t.Errorf("bound %q: got %v, want no rows", h, got.Values)
		}
		if got := runOwn(ctx, t, tg, text+language.Literal(h)); got.Count != 0 || len(got.Values) != 0 {
			t.Errorf("literal %s: got %v, want no rows", language.Literal(h), got.Values)
		}
		if got := runOwn(ctx, t, tg, "SELECT $1 AS x, "+language.Literal(h)+" AS y", h); !reflect.DeepEqual(got.Values, [][]any{{h, h}}) {
			t.Errorf("%q came back as %q", h, got.Values)
		}
	}
	got := runOwn(ctx, t, tg, "SELECT COUNT(*) FROM points")
	if want := [][]any{{int64(12)}}; !reflect.DeepEqual(got.Values, want) {
		t.Errorf("points after the hostile statements: %v, want %v", got.Values, want)
	}
}

// Literal and Ident write any value as one DuckDB literal or identifier
// (a backslash is an ordinary character in DuckDB's strings).
func TestLiteralIdent(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{int64(-42), "-42"},
		{1.5, "1.5"},
		{"plain", "'plain'"},
		{"it's", "'it''s'"},
		{`trailing\`, `'trailing\'`},
		{"new\nline", "'new\nline'"},
		{"", "''"},
	} {
		if got := language.Literal(c.in); got != c.want {
			t.Errorf("Literal(%#v) = %s, want %s", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"points", `"points"`},
		{`a"b`, `"a""b"`},
		{"a`b", "\"a`b\""},
	} {
		if got := language.Ident(c.in); got != c.want {
			t.Errorf("Ident(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	// Ident names a column whatever its name.
	ctx := context.Background()
	tg := ownData(ctx, t)
	for _, name := range []string{`a"b`, "x y", "select"} {
		got := runOwn(ctx, t, tg, "SELECT 7 AS "+language.Ident(name))
		if want := (targets.Rows{Columns: []string{name}, Values: [][]any{{int64(7)}}, Count: 1}); !reflect.DeepEqual(got, want) {
			t.Errorf("Ident(%q): got %#v, want %#v", name, got, want)
		}
	}
}
