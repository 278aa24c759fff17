package questdb

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

// ownTable is the table of the own-query dataset's group.
const ownTable = "tsbench_own_g_0"

// ownData sets up a small known dataset through the target's own Setup and
// Write: devices d_0 and d_1, sensors s_0 (DOUBLE) and s_1 (VARCHAR), three
// rows a second apart in table tsbench_own_g_0; d_0's s_0 holds 10.5,
// 11.5, 12.5 and d_1's 20.25, 21.25, 22.25; s_1 holds the texts of
// ownTexts. It returns once the WAL applied every row.
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
		if err := conn.Write(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	tg := conn.(*Target)
	tg.mu.Lock()
	defer tg.mu.Unlock()
	if _, err := tg.settled(ctx); err != nil {
		t.Fatal(err)
	}
	return tg
}

// hostile are parameter values that would change a statement's structure
// if they were spliced into its text unquoted or badly quoted.
var hostile = []string{`x' OR '1'='1`, `a"b`, `}{`, `;DROP TABLE x`, `trailing\`, "new\nline", `\' OR 1=1 -- `, `$1`}

func runOwn(ctx context.Context, t *testing.T, tg *Target, text string, args ...any) targets.Rows {
	t.Helper()
	rows, err := tg.RunStatement(ctx, &targets.Statement{Text: text, Args: args})
	if err != nil {
		t.Fatalf("%s %v: %v", text, args, err)
	}
	return rows
}

// A statement with bound parameters answers exactly the rows written, in
// Rows' normal form: the TIMESTAMP as Unix milliseconds, a bound time a
// time.Time, doubles as float64, SYMBOL and VARCHAR as strings.
func TestRunStatement(t *testing.T) {
	ctx := context.Background()
	tg := ownData(ctx, t)
	if Driver.Language != language || language.Name != "sql" || language.Bind != "$" {
		t.Fatalf("Driver.Language = %+v", Driver.Language)
	}
	t0 := ownStart.UnixMilli()
	got := runOwn(ctx, t, tg, "SELECT ts, s_0 FROM "+ownTable+" WHERE device = $1 AND ts >= $2 ORDER BY ts",
		"d_1", language.Time(ownStart.Add(time.Second)))
	want := targets.Rows{Columns: []string{"ts", "s_0"}, Count: 2,
		Values: [][]any{{t0 + 1000, 21.25}, {t0 + 2000, 22.25}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	got = runOwn(ctx, t, tg, "SELECT device, s_1, count() n FROM "+ownTable+" WHERE ts < $1 GROUP BY device, s_1 ORDER BY device",
		language.Time(ownStart.Add(time.Millisecond)))
	want = targets.Rows{Columns: []string{"device", "s_1", "n"}, Count: 2,
		Values: [][]any{{"d_0", "a0", int64(1)}, {"d_1", "b0", int64(1)}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	// A bound text holding a quote or a backslash finds its row.
	for k, text := range ownTexts[0] {
		got = runOwn(ctx, t, tg, "SELECT device, ts FROM "+ownTable+" WHERE s_1 = $1", text)
		if want := [][]any{{"d_0", t0 + int64(k)*1000}}; !reflect.DeepEqual(got.Values, want) {
			t.Errorf("s_1 = %q: got %v, want %v", text, got.Values, want)
		}
	}
	if got := runOwn(ctx, t, tg, language.Explain("SELECT s_0 FROM "+ownTable+" WHERE ts >= $1"), language.Time(ownStart)); got.Count == 0 {
		t.Errorf("EXPLAIN answered no rows")
	}
}

// A hostile text parameter, bound or written by Literal, is one value the
// comparison does not match: the statement succeeds with no rows and the
// data is all still there.
func TestRunStatementHostile(t *testing.T) {
	ctx := context.Background()
	tg := ownData(ctx, t)
	for _, col := range []string{"device", "s_1"} {
		text := "SELECT ts, s_0 FROM " + ownTable + " WHERE " + col + " = "
		for _, h := range hostile {
			if got := runOwn(ctx, t, tg, text+"$1", h); got.Count != 0 || len(got.Values) != 0 {
				t.Errorf("bound %q: got %v, want no rows", h, got.Values)
			}
			if got := runOwn(ctx, t, tg, text+language.Literal(h)); got.Count != 0 || len(got.Values) != 0 {
				t.Errorf("literal %s: got %v, want no rows", language.Literal(h), got.Values)
			}
		}
	}
	for _, h := range hostile {
		if got := runOwn(ctx, t, tg, "SELECT "+language.Literal(h)+" x"); !reflect.DeepEqual(got.Values, [][]any{{h}}) {
			t.Errorf("%q came back as %q", h, got.Values)
		}
	}
	got := runOwn(ctx, t, tg, "SELECT count() FROM "+ownTable)
	if want := [][]any{{int64(6)}}; !reflect.DeepEqual(got.Values, want) {
		t.Errorf("rows after the hostile statements: %v, want %v", got.Values, want)
	}
}

// Literal and Ident write any value as one QuestDB literal or identifier
// (a backslash is an ordinary character in QuestDB's strings).
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
	} {
		if got := language.Ident(c.in); got != c.want {
			t.Errorf("Ident(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	if got := language.Time(time.UnixMilli(1_700_000_000_123)); got != time.UnixMilli(1_700_000_000_123).UTC() {
		t.Errorf("Time = %v", got)
	}
}
