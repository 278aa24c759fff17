package kairosdb

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// server is the KairosDB of scripts/services/kairosdb.sh, on its H2
// datastore.
var server = targettest.Server{Name: "kairosdb", Addr: "127.0.0.1:8080"}

// ownStart is the time of the own-query dataset's first row.
var ownStart = time.UnixMilli(1_700_000_000_000)

var ownTexts = [2][3]string{{"a0", "it's", `back\slash`}, {"b0", "b1", "b2"}}

// ownData sets up a small known dataset through the target's own Setup and
// Write: metrics tsbench_own.s_0 (doubles) and tsbench_own.s_1 (strings),
// devices d_0 and d_1 (tag device), three points a second apart; d_0's s_0
// holds 10.5, 11.5, 12.5 and d_1's 20.25, 21.25, 22.25; s_1 holds the
// texts of ownTexts.
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
	return conn.(*Target)
}

// hostile are parameter values that would change a statement's structure
// if they were spliced into its text unquoted or badly quoted.
var hostile = []string{`x' OR '1'='1`, `a"b`, `}{`, `;DROP TABLE x`, `trailing\`, "new\nline", `\' OR 1=1 -- `,
	`"]}],"metrics":[{"name":"tsbench_own.s_0"}]}`, "</script>"}

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

// The points of one metric and device in a window, and its string points,
// come back as rows [t, value].
func TestRunStatement(t *testing.T) {
	ctx := context.Background()
	tg := ownData(ctx, t)
	if Driver.Language != language || language.Name != "kairosdb" || language.Bind != "" {
		t.Fatalf("Driver.Language = %+v", Driver.Language)
	}
	const query = `{"start_absolute": {}, "end_absolute": {},
		"metrics": [{"name": {ident}, "tags": {"device": [{}]}}]}`
	t0 := ownStart.UnixMilli()
	got := runOwn(ctx, t, tg, render(query, language.Time(ownStart.Add(time.Second)), language.Time(ownStart.Add(time.Hour)),
		ident("tsbench_own.s_0"), "d_1"))
	want := targets.Rows{Columns: []string{"t", "value"}, Count: 2,
		Values: [][]any{{t0 + 1000, 21.25}, {t0 + 2000, 22.25}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	got = runOwn(ctx, t, tg, render(query, t0, t0+5000, ident("tsbench_own.s_1"), "d_0"))
	want = targets.Rows{Columns: []string{"t", "value"}, Count: 3,
		Values: [][]any{{t0, "a0"}, {t0 + 1000, "it's"}, {t0 + 2000, `back\slash`}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	// An aggregator's longs come back as int64.
	got = runOwn(ctx, t, tg, render(`{"start_absolute": {}, "end_absolute": {}, "metrics": [{"name": {ident},
		"aggregators": [{"name": "count", "sampling": {"value": 1, "unit": "hours"}, "align_start_time": true}]}]}`,
		t0, t0+5000, ident("tsbench_own.s_0")))
	if want := [][]any{{t0, int64(6)}}; !reflect.DeepEqual(got.Values, want) {
		t.Errorf("count: got %#v, want %#v", got.Values, want)
	}
	// A body the server refuses is an error.
	if _, err := tg.RunStatement(ctx, &targets.Statement{Text: `{"metrics": [{"name": "tsbench_own.s_0"}]}`}); err == nil {
		t.Error("a query without a start was accepted")
	}
}

// A hostile text written by Literal, as a metric name or a tag filter
// value, is one JSON string that matches nothing: the query succeeds with
// no rows. A tag filter with a single quote is refused before it is sent
// (the H2 datastore would paste it into SQL). The data is all still there.
func TestRunStatementHostile(t *testing.T) {
	ctx := context.Background()
	tg := ownData(ctx, t)
	t0 := ownStart.UnixMilli()
	const byName = `{"start_absolute": {}, "end_absolute": {}, "metrics": [{"name": {}}]}`
	const byTag = `{"start_absolute": {}, "end_absolute": {}, "metrics": [{"name": "tsbench_own.s_0", "tags": {"device": [{}]}}]}`
	for _, h := range hostile {
		if got := runOwn(ctx, t, tg, render(byName, t0, t0+5000, h)); got.Count != 0 {
			t.Errorf("metric %s: got %v, want no rows", language.Literal(h), got.Values)
		}
		text := render(byTag, t0, t0+5000, h)
		got, err := tg.RunStatement(ctx, &targets.Statement{Text: text})
		switch {
		case strings.Contains(h, "'"):
			if !errors.Is(err, targets.ErrUnsupported) || !strings.Contains(err.Error(), "H2") {
				t.Errorf("tag %s: error %v, want the H2 datastore's refusal", language.Literal(h), err)
			}
		case err != nil:
			t.Errorf("tag %s: %v", language.Literal(h), err)
		case got.Count != 0:
			t.Errorf("tag %s: got %v, want no rows", language.Literal(h), got.Values)
		}
	}
	got := runOwn(ctx, t, tg, render(`{"start_absolute": {}, "end_absolute": {}, "metrics": [{"name": "tsbench_own.s_0"}, {"name": "tsbench_own.s_1"}]}`,
		t0, t0+5000))
	if got.Count != 12 {
		t.Errorf("points after the hostile statements: %d, want 12", got.Count)
	}
}

// Literal and Ident write JSON: strings escaped and quoted, numbers as
// they are, and every text read back as itself.
func TestLiteralIdent(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{int64(-42), "-42"},
		{1.5, "1.5"},
		{math.NaN(), "null"},
		{math.Inf(1), "null"},
		{"plain", `"plain"`},
		{`a"b`, `"a\"b"`},
		{`trailing\`, `"trailing\\"`},
		{"new\nline", `"new\nline"`},
		{"<&>", `"<&>"`},
		{"", `""`},
	} {
		if got := language.Literal(c.in); got != c.want {
			t.Errorf("Literal(%#v) = %s, want %s", c.in, got, c.want)
		}
	}
	if got := language.Ident(`tsbench."s_0"`); got != `"tsbench.\"s_0\""` {
		t.Errorf("Ident = %s", got)
	}
	for _, h := range hostile {
		v, err := jsonValue([]byte(language.Literal(h)))
		if err != nil || v != h {
			t.Errorf("%q reads back as %q (%v)", h, v, err)
		}
	}
}
