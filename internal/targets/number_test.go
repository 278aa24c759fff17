package targets

import "testing"

func TestNumber(t *testing.T) {
	cases := []struct {
		name   string
		v      any
		want   float64
		wantOK bool
	}{
		{"NULL", nil, 0, false},
		{"true", true, 1, true},
		{"false", false, 0, true},
		{"int16", int16(-7), -7, true},
		{"int32", int32(42), 42, true},
		{"int64", int64(1) << 40, 1 << 40, true},
		{"float32", float32(1.5), 1.5, true},
		{"float64", 2.25, 2.25, true},
		{"text", "12", 0, true},
		{"bytes", []byte("12"), 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := Number(c.v)
			if got != c.want || ok != c.wantOK {
				t.Errorf("Number(%#v) = %v, %v; want %v, %v", c.v, got, ok, c.want, c.wantOK)
			}
		})
	}
}
