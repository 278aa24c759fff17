package victoriametrics

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// hostile are parameter values that would change a query's structure if
// written into it unescaped.
var hostile = []string{`x' OR '1'='1`, `a"b`, `}{`, `;DROP`, `ends with \`, "a\nb", `"}[5s]) or vector(1) #`, `\"`}

// Literal and Ident write every value as one PromQL token (or one
// selector).
func TestLanguageQuoting(t *testing.T) {
	targettest.Language{Name: "promql", Bind: "", Literals: targettest.Literals{
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
	}, Idents: targettest.Idents{
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
	}}.Check(t, Driver, language)
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
		// d_0: s_0 1.5 .. 5.5, s_1 0 .. 40; d_1: s_0 10.5 .. 14.5,
		// s_1 100 .. 140; a row each second from t0.
		conn := targettest.OpenOwn(ctx, t, Driver, targets.Options{Database: "tsbench_own", Port: srv.port},
			targettest.OwnSchema("tsbench_own", t0, ts.Double, ts.Int64), 5, targettest.OwnSeries(nil))
		if n, err := conn.Count(ctx, ts.CountRange{}); err != nil || n != 20 { // settles: every point searchable
			t.Fatalf("Count = %d, %v; want 20", n, err)
		}
		run := conn.(*Target)
		lit, id := language.Literal, language.Ident
		db := "db=" + lit("tsbench_own")
		sel := func(metric, dev string) string { return id(metric) + "{" + db + ",device=" + lit(dev) + "}" }
		at := time.UnixMilli(t0 + 4000)
		check := targettest.Checker(ctx, t, run)
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

		targettest.Refused(ctx, t, run, at, "sum(", "max_over_time(s_0[5s]", `s_0{device="d_0}`)
	})
}
