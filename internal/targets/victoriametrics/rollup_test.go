package victoriametrics

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// planBuckets: whole buckets on one grid evaluated at each bucket's end -
// 1 ms with the bucket as window; buckets clipped by End or START_TIME on
// their own, with the clipped width as window.
func TestPlanBuckets(t *testing.T) {
	q := func(start, end, bucket int64) *ts.Query {
		return &ts.Query{Kind: ts.GroupBy, Start: start, End: end, Bucket: bucket}
	}
	for _, c := range []struct {
		name      string
		q         *ts.Query
		startTime int64
		want      []evalGrid
		ok        bool
	}{
		{"aligned", q(1000, 4000, 1000), 0, []evalGrid{{1999, 3999, 1000, 1000}}, true},
		{"end clips the last", q(1000, 4500, 1000), 0,
			[]evalGrid{{1999, 3999, 1000, 1000}, {4499, 4499, 1000, 500}}, true},
		{"start time clips the first", q(1000, 4000, 1000), 1300,
			[]evalGrid{{1999, 1999, 1000, 700}, {2999, 3999, 1000, 1000}}, true},
		{"both ends clipped", q(1000, 4500, 1000), 1300,
			[]evalGrid{{1999, 1999, 1000, 700}, {2999, 3999, 1000, 1000}, {4499, 4499, 1000, 500}}, true},
		{"start time on a bucket's start", q(1000, 4000, 1000), 2000, []evalGrid{{2999, 3999, 1000, 1000}}, true},
		{"one bucket, clipped both sides", q(1000, 1800, 1000), 1300, []evalGrid{{1799, 1799, 1000, 500}}, true},
		{"one whole bucket", q(1000, 2000, 1000), 0, []evalGrid{{1999, 1999, 1000, 1000}}, true},
		{"two clipped, none whole", q(1000, 2500, 1000), 1300,
			[]evalGrid{{1999, 1999, 1000, 700}, {2499, 2499, 1000, 500}}, true},
		{"ends before start time", q(1000, 4000, 1000), 4000, nil, true},
		{"split at maxBucketsPerRequest", q(0, 25_000, 1), 0,
			[]evalGrid{{0, 9999, 1, 1}, {10_000, 19_999, 1, 1}, {20_000, 24_999, 1, 1}}, true},
		{"too many buckets", q(0, maxServerBuckets+1, 1), 0, nil, false},
		{"conformance window", q(1_000_003_200, 1_000_090_000, 7000), 1_000_000_000,
			[]evalGrid{{1_000_010_199, 1_000_087_199, 7000, 7000}, {1_000_089_999, 1_000_089_999, 7000, 2800}}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := planBuckets(c.q, c.startTime)
			if ok != c.ok || !reflect.DeepEqual(got, c.want) {
				t.Fatalf("planBuckets = %v, %v; want %v, %v", got, ok, c.want, c.ok)
			}
		})
	}
}

// The MetricsQL of each aggregate, per series and across devices.
func TestGroupByExpr(t *testing.T) {
	const sel = `{db="test",gen="1",__name__!="tsbench_generation",__name__=~"s_0|s_1",device=~"d_0|d_1"}`
	for _, c := range []struct {
		agg    ts.Aggregate
		across bool
		want   string
	}{
		{ts.Count, false, `count_over_time(` + sel + `[60000ms]) keep_metric_names`},
		{ts.Sum, false, `sum_over_time(` + sel + `[60000ms]) keep_metric_names`},
		{ts.Avg, false, `avg_over_time(` + sel + `[60000ms]) keep_metric_names`},
		{ts.Min, false, `min_over_time(` + sel + `[60000ms]) keep_metric_names`},
		{ts.Max, false, `max_over_time(` + sel + `[60000ms]) keep_metric_names`},
		{ts.Count, true, `sum(count_over_time(` + sel + `[60000ms]) keep_metric_names) by (__name__)`},
		{ts.Sum, true, `sum(sum_over_time(` + sel + `[60000ms]) keep_metric_names) by (__name__)`},
		{ts.Min, true, `min(min_over_time(` + sel + `[60000ms]) keep_metric_names) by (__name__)`},
		{ts.Max, true, `max(max_over_time(` + sel + `[60000ms]) keep_metric_names) by (__name__)`},
		{ts.Avg, true, `label_set(sum(sum_over_time(` + sel + `[60000ms]) keep_metric_names) by (__name__), "tsbench_part", "sum")` +
			` or label_set(sum(count_over_time(` + sel + `[60000ms]) keep_metric_names) by (__name__), "tsbench_part", "count")`},
	} {
		t.Run(fmt.Sprintf("%s_across_%v", c.agg, c.across), func(t *testing.T) {
			got, err := groupByExpr(&ts.Query{Kind: ts.GroupBy, Agg: c.agg, Across: c.across, Bucket: 60_000}, sel, 60_000)
			if err != nil || got != c.want {
				t.Fatalf("groupByExpr =\n%s (%v)\nwant\n%s", got, err, c.want)
			}
		})
	}
}

// decode takes the values on the grid and refuses, as unusable, an
// error status and a value off the grid.
func TestDecodeRange(t *testing.T) {
	g := evalGrid{From: 1682899219999, To: 1682899259999, Step: 20_000, Window: 20_000}
	ok := `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"s_0","tsbench_part":"sum"},` +
		`"values":[[1682899219.999,"103"],[1682899259.999,"5.5"]]}]}}`
	d := new(rangeDecoder)
	got, err := d.decode([]byte(ok), "q", g)
	want := []rangeSeries{{name: "s_0", part: "sum", times: []int64{1682899219999, 1682899259999}, values: []float64{103, 5.5}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("decode = %+v, %v; want %+v", got, err, want)
	}
	for _, bad := range []string{
		`{"status":"error","errorType":"422","error":"duplicate time series"}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1682899220,"1"]]}]}}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1682899279.999,"1"]]}]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[]}}`,
		`not json`,
	} {
		if _, err := d.decode([]byte(bad), "q", g); err == nil {
			t.Errorf("decode(%s) = nil error", bad)
		} else if _, ok := err.(*unusableError); !ok {
			t.Errorf("decode(%s) = %v, not an unusableError", bad, err)
		}
	}
	// The decoder is reused: a second answer replaces the first's series.
	got, err = d.decode([]byte(`{"status":"success","data":{"resultType":"matrix","result":[]}}`), "q", g)
	if err != nil || len(got) != 0 {
		t.Fatalf("decode of no series = %+v, %v", got, err)
	}
}

// decode reads query_range's [[seconds,"value"],...], with or without
// spaces, and refuses anything else.
func TestDecodePoints(t *testing.T) {
	g := evalGrid{From: 0, To: 1682899219999, Step: 1, Window: 1}
	doc := func(values string) []byte {
		return []byte(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"s_0"},"values":` + values + `}]}}`)
	}
	d := new(rangeDecoder)
	for _, c := range []struct {
		in     string
		times  []int64
		values []float64
	}{
		{`[]`, nil, nil},
		{`[[1682899219.999,"103"]]`, []int64{1682899219999}, []float64{103}},
		{` [ [1682899210, "-2.5e+21" ] , [1682899219.999,"+Inf"] ] `, []int64{1682899210000, 1682899219999}, []float64{-2.5e21, math.Inf(1)}},
		{`[[1682899210.5,"0.1"],[1682899210.501,"58.123456789012345"]]`, []int64{1682899210500, 1682899210501}, []float64{0.1, 58.123456789012345}},
	} {
		got, err := d.decode(doc(c.in), "q", g)
		same := func(a, b any, n int) bool { return n == 0 || reflect.DeepEqual(a, b) } // nil or empty alike
		if err != nil || len(got) != 1 || len(got[0].times) != len(c.times) || len(got[0].values) != len(c.values) ||
			!same(got[0].times, c.times, len(c.times)) || !same(got[0].values, c.values, len(c.values)) {
			t.Errorf("decode(%s) = %+v, %v; want %v, %v", c.in, got, err, c.times, c.values)
		}
	}
	for _, bad := range []string{``, `{}`, `[[1,2]]`, `[[1,"x"]]`, `[["1","2"]]`, `[[1,"2"]`, `[[1,"2"],]`, `[[1,"2"]] x`, `[[1,"2",3]]`, `[1]`} {
		if _, err := d.decode(doc(bad), "q", g); err == nil {
			t.Errorf("decode(%s) = nil error", bad)
		}
	}
	missing := `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"s_0"}}]}}`
	if _, err := d.decode([]byte(missing), "q", g); err == nil {
		t.Errorf("decode(%s) = nil error", missing)
	}
}

// BenchmarkDecodeRange: 3,600 points of 5 series, as single-groupby-5-1-12
// answers (12 h of 1-minute buckets), decoded by one reused decoder as a
// run's queries are; the values as TSBS's cpu data has them (integers) and
// with 15-17 digits.
func BenchmarkDecodeRange(b *testing.B) {
	answer := func(value func(k int) string) []byte {
		var sb strings.Builder
		sb.WriteString(`{"status":"success","data":{"resultType":"matrix","result":[`)
		for s := 0; s < 5; s++ {
			if s > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `{"metric":{"__name__":"usage_%d","db":"test","device":"host_3","hostname":"host_3"},"values":[`, s)
			for k := 0; k < 720; k++ {
				if k > 0 {
					sb.WriteByte(',')
				}
				fmt.Fprintf(&sb, `[%.3f,"%s"]`, float64(1451610059999+int64(k)*60000)/1000, value(k))
			}
			sb.WriteString(`]}`)
		}
		sb.WriteString(`]}}`)
		return []byte(sb.String())
	}
	g := evalGrid{From: 1451610059999, To: 1451610059999 + 719*60000, Step: 60000, Window: 60000}
	for _, c := range []struct {
		name  string
		value func(k int) string
	}{
		{"integers", func(k int) string { return strconv.Itoa(k % 101) }},
		{"decimals", func(k int) string { return strconv.FormatFloat(12.5+float64(k%97)+float64(k)/7, 'g', -1, 64) }},
	} {
		data := answer(c.value)
		d := new(rangeDecoder)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := d.decode(data, "q", g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// bucketSet says whether a bucket was seen, dense or sparse alike.
func TestBucketSet(t *testing.T) {
	for _, n := range []int64{10, 1 << 20} {
		s := newBucketSet(n)
		for _, c := range []struct {
			i    int64
			want bool
		}{{0, true}, {n - 1, true}, {0, false}, {5, true}, {n - 1, false}, {5, false}} {
			if got := s.add(c.i); got != c.want {
				t.Errorf("n=%d: add(%d) = %v, want %v", n, c.i, got, c.want)
			}
		}
	}
}

// decode skips the members it does not read, whatever their kind, takes
// the members in any order and decodes escaped label values.
func TestDecodeShape(t *testing.T) {
	g := evalGrid{From: 1000, To: 3000, Step: 1000, Window: 1000}
	in := `{"isPartial":false,"data":{"result":[{"values":[[1,"1.5"],[3,"-2"]],"metric":{"x":"a\"b","__name__":"s\u005f0","n":[1,{"k":null}]}}],` +
		`"resultType":"matrix"},"stats":{"seriesFetched":"5","executionTimeMsec":2.5e0,"ok":true},"status":"success"}` + "\n"
	got, err := new(rangeDecoder).decode([]byte(in), "q", g)
	want := []rangeSeries{{name: "s_0", times: []int64{1000, 3000}, values: []float64{1.5, -2}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("decode = %+v, %v; want %+v", got, err, want)
	}
	for _, bad := range []string{
		`{"status":"success","data":{"resultType":"matrix","result":[]}} {}`,
		`{"status":"success","data":{"resultType":"matrix","result":[]},"x":tru}`,
		`{"status":"success","data":{"resultType":"matrix","result":[]},"x":1-}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"values":[[1,"1"]]}]}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"values":[[1,"1"]]},]}}`,
	} {
		if _, err := new(rangeDecoder).decode([]byte(bad), "q", g); err == nil {
			t.Errorf("decode(%s) = nil error", bad)
		}
	}
}

// millis reads query_range's times exactly, and other forms rounded.
func TestMillis(t *testing.T) {
	for in, want := range map[string]int64{
		"1451610059.999": 1451610059999, "1451610060": 1451610060000, "1451610060.5": 1451610060500,
		"0.001": 1, "-1.25": -1250, "1.4516100599999e9": 1451610060000, "1451610059.9996": 1451610060000,
	} {
		if got, err := millis([]byte(in)); err != nil || got != want {
			t.Errorf("millis(%s) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "-", "x", "1.2.3"} {
		if got, err := millis([]byte(bad)); err == nil {
			t.Errorf("millis(%q) = %d, nil error", bad, got)
		}
	}
}
