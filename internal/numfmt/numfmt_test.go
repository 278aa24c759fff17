package numfmt

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

func same(t *testing.T, v float64, d int) {
	t.Helper()
	want := strconv.FormatFloat(v, 'g', -1, 64)
	appended(t, want, func(dst []byte) []byte { return AppendFloat(dst, v, d) })
}

// appended checks that app appends want, both to nil and after a text
// already in a buffer with room to spare (where a short text is stored as
// one word past it, the bytes beyond the text then cut off).
func appended(t *testing.T, want string, app func(dst []byte) []byte) {
	t.Helper()
	if got := string(app(nil)); got != want {
		t.Fatalf("appended %q, strconv writes %q", got, want)
	}
	dst := append(make([]byte, 0, 64), "s_1="...)
	if got := string(app(dst)); got != "s_1="+want {
		t.Fatalf("appended %q after s_1=, strconv writes %q", got, want)
	}
}

// The generator's values (rounded to d places, as gen does), values with
// fewer places than the hint, values with more (not decimals at all),
// the edges of the fast path's range and special values: always strconv's
// bytes.
func TestAppendFloatIsStrconv(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for d := 0; d <= MaxDecimals; d++ {
		scale := math.Pow10(d)
		for i := 0; i < 20000; i++ {
			x := (rng.Float64()*2 - 1) * math.Pow10(rng.IntN(9)-3)
			same(t, math.Round(x*scale)/scale, d)
			same(t, x, d)
			same(t, math.Round(x*100)/100, d)
		}
	}
	for _, v := range []float64{0, math.Copysign(0, -1), 1e-4, -1e-4, 0.000099999, 999999.99, 1e6, -1e6, 999999.999999,
		0.1, 0.2, 0.3, 1.005, 100, 1e21, 5e-324, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), 123456.789} {
		for d := -1; d <= MaxDecimals+1; d++ {
			same(t, v, d)
		}
	}
}

// AppendFixed writes strconv's bytes for every n the generator may keep:
// the fast path's bounds and one past them, zero, random magnitudes of
// both signs; and for a decimals hint it does not handle, falls back.
func TestAppendFixedIsStrconv(t *testing.T) {
	check := func(n int64, d int) {
		t.Helper()
		v := float64(n) / math.Pow10(d)
		want := strconv.FormatFloat(v, 'g', -1, 64)
		appended(t, want, func(dst []byte) []byte { return AppendFixed(dst, v, n, d) })
	}
	for _, n := range []int64{1, 10, 99, 100, 999_999, 1_000_000, 1_000_001, math.MinInt64 + 1} {
		check(n, 2) // the ends of the default's own path
		check(-n, 2)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for d := 0; d <= MaxDecimals; d++ {
		for _, u := range []uint64{minFixed[d], maxFixed[d]} {
			for _, n := range []int64{int64(u) - 1, int64(u), int64(u) + 1} {
				check(n, d)
				check(-n, d)
			}
		}
		for i := 0; i < 20000; i++ {
			n := rng.Int64N(max(1, int64(maxFixed[d])*10>>rng.IntN(40)))
			check(n, d)
			check(-n, d)
		}
	}
	for _, v := range []float64{1.25, 1e300, math.NaN()} {
		for _, d := range []int{-1, MaxDecimals + 1} {
			if got, want := string(AppendFixed(nil, v, 125, d)), strconv.FormatFloat(v, 'g', -1, 64); got != want {
				t.Fatalf("AppendFixed(%v, 125, %d) = %q, want %q", v, d, got, want)
			}
		}
	}
}

// AppendCents takes n / 100 for 0 < |n| < 10^6 with 8 bytes to spare, and
// leaves everything else, dst untouched, to AppendFixed.
func TestAppendCentsRange(t *testing.T) {
	room := make([]byte, 3, 11)
	for _, c := range []struct {
		n    int64
		room []byte
		ok   bool
	}{
		{1, room, true}, {-1, room, true}, {999_999, room, true}, {-999_999, room, true},
		{0, room, false}, {1_000_000, room, false}, {-1_000_000, room, false}, {math.MinInt64, room, false},
		{1, room[:4], false}, {1, nil, false},
	} {
		got, ok := AppendCents(c.room, c.n)
		if ok != c.ok {
			t.Fatalf("AppendCents(cap %d, %d): ok %v", cap(c.room)-len(c.room), c.n, ok)
		}
		want := string(c.room)
		if ok {
			want += strconv.FormatFloat(float64(c.n)/100, 'g', -1, 64)
		}
		if string(got) != want {
			t.Fatalf("AppendCents(%d) = %q, want %q", c.n, got, want)
		}
	}
}

// CentsWords makes AppendCents' text word by word, every stride-th slot,
// and a length 0 (word 0) outside its range; the slots between are left
// alone.
func TestCentsWords(t *testing.T) {
	fixed := []int64{1, -1, 10, 99, 100, 12345, -12340, 999_999, -999_999, 0, 1_000_000, -1_000_000, math.MinInt64, math.MaxInt64}
	const stride, sentinel = 3, 0xdead
	words, lens := make([]uint64, stride*len(fixed)), make([]uint8, stride*len(fixed))
	for i := range words {
		words[i], lens[i] = sentinel, sentinel&0xff
	}
	CentsWords(words, lens, fixed, stride)
	for i, n := range fixed {
		w, k := words[i*stride], int(lens[i*stride])
		var text [8]byte
		binary.LittleEndian.PutUint64(text[:], w)
		want := ""
		if _, ok := AppendCents(make([]byte, 0, 8), n); ok {
			want = strconv.FormatFloat(float64(n)/100, 'g', -1, 64)
		}
		if got := string(text[:k]); got != want || k == 0 && w != 0 {
			t.Errorf("CentsWords(%d) = %q (word %#x), want %q", n, got, w, want)
		}
		for j := i*stride + 1; j < (i+1)*stride; j++ {
			if words[j] != sentinel || lens[j] != sentinel&0xff {
				t.Fatalf("slot %d between strides changed", j)
			}
		}
	}
}

// AppendInt writes strconv's bytes: both ends of the fast path and one
// past them, negative values, random magnitudes.
func TestAppendIntIsStrconv(t *testing.T) {
	check := func(v int64) {
		t.Helper()
		appended(t, strconv.FormatInt(v, 10), func(dst []byte) []byte { return AppendInt(dst, v) })
	}
	for _, v := range []int64{0, 1, -1, 99_999_999, 1e8, 1e8 + 1, 1640966400000, 1e16 - 1, 1e16, math.MaxInt64, math.MinInt64} {
		check(v)
		check(-v)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 100000; i++ {
		v := rng.Int64() >> rng.IntN(63)
		check(v)
		check(-v)
	}
}

// Round gives math.Round(x) for every input, halves, signed
// zeros, huge values and non-finite ones included.
func TestRoundIsMathRound(t *testing.T) {
	if belowHalf != math.Nextafter(0.5, 0) {
		t.Fatalf("belowHalf = %v, not the double below 0.5", belowHalf)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	special := []float64{0, math.Copysign(0, -1), 0.5, -0.5, 1.5, -2.5, 0.49999999999999994, -0.49999999999999994,
		0.005, -0.005, 1.005, 4503599627370495.5, -4503599627370495.5, 1e300, -1e300, math.MaxFloat64,
		math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	for digits := 0; digits <= 6; digits++ {
		scale := math.Pow10(digits)
		values := append([]float64(nil), special...)
		for i := 0; i < 100_000; i++ {
			values = append(values, (rng.Float64()*2-1)*math.Pow10(rng.IntN(20)-6),
				float64(rng.IntN(2_000_001)-1_000_000)/2/scale) // halves at the rounding place
			// Exact halves of every magnitude, and their neighbours.
			half := (float64(rng.Int64N(1<<uint(rng.IntN(53)))) + 0.5) / scale
			if rng.IntN(2) == 0 {
				half = -half
			}
			values = append(values, half, math.Nextafter(half, 0), math.Nextafter(half, math.Inf(1)))
		}
		for _, v := range values {
			got, want := Round(v*scale), math.Round(v*scale)
			if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("Round(%v) = %v, math.Round gives %v", v*scale, got, want)
			}
		}
	}
}

func FuzzAppendFloat(f *testing.F) {
	f.Add(12.34, 2)
	f.Add(-0.05, 2)
	f.Add(999999.5, 1)
	f.Fuzz(func(t *testing.T, v float64, d int) { same(t, v, d) })
}

func BenchmarkAppendFloat(b *testing.B) {
	vals := make([]float64, 1024)
	for i := range vals {
		vals[i] = math.Round((float64(i)*0.731-300)*100) / 100
	}
	var buf [32]byte
	b.Run("numfmt", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			AppendFloat(buf[:0], vals[i&1023], 2)
		}
	})
	fixed := make([]int64, len(vals))
	for i, v := range vals {
		fixed[i] = int64(math.Round(v * 100))
	}
	b.Run("fixed", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			AppendFixed(buf[:0], vals[i&1023], fixed[i&1023], 2)
		}
	})
	b.Run("strconv", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			strconv.AppendFloat(buf[:0], vals[i&1023], 'g', -1, 64)
		}
	})
}
