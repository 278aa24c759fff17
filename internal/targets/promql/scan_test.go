package promql

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// Decode takes the values on the grid and refuses, as unusable, an
// error status and a value off the grid.
func TestDecodeRange(t *testing.T) {
	g := Grid{From: 1682899219999, To: 1682899259999, Step: 20_000, Window: 20_000}
	ok := `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"s_0","tsbench_part":"sum"},` +
		`"values":[[1682899219.999,"103"],[1682899259.999,"5.5"]]}]}}`
	d := new(Decoder)
	got, err := d.Decode([]byte(ok), "q", &g, "__name__", PartLabel)
	want := []Series{{Labels: []string{"s_0", "sum"}, Times: []int64{1682899219999, 1682899259999}, Values: []float64{103, 5.5}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Decode = %+v, %v; want %+v", got, err, want)
	}
	for _, bad := range []string{
		`{"status":"error","errorType":"422","error":"duplicate time series"}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1682899220,"1"]]}]}}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1682899279.999,"1"]]}]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[]}}`,
		`not json`,
	} {
		if _, err := d.Decode([]byte(bad), "q", &g); err == nil {
			t.Errorf("Decode(%s) = nil error", bad)
		} else if !errors.As(err, new(*UnusableError)) {
			t.Errorf("Decode(%s) = %v, not an UnusableError", bad, err)
		}
	}
	// The decoder is reused: a second answer replaces the first's series.
	got, err = d.Decode([]byte(`{"status":"success","data":{"resultType":"matrix","result":[]}}`), "q", &g)
	if err != nil || len(got) != 0 {
		t.Fatalf("Decode of no series = %+v, %v", got, err)
	}
}

// Decode reads query_range's [[seconds,"value"],...], with or without
// spaces, and refuses anything else.
func TestDecodePoints(t *testing.T) {
	g := Grid{From: 0, To: 1682899219999, Step: 1, Window: 1}
	doc := func(values string) []byte {
		return []byte(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"s_0"},"values":` + values + `}]}}`)
	}
	d := new(Decoder)
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
		got, err := d.Decode(doc(c.in), "q", &g)
		same := func(a, b any, n int) bool { return n == 0 || reflect.DeepEqual(a, b) } // nil or empty alike
		if err != nil || len(got) != 1 || len(got[0].Times) != len(c.times) || len(got[0].Values) != len(c.values) ||
			!same(got[0].Times, c.times, len(c.times)) || !same(got[0].Values, c.values, len(c.values)) {
			t.Errorf("Decode(%s) = %+v, %v; want %v, %v", c.in, got, err, c.times, c.values)
		}
	}
	for _, bad := range []string{``, `{}`, `[[1,2]]`, `[[1,"x"]]`, `[["1","2"]]`, `[[1,"2"]`, `[[1,"2"],]`, `[[1,"2"]] x`, `[[1,"2",3]]`, `[1]`} {
		if _, err := d.Decode(doc(bad), "q", &g); err == nil {
			t.Errorf("Decode(%s) = nil error", bad)
		}
	}
	missing := `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"s_0"}}]}}`
	if _, err := d.Decode([]byte(missing), "q", &g); err == nil {
		t.Errorf("Decode(%s) = nil error", missing)
	}
}

// BenchmarkDecodeMatrix: 3,600 points of 5 series, as single-groupby-5-1-12
// answers (12 h of 1-minute buckets), decoded by one reused decoder as a
// run's queries are; the values as TSBS's cpu data has them (integers) and
// with 15-17 digits.
func BenchmarkDecodeMatrix(b *testing.B) {
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
	g := Grid{From: 1451610059999, To: 1451610059999 + 719*60000, Step: 60000, Window: 60000}
	for _, c := range []struct {
		name  string
		value func(k int) string
	}{
		{"integers", func(k int) string { return strconv.Itoa(k % 101) }},
		{"decimals", func(k int) string { return strconv.FormatFloat(12.5+float64(k%97)+float64(k)/7, 'g', -1, 64) }},
	} {
		data := answer(c.value)
		d := new(Decoder)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := d.Decode(data, "q", &g, "__name__", PartLabel); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BucketSet says whether a bucket was seen, dense or sparse alike.
func TestBucketSet(t *testing.T) {
	for _, n := range []int64{10, 1 << 20} {
		s := NewBucketSet(n)
		for _, c := range []struct {
			i    int64
			want bool
		}{{0, true}, {n - 1, true}, {0, false}, {5, true}, {n - 1, false}, {5, false}} {
			if got := s.Add(c.i); got != c.want {
				t.Errorf("n=%d: Add(%d) = %v, want %v", n, c.i, got, c.want)
			}
		}
	}
}

// Decode skips the members it does not read, whatever their kind, takes
// the members in any order and decodes escaped label values.
func TestDecodeShape(t *testing.T) {
	g := Grid{From: 1000, To: 3000, Step: 1000, Window: 1000}
	in := `{"isPartial":false,"data":{"result":[{"values":[[1,"1.5"],[3,"-2"]],"metric":{"x":"a\"b","__name__":"s\u005f0","n":[1,{"k":null}]}}],` +
		`"resultType":"matrix"},"stats":{"seriesFetched":"5","executionTimeMsec":2.5e0,"ok":true},"status":"success"}` + "\n"
	got, err := new(Decoder).Decode([]byte(in), "q", &g, "__name__")
	want := []Series{{Labels: []string{"s_0"}, Times: []int64{1000, 3000}, Values: []float64{1.5, -2}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Decode = %+v, %v; want %+v", got, err, want)
	}
	for _, bad := range []string{
		`{"status":"success","data":{"resultType":"matrix","result":[]}} {}`,
		`{"status":"success","data":{"resultType":"matrix","result":[]},"x":tru}`,
		`{"status":"success","data":{"resultType":"matrix","result":[]},"x":1-}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"values":[[1,"1"]]}]}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"values":[[1,"1"]]},]}}`,
	} {
		if _, err := new(Decoder).Decode([]byte(bad), "q", &g); err == nil {
			t.Errorf("Decode(%s) = nil error", bad)
		}
	}
}

// Millis reads query_range's times exactly, and other forms rounded.
func TestMillis(t *testing.T) {
	for in, want := range map[string]int64{
		"1451610059.999": 1451610059999, "1451610060": 1451610060000, "1451610060.5": 1451610060500,
		"0.001": 1, "-1.25": -1250, "1.4516100599999e9": 1451610060000, "1451610059.9996": 1451610060000,
	} {
		if got, err := Millis([]byte(in)); err != nil || got != want {
			t.Errorf("Millis(%s) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "-", "x", "1.2.3"} {
		if got, err := Millis([]byte(bad)); err == nil {
			t.Errorf("Millis(%q) = %d, nil error", bad, got)
		}
	}
}
