package victoriametrics

import (
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

func TestAppendImport(t *testing.T) {
	sensors := []ts.Sensor{{Name: "s_0", Type: ts.Boolean}, {Name: "s_1", Type: ts.Double}}
	b := &ts.Batch{Times: []int64{1000, 2000}, Columns: []ts.Column{
		{Type: ts.Boolean, Bools: []bool{true, false}},
		{Type: ts.Double, Doubles: []float64{1.5, -2e21}},
	}}
	b.Decimals = 1 // right for 1.5, wrong for -2e21: the text is the same
	buf := appendImport(nil, `"db":"test","device":"d_0"`, sensors, b)
	want := `{"metric":{"__name__":"s_0","db":"test","device":"d_0"},"values":[1,0],"timestamps":[1000,2000]}
{"metric":{"__name__":"s_1","db":"test","device":"d_0"},"values":[1.5,-2e+21],"timestamps":[1000,2000]}
`
	if string(buf) != want {
		t.Fatalf("got\n%s\nwant\n%s", buf, want)
	}
}

// A sparse batch's lines carry each sensor's present samples with their own
// timestamps; a sensor without any has no line.
func TestAppendSparseImport(t *testing.T) {
	sensors := []ts.Sensor{{Name: "s_0", Type: ts.Int64}, {Name: "s_1", Type: ts.Double}, {Name: "s_2", Type: ts.Int32}}
	b := &ts.Batch{Decimals: 2, Times: []int64{1000, 2000, 3000}, Columns: []ts.Column{
		{Type: ts.Int64, Int64s: []int64{0, 5, 6}},
		{Type: ts.Double, Doubles: []float64{1.25, 0, 2.5}},
		{Type: ts.Int32, Int32s: []int32{0, 0, 0}},
	}}
	for _, c := range []struct{ col, row int }{{0, 0}, {1, 1}, {2, 0}, {2, 1}, {2, 2}} {
		b.MarkNull(c.col, c.row)
	}
	buf := appendImport(nil, `"device":"d_0"`, sensors, b)
	want := `{"metric":{"__name__":"s_0","device":"d_0"},"values":[5,6],"timestamps":[2000,3000]}
{"metric":{"__name__":"s_1","device":"d_0"},"values":[1.25,2.5],"timestamps":[1000,3000]}
`
	if string(buf) != want {
		t.Fatalf("got\n%s\nwant\n%s", buf, want)
	}
}
