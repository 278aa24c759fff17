package promql

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
)

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
		got, err := DecodeInstant([]byte(c.answer))
		if err != nil {
			t.Fatalf("%s: %v", c.answer, err)
		}
		if !reflect.DeepEqual(got.Columns, c.cols) || got.Count != int64(len(c.want)) || !targettest.SameValues(got.Values, c.want) {
			t.Errorf("%s:\n got %v %v (count %d)\nwant %v %v", c.answer, got.Columns, got.Values, got.Count, c.cols, c.want)
		}
	}
	if _, err := DecodeInstant([]byte(`{"status":"error","errorType":"bad_data","error":"unparsable"}`)); err == nil ||
		!strings.Contains(err.Error(), "unparsable") {
		t.Errorf("status error: error %v", err)
	}
}

// PromQL's keywords are written as selectors, a dialect's only where it
// adds them.
func TestIdentKeywords(t *testing.T) {
	base, dialect := NewLanguage(EnginePrometheus), NewLanguage(EngineMetricsQL, "median")
	for _, c := range []struct{ name, base, dialect string }{
		{"s_0", "s_0", "s_0"},
		{"Sum", `{__name__="Sum"}`, `{__name__="Sum"}`},
		{"median", "median", `{__name__="median"}`},
		{"a.b", `{__name__="a.b"}`, `{__name__="a.b"}`},
	} {
		if got := base.Ident(c.name); got != c.base {
			t.Errorf("Ident(%q) = %s, want %s", c.name, got, c.base)
		}
		if got := dialect.Ident(c.name); got != c.dialect {
			t.Errorf("dialect Ident(%q) = %s, want %s", c.name, got, c.dialect)
		}
	}
}
