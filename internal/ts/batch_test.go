package ts

import "testing"

// TestSetNull checks that SetNull empties exactly the one cell in every type:
// the cell reads null and zero (Fixed too), its neighbours keep their values,
// and emptying it again counts it once.
func TestSetNull(t *testing.T) {
	cases := []struct {
		name string
		col  Column
	}{
		{"boolean", Column{Type: Boolean, Bools: []bool{true, true}}},
		{"int32", Column{Type: Int32, Int32s: []int32{7, 8}}},
		{"int64", Column{Type: Int64, Int64s: []int64{7, 8}}},
		{"float", Column{Type: Float, Floats: []float32{1.5, 2.5}}},
		{"double with fixed", Column{Type: Double, Doubles: []float64{1.5, 2.5}, Fixed: []int64{15, 25}}},
		{"double without fixed", Column{Type: Double, Doubles: []float64{1.5, 2.5}}},
		{"text", Column{Type: Text, Texts: []string{"a", "b"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := &Batch{Times: []int64{1000, 2000}, Columns: []Column{tc.col}}
			kept := b.Columns[0].Value(0)
			b.SetNull(0, 1)
			b.SetNull(0, 1)
			col := &b.Columns[0]
			if col.Present(1) || !col.Present(0) {
				t.Fatalf("present = %v, %v; want true, false", col.Present(0), col.Present(1))
			}
			if b.Nulls != 1 || b.Points() != 1 {
				t.Errorf("Nulls = %d, Points = %d; want 1, 1", b.Nulls, b.Points())
			}
			if got := col.Value(0); got != kept {
				t.Errorf("row 0 = %v, want it kept at %v", got, kept)
			}
			switch got := col.Value(1).(type) {
			case bool:
				if got {
					t.Errorf("row 1 = true, want false")
				}
			case string:
				if got != "" {
					t.Errorf("row 1 = %q, want empty", got)
				}
			default:
				if n, _ := col.Number(1); n != 0 {
					t.Errorf("row 1 = %v, want 0", got)
				}
			}
			if len(col.Fixed) > 0 && (col.Fixed[1] != 0 || col.Fixed[0] != 15) {
				t.Errorf("Fixed = %v, want [15 0]", col.Fixed)
			}
		})
	}
}
