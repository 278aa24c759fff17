package lineproto

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/ts"
)

func TestAppendLines(t *testing.T) {
	sensors := []ts.Sensor{{Name: "s_0", Type: ts.Boolean}, {Name: "s_1", Type: ts.Int32}, {Name: "s_2", Type: ts.Int64},
		{Name: "s_3", Type: ts.Float}, {Name: "s_4", Type: ts.Double}, {Name: "s_5", Type: ts.Text}}
	b := &ts.Batch{Times: []int64{1640966400000, 1640966405000}, Columns: []ts.Column{
		{Type: ts.Boolean, Bools: []bool{true, false}},
		{Type: ts.Int32, Int32s: []int32{-7, 12}},
		{Type: ts.Int64, Int64s: []int64{9007199254740993, 0}},
		{Type: ts.Float, Floats: []float32{1.5, 0.1}},
		{Type: ts.Double, Doubles: []float64{-2.25, 1e21}},
		{Type: ts.Text, Texts: []string{`say "hi"`, `back\slash`}},
	}}
	want := `g_0,device=d_0 s_0=true,s_1=-7i,s_2=9007199254740993i,s_3=1.5,s_4=-2.25,s_5="say \"hi\"" 1640966400000
g_0,device=d_0 s_0=false,s_1=12i,s_2=0i,s_3=0.10000000149011612,s_4=1e+21,s_5="back\\slash" 1640966405000
`
	// The decimals hint changes nothing in the text, whatever it says.
	for _, d := range []int{-1, 0, 2, 9} {
		b.Decimals = d
		if got := string(AppendRows(nil, "g_0,device=d_0 ", NewKeys(sensors), b)); got != want {
			t.Fatalf("decimals %d: got\n%s\nwant\n%s", d, got, want)
		}
	}
}

// Field keys are escaped (a sensor name may hold a space, a comma or an
// equals sign: replayed data's column names do).
// A generated batch's text is the same whether its DOUBLEs are written from
// the integers the generator kept or from the floats alone.
func TestFixedIsTheFloatsText(t *testing.T) {
	s := &ts.Schema{Sensors: []ts.Sensor{{Name: "s_0", Type: ts.Double}, {Name: "s_1", Type: ts.Double}}, Devices: []ts.Device{{Name: "d_0"}},
		Groups: []string{"g_0"}, StartTime: 1640966400000, PointStep: 5000}
	g, err := gen.New(s, gen.Options{Seed: 7, Ratios: [6]float64{1, 1, 1, 1, 1, 1}, DoubleLength: 2, BatchSize: 500})
	if err != nil {
		t.Fatal(err)
	}
	b := g.NewBatch()
	keys := NewKeys(s.Sensors)
	for n := int64(0); n < 20; n++ {
		g.Fill(b, &s.Devices[0], n, nil)
		if len(b.Columns[0].Fixed) != b.Len() {
			t.Fatalf("the generator kept %d integers for %d rows", len(b.Columns[0].Fixed), b.Len())
		}
		fixed := string(AppendRows(nil, "g_0,device=d_0 ", keys, b))
		for i := range b.Columns {
			b.Columns[i].Fixed = nil
		}
		if floats := string(AppendRows(nil, "g_0,device=d_0 ", keys, b)); fixed != floats {
			t.Fatalf("batch %d: from the integers\n%s\nfrom the floats\n%s", n, fixed, floats)
		}
	}
}

func TestKeysEscaped(t *testing.T) {
	keys := NewKeys([]ts.Sensor{{Name: "temp"}, {Name: "my temp"}, {Name: "a,b=c"}})
	want := []string{"temp=", `,my\ temp=`, `,a\,b\=c=`}
	for i := range want {
		if keys.text[i] != want[i] {
			t.Fatalf("keys %q, want %q", keys.text, want)
		}
		if got := string(keys.appendKey(make([]byte, 0, 16), i)); got != want[i] {
			t.Fatalf("key %d appended as %q, want %q", i, got, want[i])
		}
	}
}

func TestEscapeNames(t *testing.T) {
	cases := []struct{ in, special, want string }{
		{"d_0", ",= ", "d_0"},
		{"my device", ",= ", `my\ device`},
		{"a,b=c", ",= ", `a\,b\=c`},
		{"g 0,x", ", ", `g\ 0\,x`},
	}
	for _, c := range cases {
		if got := Escape(c.in, c.special); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Serialising a batch allocates nothing per point, on the general path and
// on the hundredths' own (appendCentRows).
func TestAppendLinesAllocations(t *testing.T) {
	sensors := []ts.Sensor{{Name: "s_0", Type: ts.Double}, {Name: "s_1", Type: ts.Double}}
	keys := NewKeys(sensors)
	for _, decimals := range []int{-1, 2} {
		b := &ts.Batch{Times: make([]int64, 100), Decimals: decimals, Columns: []ts.Column{
			{Type: ts.Double, Doubles: make([]float64, 100), Fixed: make([]int64, 100)},
			{Type: ts.Double, Doubles: make([]float64, 100), Fixed: make([]int64, 100)}}}
		if got := centsOnly(keys, b); got != (decimals == 2) {
			t.Fatalf("decimals %d: centsOnly %v", decimals, got)
		}
		buf := AppendRows(nil, "g_0,device=d_0 ", keys, b)
		allocs := testing.AllocsPerRun(50, func() {
			buf = AppendRows(buf[:0], "g_0,device=d_0 ", keys, b)
		})
		if allocs != 0 {
			t.Fatalf("decimals %d: %.0f allocations per batch", decimals, allocs)
		}
	}
}

// A batch of hundredths (appendCentRows) reads as strconv writes each value,
// whatever the values' lengths (a long one takes the general way mid-row),
// the prefix's and the buffer's room.
func TestCentRowsAreStrconv(t *testing.T) {
	fixed := []int64{1, -1, 10, -10, 100, 12345, -99999, 999_999, -999_999, 1_000_000, -1_000_000,
		123_456_789, -9_007_199_254_740_991, 0, 4_200, 7}
	var sensors []ts.Sensor
	b := &ts.Batch{Decimals: 2}
	// 48 rows of 13 values, three chunks (19, 19 and 10 rows); keys "s_0="
	// to ",s_12=", up to 6 bytes, each one word.
	rows := 3 * len(fixed)
	for c := range 13 {
		sensors = append(sensors, ts.Sensor{Name: fmt.Sprintf("s_%d", c), Type: ts.Double})
		col := ts.Column{Type: ts.Double}
		for r := range rows {
			n := fixed[(5*r+c)%len(fixed)]
			col.Fixed, col.Doubles = append(col.Fixed, n), append(col.Doubles, float64(n)/100)
		}
		b.Columns = append(b.Columns, col)
	}
	b.Columns[5].Doubles[3], b.Columns[5].Fixed[3] = 1e21, 0 // beyond what Fixed keeps
	b.Columns[12].Doubles[40], b.Columns[12].Fixed[40] = -1e21, 0
	for r := range rows {
		b.Times = append(b.Times, 1640966400000+int64(r)*5000)
	}
	keys := NewKeys(sensors)
	if !centsOnly(keys, b) {
		t.Fatal("the batch does not take appendCentRows")
	}
	for _, prefix := range []string{"g,device=d ", strings.Repeat("p", 300) + ",device=d_0 "} {
		var want []byte
		for r, tm := range b.Times {
			want = append(want, prefix...)
			for c := range b.Columns {
				want = append(want, keys.text[c]...)
				want = strconv.AppendFloat(want, b.Columns[c].Doubles[r], 'g', -1, 64)
			}
			want = append(strconv.AppendInt(append(want, ' '), tm, 10), '\n')
		}
		for _, dst := range [][]byte{nil, make([]byte, 3, 40), append(make([]byte, 0, 1<<16), "head\n"...)} {
			head := string(dst)
			if got := string(AppendRows(dst, prefix, keys, b)); got != head+string(want) {
				t.Fatalf("prefix %.12q, buffer of %d: got\n%s\nwant\n%s", prefix, cap(dst), got, head+string(want))
			}
		}
	}
}

func TestCentsOnlyBounds(t *testing.T) {
	for _, cols := range []int{0, 1, centChunk, centChunk + 1} {
		var sensors []ts.Sensor
		b := &ts.Batch{Decimals: 2}
		for c := range cols {
			sensors = append(sensors, ts.Sensor{Name: fmt.Sprintf("s%d", c%100), Type: ts.Double})
			b.Columns = append(b.Columns, ts.Column{Type: ts.Double, Fixed: []int64{1}, Doubles: []float64{0.01}})
		}
		if got, want := centsOnly(NewKeys(sensors), b), cols >= 1 && cols <= centChunk; got != want {
			t.Errorf("%d columns: centsOnly = %v, want %v", cols, got, want)
		}
	}
}

// An empty cell's field is left out (the first field written has no comma
// before it), and a row with no value at all has no line.
func TestSparseRows(t *testing.T) {
	sensors := []ts.Sensor{{Name: "s_0", Type: ts.Double}, {Name: "s_1", Type: ts.Int64}, {Name: "s_2", Type: ts.Text}}
	b := &ts.Batch{Decimals: 2, Times: []int64{1000, 2000, 3000, 4000}, Columns: []ts.Column{
		{Type: ts.Double, Doubles: []float64{1.5, 0, 0, 2.25}, Fixed: []int64{150, 0, 0, 225}},
		{Type: ts.Int64, Int64s: []int64{7, 8, 0, 0}},
		{Type: ts.Text, Texts: []string{"a", "b", "", ""}},
	}}
	for _, c := range []struct{ col, row int }{{0, 1}, {0, 2}, {1, 2}, {2, 2}, {1, 3}, {2, 3}} {
		b.MarkNull(c.col, c.row)
	}
	want := `g,device=d s_0=1.5,s_1=7i,s_2="a" 1000
g,device=d s_1=8i,s_2="b" 2000
g,device=d s_0=2.25 4000
`
	if got := string(AppendRows(nil, "g,device=d ", NewKeys(sensors), b)); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if b.Points() != 6 {
		t.Fatalf("Points = %d, want 6", b.Points())
	}
}
