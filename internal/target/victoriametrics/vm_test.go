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

func TestSecondsKeepMilliseconds(t *testing.T) {
	for ms, want := range map[int64]string{1640966400123: "1640966400.123", 5: "0.005", 0: "0.000"} {
		if got := seconds(ms); got != want {
			t.Errorf("seconds(%d) = %s, want %s", ms, got, want)
		}
	}
}
