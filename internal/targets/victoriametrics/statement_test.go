package victoriametrics

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// hostile are parameter values that would change a query's structure if
// written into it unescaped.
var hostile = []string{`x' OR '1'='1`, `a"b`, `}{`, `;DROP`, `ends with \`, "a\nb", `"}[5s]) or vector(1) #`, `\"`}

// Literal and Ident write every value as one PromQL token (or one
// selector).
func TestLanguageQuoting(t *testing.T) {
	lit := []struct {
		v    any
		want string
	}{
		{"d_0", `"d_0"`},
		{`x' OR '1'='1`, `"x' OR '1'='1"`},
		{`a"b`, `"a\"b"`},
		{`}{`, `"}{"`},
		{`;DROP`, `";DROP"`},
		{`ends with \`, `"ends with \\"`},
		{"a\nb", `"a\nb"`},
		{"", `""`},
		{int64(-42), `-42`},
		{1.5, `1.5`},
		{1e21, `1000000000000000000000`},
		{math.NaN(), `NaN`},
		{math.Inf(1), `Inf`},
		{math.Inf(-1), `-Inf`},
		{language.Time(time.UnixMilli(1700000000123)), `1700000000.123`},
		{language.Time(time.UnixMilli(1700000000000)), `1700000000`},
	}
	for _, c := range lit {
		if got := language.Literal(c.v); got != c.want {
			t.Errorf("Literal(%#v) = %s, want %s", c.v, got, c.want)
		}
	}
	ids := []struct{ name, want string }{
		{"s_0", `s_0`},
		{"node:cpu_seconds:rate5m", `node:cpu_seconds:rate5m`},
		{"sum", `{__name__="sum"}`},
		{"Offset", `{__name__="Offset"}`},
		{"0abc", `{__name__="0abc"}`},
		{"a.b", `{__name__="a.b"}`},
		{`a"b`, `{__name__="a\"b"}`},
		{`}{`, `{__name__="}{"}`},
		{"a\nb", `{__name__="a\nb"}`},
		{"", `{__name__=""}`},
	}
	for _, c := range ids {
		if got := language.Ident(c.name); got != c.want {
			t.Errorf("Ident(%q) = %s, want %s", c.name, got, c.want)
		}
	}
	if language.Name != "promql" || language.Bind != "" || Driver.Language != language {
		t.Errorf("language %q, bind %q; the driver's is %p, want %p", language.Name, language.Bind, Driver.Language, language)
	}
}

// The answers of each result type, read from the server's JSON.
func TestDecodeInstant(t *testing.T) {
	cases := []struct {
		answer string
		cols   []string
		want   [][]any
	}{
		{`{"status":"success","data":{"resultType":"vector","result":[{"metric":{"a":"1"},"value":[1700000000.5,"2"]},{"metric":{},"value":[1700000000.5,"NaN"]}]}}`,
			[]string{"value"}, [][]any{{int64(2)}, {math.NaN()}}},
		{`{"status":"success","data":{"resultType":"scalar","result":[1700000000,"0.25"]}}`, []string{"value"}, [][]any{{0.25}}},
		{`{"status":"success","data":{"resultType":"string","result":[1700000000,"12"]}}`, []string{"value"}, [][]any{{"12"}}},
		{`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1700000000.001,"1"],[1700000000.002,"1.5"]]},{"metric":{},"values":[[1700000000.003,"-Inf"]]}]}}`,
			[]string{"time", "value"}, [][]any{{int64(1700000000001), int64(1)}, {int64(1700000000002), 1.5}, {int64(1700000000003), math.Inf(-1)}}},
		{`{"status":"success","data":{"resultType":"vector","result":[]}}`, []string{"value"}, nil},
	}
	for _, c := range cases {
		got, err := decodeInstant([]byte(c.answer))
		if err != nil {
			t.Fatalf("%s: %v", c.answer, err)
		}
		if !reflect.DeepEqual(got.Columns, c.cols) || got.Count != int64(len(c.want)) || !sameRows(got.Values, c.want) {
			t.Errorf("%s:\n got %v %v (count %d)\nwant %v %v", c.answer, got.Columns, got.Values, got.Count, c.cols, c.want)
		}
	}
	if _, err := decodeInstant([]byte(`{"status":"error","errorType":"bad_data","error":"unparsable"}`)); err == nil ||
		!strings.Contains(err.Error(), "unparsable") {
		t.Errorf("status error: error %v", err)
	}
}

// sameRows is reflect.DeepEqual with NaN equal to NaN.
func sameRows(got, want [][]any) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if len(got[i]) != len(want[i]) {
			return false
		}
		for j := range got[i] {
			g, gf := got[i][j].(float64)
			w, wf := want[i][j].(float64)
			if gf && wf && math.IsNaN(g) && math.IsNaN(w) {
				continue
			}
			if !reflect.DeepEqual(got[i][j], want[i][j]) {
				return false
			}
		}
	}
	return true
}

// The user's own PromQL queries against both releases of scripts/services:
// the answers of queries of known result (a rollup of one series, a sorted
// vector, a scalar, a range selector's samples, an @ at a time parameter);
// hostile values written by Literal as label values and by Ident as
// metric names select nothing, alone or two in a query, and leave the data
// as it was; a bad query is an error.
func TestRunStatement(t *testing.T) {
	eachServer(t, func(t *testing.T, srv release) {
		t0 := time.Date(2023, 5, 1, 12, 0, 0, 0, time.UTC).UnixMilli()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		s := &ts.Schema{Database: "tsbench_own", Groups: []string{"g_0"},
			Devices:   []ts.Device{{Index: 0, Name: "d_0"}, {Index: 1, Name: "d_1"}},
			Sensors:   []ts.Sensor{{Name: "s_0", Type: ts.Double}, {Name: "s_1", Type: ts.Int64}},
			StartTime: t0, PointStep: 1000}
		conn, err := Driver.Open(ctx, targets.Options{Database: "tsbench_own", Port: srv.port})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if err := conn.Setup(ctx, s, true); err != nil {
			t.Fatal(err)
		}
		// d_0: s_0 1.5 .. 5.5, s_1 0 .. 40; d_1: s_0 10.5 .. 14.5,
		// s_1 100 .. 140; a row each second from t0.
		for dev := range s.Devices {
			b := &ts.Batch{Device: &s.Devices[dev], Decimals: -1, Columns: []ts.Column{{Type: ts.Double}, {Type: ts.Int64}}}
			for k := int64(0); k < 5; k++ {
				b.Times = append(b.Times, t0+k*1000)
				b.Columns[0].Doubles = append(b.Columns[0].Doubles, float64(dev*9)+1.5+float64(k))
				b.Columns[1].Int64s = append(b.Columns[1].Int64s, int64(dev*100)+k*10)
			}
			if err := conn.Write(ctx, b); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := conn.Count(ctx, ts.CountRange{}); err != nil || n != 20 { // settles: every point searchable
			t.Fatalf("Count = %d, %v; want 20", n, err)
		}
		run := conn.(*Target)
		lit, id := language.Literal, language.Ident
		db := "db=" + lit("tsbench_own")
		sel := func(metric, dev string) string { return id(metric) + "{" + db + ",device=" + lit(dev) + "}" }
		at := time.UnixMilli(t0 + 4000)
		check := func(text string, at time.Time, wantCols []string, want [][]any) {
			t.Helper()
			got, err := run.RunStatement(ctx, &targets.Statement{Text: text, At: at})
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			if got.Count != int64(len(got.Values)) || !sameRows(got.Values, want) ||
				wantCols != nil && !reflect.DeepEqual(got.Columns, wantCols) {
				t.Fatalf("%s:\n got %v %v (count %d)\nwant %v %v", text, got.Columns, got.Values, got.Count, wantCols, want)
			}
		}
		both := func() {
			t.Helper()
			check("sort(max_over_time(s_0{"+db+"}[5s]))", at, []string{"value"}, [][]any{{5.5}, {14.5}})
		}

		check("max_over_time("+sel("s_0", "d_0")+"[5s])", at, []string{"value"}, [][]any{{5.5}})
		check("sum_over_time("+sel("s_1", "d_1")+"[3s])", at, []string{"value"}, [][]any{{int64(390)}})
		both()
		check("scalar(max_over_time("+sel("s_0", "d_1")+"[5s]))", at, []string{"value"}, [][]any{{14.5}})
		// A range selector: its raw samples in (at - 3s, at].
		check(sel("s_0", "d_0")+"[3s]", at, []string{"time", "value"},
			[][]any{{t0 + 2000, 3.5}, {t0 + 3000, 4.5}, {t0 + 4000, 5.5}})
		// A time parameter after @, evaluated now.
		check("max_over_time("+sel("s_1", "d_0")+"[1s] @ "+lit(language.Time(time.UnixMilli(t0+2000)))+")", time.Time{},
			[]string{"value"}, [][]any{{int64(20)}})
		// The name as a literal: every name can be selected so.
		check("max_over_time({__name__="+lit("s_0")+","+db+",device="+lit("d_1")+"}[5s])", at, nil, [][]any{{14.5}})

		for _, h := range hostile {
			check("max_over_time("+sel("s_0", h)+"[5s])", at, nil, nil)
			check("max_over_time("+id(h)+"[5s])", at, nil, nil)
			check("max_over_time({__name__="+lit(h)+","+db+"}[5s])", at, nil, nil)
			for _, h2 := range hostile {
				check("max_over_time(s_0{"+db+",device="+lit(h)+",group="+lit(h2)+"}[5s])", at, nil, nil)
			}
		}
		both() // nothing changed

		for _, bad := range []string{"sum(", "max_over_time(s_0[5s]", `s_0{device="d_0}`} {
			if _, err := run.RunStatement(ctx, &targets.Statement{Text: bad, At: at}); err == nil {
				t.Errorf("%s: no error", bad)
			}
		}
	})
}
