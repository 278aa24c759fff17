package opentsdb

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// opentsdbServer is the OpenTSDB on HBase of scripts/services/opentsdb.sh.
var opentsdbServer = targettest.Server{Name: "opentsdb", Addr: "127.0.0.1:4242"}

// ownStart is the time of the own-query dataset's first row.
var ownStart = time.UnixMilli(1_700_000_000_000)

// ownData sets up a small known dataset through the target's own Setup and
// Write: metrics tsbench_own.s_0 (doubles) and tsbench_own.s_1 (integers),
// devices d_0 and d_1 (tag device), three points a second apart; d_0's s_0
// holds 10.5, 11.5, 12.5 and d_1's 20.25, 21.25, 22.25; s_1 holds 100*d+k
// for device d and row k.
func ownData(ctx context.Context, t *testing.T) *Target {
	t.Helper()
	opentsdbServer.Require(t)
	conn, err := Driver.Open(ctx, targets.Options{Database: "tsbench_own"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	s := &ts.Schema{Database: "tsbench_own", Groups: []string{"g_0"},
		Devices:   []ts.Device{{Index: 0, Name: "d_0"}, {Index: 1, Name: "d_1"}},
		Sensors:   []ts.Sensor{{Name: "s_0", Type: ts.Double}, {Name: "s_1", Type: ts.Int64}},
		StartTime: ownStart.UnixMilli(), PointStep: 1000}
	if err := conn.Setup(ctx, s, true); err != nil {
		t.Fatal(err)
	}
	for d := range s.Devices {
		b := &ts.Batch{Device: &s.Devices[d], Decimals: -1, Columns: []ts.Column{{Type: ts.Double}, {Type: ts.Int64}}}
		for k := int64(0); k < 3; k++ {
			b.Times = append(b.Times, ownStart.UnixMilli()+k*1000)
			b.Rows = append(b.Rows, k)
			b.Columns[0].Doubles = append(b.Columns[0].Doubles, float64(10*(d+1))+float64(k)+0.5/float64(d+1))
			b.Columns[1].Int64s = append(b.Columns[1].Int64s, int64(100*d)+k)
		}
		if err := conn.Write(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	return conn.(*Target)
}

// hostile are parameter values that would change a statement's structure
// if they were spliced into its text unquoted or badly quoted; * and |
// are OpenTSDB's own: every tag value, and an alternation.
var hostile = []string{`x' OR '1'='1`, `a"b`, `}{`, `;DROP TABLE x`, `trailing\`, "new\nline", `\' OR 1=1 -- `,
	`"}}],"queries":[{"aggregator":"none","metric":"tsbench_own.s_0"}]}`, "*", "d_0|d_1", "d_*"}

// render writes each value into text at its {} as tsbench's templates do
// where a language binds nothing (Language.Literal), and a name at its
// {ident} (Language.Ident).
func render(text string, vals ...any) string {
	for _, v := range vals {
		if name, ok := v.(ident); ok {
			text = strings.Replace(text, "{ident}", language.Ident(string(name)), 1)
			continue
		}
		text = strings.Replace(text, "{}", language.Literal(v), 1)
	}
	return text
}

type ident string

func runOwn(ctx context.Context, t *testing.T, tg *Target, text string) targets.Rows {
	t.Helper()
	rows, err := tg.RunStatement(ctx, &targets.Statement{Text: text})
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return rows
}

// The points of one metric and device in a window come back as rows
// [t, value], t in milliseconds whether the body asks for milliseconds or
// not.
func TestRunStatement(t *testing.T) {
	ctx := context.Background()
	tg := ownData(ctx, t)
	if Driver.Language != language || language.Name != "opentsdb" || language.Bind != "" {
		t.Fatalf("Driver.Language = %+v", Driver.Language)
	}
	t0 := ownStart.UnixMilli()
	for _, ms := range []string{`"msResolution": true,`, ""} {
		query := `{"start": {}, "end": {}, ` + ms + `
			"queries": [{"aggregator": "none", "metric": {ident}, "tags": {"device": {}}}]}`
		got := runOwn(ctx, t, tg, render(query, language.Time(ownStart.Add(time.Second)), language.Time(ownStart.Add(time.Hour)),
			ident("tsbench_own.s_0"), "d_1"))
		want := targets.Rows{Columns: []string{"t", "value"}, Count: 2,
			Values: [][]any{{t0 + 1000, 21.25}, {t0 + 2000, 22.25}}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %#v, want %#v", ms, got, want)
		}
	}
	// Integers come back as int64; a sum over both devices per timestamp.
	got := runOwn(ctx, t, tg, render(`{"start": {}, "end": {}, "msResolution": true,
		"queries": [{"aggregator": "sum", "metric": {ident}}]}`, t0, t0+5000, ident("tsbench_own.s_1")))
	want := targets.Rows{Columns: []string{"t", "value"}, Count: 3,
		Values: [][]any{{t0, int64(100)}, {t0 + 1000, int64(102)}, {t0 + 2000, int64(104)}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sum: got %#v, want %#v", got, want)
	}
	// A body the server refuses is an error.
	if _, err := tg.RunStatement(ctx, &targets.Statement{Text: `{"queries": [{"aggregator": "none", "metric": "tsbench_own.s_0"}]}`}); err == nil {
		t.Error("a query without a start was accepted")
	}
}

// A hostile text written by Literal, as a metric name or a tag filter
// value, is one JSON string naming nothing: the query succeeds with no
// rows (* and | do not widen the filter), and the data is all still there.
func TestRunStatementHostile(t *testing.T) {
	ctx := context.Background()
	tg := ownData(ctx, t)
	t0 := ownStart.UnixMilli()
	const byName = `{"start": {}, "end": {}, "queries": [{"aggregator": "none", "metric": {}}]}`
	const byTag = `{"start": {}, "end": {}, "queries": [{"aggregator": "none", "metric": "tsbench_own.s_0", "tags": {"device": {}}}]}`
	const byFilter = `{"start": {}, "end": {}, "queries": [{"aggregator": "none", "metric": "tsbench_own.s_0",
		"filters": [{"type": "literal_or", "tagk": "device", "filter": {}, "groupBy": true}]}]}`
	for _, h := range hostile {
		for _, q := range []string{byName, byTag, byFilter} {
			if got := runOwn(ctx, t, tg, render(q, t0, t0+5000, h)); got.Count != 0 {
				t.Errorf("%s: got %v, want no rows", render(q, t0, t0+5000, h), got.Values)
			}
		}
	}
	got := runOwn(ctx, t, tg, render(`{"start": {}, "end": {}, "queries": [{"aggregator": "none", "metric": "tsbench_own.s_0", "tags": {"device": "*"}},
		{"aggregator": "none", "metric": "tsbench_own.s_1", "tags": {"device": "*"}}]}`, t0, t0+5000))
	if got.Count != 12 {
		t.Errorf("points after the hostile statements: %d, want 12", got.Count)
	}
}

// Literal and Ident write JSON: strings escaped and quoted, with * and |
// as spaces; numbers as they are.
func TestLiteralIdent(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{int64(-42), "-42"},
		{1.5, "1.5"},
		{math.NaN(), "null"},
		{math.Inf(-1), "null"},
		{"d_0", `"d_0"`},
		{`a"b`, `"a\"b"`},
		{`trailing\`, `"trailing\\"`},
		{"new\nline", `"new\nline"`},
		{"*", `" "`},
		{"d_0|d_1", `"d_0 d_1"`},
		{"", `""`},
	} {
		if got := language.Literal(c.in); got != c.want {
			t.Errorf("Literal(%#v) = %s, want %s", c.in, got, c.want)
		}
	}
	if got := language.Ident("tsbench.s_0"); got != `"tsbench.s_0"` {
		t.Errorf("Ident = %s", got)
	}
}
