package cassandra

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

// ownDay is the day partition of the own-query dataset.
var ownDay = ownStart.UnixMilli() / dayMs

var ownTexts = [2][3]string{{"a0", "it's", `back\slash`}, {"b0", "b1", ""}}

// ownData sets up a small known dataset through the target's own Setup and
// Write in keyspace tsbench_own: devices d_0 and d_1, sensors s_0 (double)
// and s_1 (text), three rows a second apart in one day partition; d_0's s_0
// holds 10.5, 11.5, 12.5 and d_1's 20.25, 21.25, 22.25; s_1 holds the
// texts of ownTexts, but d_1's last s_1 is an empty cell (no value).
func ownData(ctx context.Context, t *testing.T) *Target {
	t.Helper()
	server.Require(t)
	conn, err := Driver.Open(ctx, targets.Options{Database: "tsbench_own"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	s := &ts.Schema{Database: "tsbench_own", Groups: []string{"g_0"},
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
		if d == 1 {
			b.SetNull(1, 2)
		}
		if err := conn.Write(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	return conn.(*Target)
}

// hostile are parameter values that would change a statement's structure
// if they were spliced into its text unquoted or badly quoted.
var hostile = []string{`x' OR '1'='1`, `a"b`, `}{`, `;DROP TABLE x`, `trailing\`, "new\nline", `\' OR 1=1 -- `, `$$`, "?"}

func runOwn(ctx context.Context, t *testing.T, tg *Target, text string, args ...any) targets.Rows {
	t.Helper()
	rows, err := tg.RunStatement(ctx, &targets.Statement{Text: text, Args: args})
	if err != nil {
		t.Fatalf("%s %v: %v", text, args, err)
	}
	return rows
}

// A statement with bound parameters answers exactly the rows written, in
// Rows' normal form: t as bigint Unix milliseconds, doubles as float64,
// text as string, a cell without a value as nil, varint and decimal as
// numbers.
func TestRunStatement(t *testing.T) {
	ctx := context.Background()
	tg := ownData(ctx, t)
	if Driver.Language != language || language.Name != "cql" || language.Bind != "?" || language.Explain != nil {
		t.Fatalf("Driver.Language = %+v", Driver.Language)
	}
	t0 := ownStart.UnixMilli()
	got := runOwn(ctx, t, tg, `SELECT t, "s_0", "s_1" FROM "tsbench_own".points WHERE device = ? AND day = ? AND t >= ?`,
		"d_1", ownDay, language.Time(ownStart.Add(time.Second)))
	want := targets.Rows{Columns: []string{"t", "s_0", "s_1"}, Count: 2,
		Values: [][]any{{t0 + 1000, 21.25, "b1"}, {t0 + 2000, 22.25, nil}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	// A bound text holding a quote or a backslash finds its row.
	for k, text := range ownTexts[0] {
		got = runOwn(ctx, t, tg, `SELECT t FROM "tsbench_own".points WHERE device = ? AND day = ? AND "s_1" = ? ALLOW FILTERING`,
			"d_0", ownDay, text)
		if want := [][]any{{t0 + int64(k)*1000}}; !reflect.DeepEqual(got.Values, want) {
			t.Errorf("s_1 = %q: got %v, want %v", text, got.Values, want)
		}
	}
	got = runOwn(ctx, t, tg, `SELECT CAST(t AS varint) AS vi, CAST("s_0" AS decimal) AS dc, count(*) AS n
		FROM "tsbench_own".points WHERE device = ? AND day = ? AND t = ?`, "d_0", ownDay, t0+1000)
	want = targets.Rows{Columns: []string{"vi", "dc", "n"}, Count: 1, Values: [][]any{{t0 + 1000, 11.5, int64(1)}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	// An empty text is "", not a missing value.
	got = runOwn(ctx, t, tg, "SELECT blobAsText(textAsBlob('')) AS e, textAsBlob(?) AS b FROM system.local", "x")
	if want := [][]any{{"", "x"}}; !reflect.DeepEqual(got.Values, want) {
		t.Errorf("got %#v, want %#v", got.Values, want)
	}
}

// A hostile text parameter, bound or written by Literal, is one value the
// comparison does not match: the statement succeeds with no rows and the
// data is all still there.
func TestRunStatementHostile(t *testing.T) {
	ctx := context.Background()
	tg := ownData(ctx, t)
	const byDevice = `SELECT t, "s_0" FROM "tsbench_own".points WHERE day = ? AND device = `
	const byText = `SELECT t, "s_0" FROM "tsbench_own".points WHERE day = ? AND device = 'd_0' AND "s_1" = `
	for _, h := range hostile {
		for _, text := range []string{byDevice, byText} {
			filter := ""
			if text == byText {
				filter = " ALLOW FILTERING"
			}
			if got := runOwn(ctx, t, tg, text+"?"+filter, ownDay, h); got.Count != 0 || len(got.Values) != 0 {
				t.Errorf("bound %q: got %v, want no rows", h, got.Values)
			}
			if got := runOwn(ctx, t, tg, text+language.Literal(h)+filter, ownDay); got.Count != 0 || len(got.Values) != 0 {
				t.Errorf("literal %s: got %v, want no rows", language.Literal(h), got.Values)
			}
		}
	}
	// Literal's quoting finds a text with a quote in it.
	got := runOwn(ctx, t, tg, byText+language.Literal("it's")+" ALLOW FILTERING", ownDay)
	if want := [][]any{{ownStart.UnixMilli() + 1000, 11.5}}; !reflect.DeepEqual(got.Values, want) {
		t.Errorf("literal 'it''s': got %v, want %v", got.Values, want)
	}
	got = runOwn(ctx, t, tg, `SELECT count(*) FROM "tsbench_own".points`)
	if want := [][]any{{int64(6)}}; !reflect.DeepEqual(got.Values, want) {
		t.Errorf("rows after the hostile statements: %v, want %v", got.Values, want)
	}
}

// Literal and Ident write any value as one CQL literal or identifier (CQL
// strings have no backslash escapes).
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
		{"s_0", `"s_0"`},
		{`a"b`, `"a""b"`},
		{"Temp.C", `"Temp.C"`},
	} {
		if got := language.Ident(c.in); got != c.want {
			t.Errorf("Ident(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
