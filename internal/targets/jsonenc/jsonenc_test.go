package jsonenc

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

func TestAppendNumber(t *testing.T) {
	tests := []struct {
		col  ts.Column
		want string
		ok   bool
	}{
		{ts.Column{Type: ts.Boolean, Bools: []bool{true}}, "1", true},
		{ts.Column{Type: ts.Int32, Int32s: []int32{-7}}, "-7", true},
		{ts.Column{Type: ts.Int64, Int64s: []int64{1 << 60}}, "1152921504606846976", true},
		{ts.Column{Type: ts.Double, Doubles: []float64{2}}, "2.0", true},
		{ts.Column{Type: ts.Double, Doubles: []float64{1e21}}, "1000000000000000000000.0", true},
		{ts.Column{Type: ts.Double, Doubles: []float64{1e-5}}, "0.00001", true},
		{ts.Column{Type: ts.Float, Floats: []float32{0.1}}, "0.10000000149011612", true},
		{ts.Column{Type: ts.Text, Texts: []string{"x"}}, "", false},
	}
	for _, tt := range tests {
		got, ok, err := AppendNumber(nil, &tt.col, 0)
		if err != nil || ok != tt.ok || string(got) != tt.want {
			t.Errorf("%s: %q %v %v, want %q %v", tt.col.Type, got, ok, err, tt.want, tt.ok)
		}
		if ok && tt.col.Type == ts.Double {
			if back, _ := strconv.ParseFloat(string(got), 64); back != tt.col.Doubles[0] {
				t.Errorf("%s reads back as %v", got, back)
			}
		}
	}
	if _, err := AppendFloat(nil, math.NaN()); err == nil {
		t.Error("NaN accepted")
	}
	s := "a\"b\\c\n\x01é"
	var back string
	if err := json.Unmarshal(AppendString(nil, s), &back); err != nil || back != s {
		t.Errorf("AppendString round trip: %q %v", back, err)
	}
}
