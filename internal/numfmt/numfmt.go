// Package numfmt formats the generator's numbers for text wire formats
// (InfluxDB line protocol, VictoriaMetrics' JSON import) fast and exactly:
// the same bytes strconv.AppendFloat(dst, v, 'g', -1, 64) writes, the
// shortest text that reads back as v, without its general shortest-digits
// search when v is a decimal of few places, which generated DOUBLEs are
// (DOUBLE_LENGTH: rounded to 2 places by default). That search is most of a
// point's cost on these targets.
package numfmt

import (
	"encoding/binary"
	"math"
	"strconv"
)

// MaxDecimals is the most decimal places the fast path handles.
const MaxDecimals = 9

var pow10f = [MaxDecimals + 1]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9}

// AppendFloat appends v as strconv.AppendFloat(dst, v, 'g', -1, 64) does.
// decimals is a hint: the places v was rounded to (-1 if unknown). When v
// is the double nearest a decimal n / 10^decimals, that decimal trimmed of
// trailing zeros is v's shortest text — no other decimal of as few digits
// is as close, as long as 10^-decimals is far above v's spacing, which
// holds below 1e6 — and it is written from the integer n. strconv's 'g'
// switches to an exponent below 1e-4 and from 1e6 on; those, and every
// other value, go to strconv.
func AppendFloat(dst []byte, v float64, decimals int) []byte {
	if decimals >= 0 && decimals <= MaxDecimals {
		if a := math.Abs(v); a >= 1e-4 && a < 1e6 {
			// Round(x), as an integer: below 1e15 in magnitude the
			// conversion truncates exactly, in one instruction, where
			// math.Trunc is a call on baseline amd64.
			scale := pow10f[decimals]
			x := v * scale
			if n := int64(x + math.Copysign(belowHalf, x)); float64(n)/scale == v {
				return appendFixed(dst, n, decimals)
			}
		}
	}
	return strconv.AppendFloat(dst, v, 'g', -1, 64)
}

// AppendFixed appends v, known to be float64(n) / 10^decimals (the
// generator made it so, and kept n: ts.Column.Fixed), as AppendFloat(dst,
// v, decimals) does: the same bytes, written from n without the float
// arithmetic that recovers it. Where strconv's text is not plain decimal
// (|v| below 1e-4 or from 1e6 on) and for n = 0 (v may be -0, or beyond
// what the generator kept), v goes to AppendFloat.
func AppendFixed(dst []byte, v float64, n int64, decimals int) []byte {
	u := uint64(n)
	if n < 0 {
		u = -u
	}
	if decimals == 2 {
		if out, ok := AppendCents(dst, n); ok {
			return out
		}
	}
	if decimals >= 0 && decimals <= MaxDecimals {
		if u >= minFixed[decimals] && u < maxFixed[decimals] {
			return appendFixed(dst, n, decimals)
		}
	}
	return AppendFloat(dst, v, decimals)
}

// AppendCents is AppendFixed's usual path for the default's 2 decimals, for
// a serialiser's loop to call without AppendFixed's other checks: it appends
// n / 100 when 0 < |n| < 10^6 (plain decimal, at most 8 bytes) and dst has 8
// bytes to spare, and reports false, leaving dst as it was, otherwise.
func AppendCents(dst []byte, n int64) ([]byte, bool) {
	u, ok := centsMagnitude(n)
	if !ok || cap(dst)-len(dst) < 8 {
		return dst, false
	}
	w, k := digitsWord(splitCents(u))
	return putText(dst, w, k, n < 0), true
}

// CentsWords makes AppendCents' text of each of fixed's hundredths without
// appending it: fixed[i]'s text goes to words[i*stride] as the bytes a
// little-endian store writes, its length to lens[i*stride], and a length 0
// says that the value is outside AppendCents' range. A serialiser that
// interleaves columns makes a column's words in one call and then stores
// them itself, where a call per value would cost its own loop the spill
// and reload of everything it keeps in registers.
func CentsWords(words []uint64, lens []uint8, fixed []int64, stride int) {
	for i, n := range fixed {
		var w uint64
		var k int
		if u, ok := centsMagnitude(n); ok {
			w, k = digitsWord(splitCents(u))
			if n < 0 {
				w, k = w<<8|'-', k+1
			}
		}
		words[i*stride], lens[i*stride] = w, uint8(k)
	}
}

// centsMagnitude is |n| when 0 < |n| < 10^6: AppendCents' range.
func centsMagnitude(n int64) (uint64, bool) {
	u := uint64(n)
	if n < 0 {
		u = -u
	}
	return u, u-1 < 999_999
}

// minFixed[d] and maxFixed[d] bound |n| for AppendFixed's own path: n / 10^d
// at least 1e-4 (and n not zero) and below 1e6, the range in which
// strconv's 'g' writes no exponent.
var minFixed, maxFixed = func() (lo, hi [MaxDecimals + 1]uint64) {
	for d := range lo {
		lo[d], hi[d] = 1, 1_000_000
		for i := 0; i < d; i++ {
			hi[d] *= 10
			if i >= 4 {
				lo[d] *= 10
			}
		}
	}
	return lo, hi
}()

// Round is math.Round, written as adding the largest double below one half
// (signed as x) and truncating: the same value for every input (the sum
// reaches the next integer exactly when x's fraction is at least one
// half), without math.Round's bit manipulation or a branch that
// mispredicts on half of all values.
func Round(x float64) float64 {
	return math.Trunc(x + math.Copysign(belowHalf, x))
}

// belowHalf is the largest float64 below 0.5.
const belowHalf = 0.49999999999999994

// digitPairs are "00" to "99": two digits per division by 100.
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

// appendFixed writes n / 10^d in plain decimal notation, without trailing
// zeros in the fraction (nor a point when none is left); n is integral,
// non-zero and below 1e15 in magnitude. The text is built right to left —
// fraction (with d = 2, the default, split off whole by one multiply-shift),
// point, whole part two digits at a time — with no division by a variable
// power of ten. A text of up to 8 bytes, which generated values are, is
// built in a register and stored as one 8-byte word; a longer one in a
// scratch array, then appended.
func appendFixed(dst []byte, n int64, d int) []byte {
	u := uint64(n)
	if n < 0 {
		u = uint64(-n)
	}
	if u < 1_000_000 && d <= 5 && cap(dst)-len(dst) >= 8 {
		// At most 6 digits, or a 0 and d ≤ 5 of them, a point and a
		// sign: 8 bytes.
		w, k := shortText(u, d)
		return putText(dst, w, k, n < 0)
	}
	for d > 0 && u%10 == 0 {
		u, d = u/10, d-1
	}
	var buf [24]byte
	i := len(buf)
	for ; d > 0; d-- {
		q := u / 10
		i--
		buf[i] = byte('0' + u - q*10)
		u = q
	}
	if i < len(buf) {
		i--
		buf[i] = '.'
	}
	for u >= 100 {
		q := u / 100
		r := (u - q*100) * 2
		i -= 2
		buf[i], buf[i+1] = digitPairs[r], digitPairs[r+1]
		u = q
	}
	if u >= 10 {
		i -= 2
		buf[i], buf[i+1] = digitPairs[u*2], digitPairs[u*2+1]
	} else {
		i--
		buf[i] = byte('0' + u) // the whole part's only digit, or the 0 of "0.x"
	}
	if n < 0 {
		i--
		buf[i] = '-'
	}
	return append(dst, buf[i:]...)
}

// shortText is the text of u / 10^d (u < 10^6, d ≤ 5) as k bytes in w, the
// first in its lowest byte (the order a little-endian store writes them):
// each character, made last to first, is shifted in at the bottom.
func shortText(u uint64, d int) (w uint64, k int) {
	if d == 2 {
		return digitsWord(splitCents(u))
	}
	for d > 0 && u%10 == 0 {
		u, d = u/10, d-1
	}
	for ; d > 0; d-- {
		q := u / 10
		w, k = w<<8|('0'+u-q*10), k+1
		u = q
	}
	if k > 0 {
		w, k = w<<8|'.', k+1
	}
	return digitsWord(u, w, k)
}

// splitCents splits u hundredths, with one multiply-shift, into the whole
// part and the fraction's text from the cents table (w and its length k),
// for digitsWord to put the whole part's digits before.
func splitCents(u uint64) (whole, w uint64, k int) {
	q := u / 100
	c := cents[u-q*100]
	return q, uint64(c & 0xffffff), int(c >> 24)
}

// putText appends the k-byte text in w (after a '-' when neg) with one
// 8-byte store past dst's end, which has room for it. Storing the bytes in
// an array and copying it would stall the copy's load on the stores; one
// word store does not.
func putText(dst []byte, w uint64, k int, neg bool) []byte {
	if neg {
		w, k = w<<8|'-', k+1
	}
	m := len(dst)
	binary.LittleEndian.PutUint64(dst[m:m+8], w)
	return dst[:m+k]
}

// digitsWord shifts the decimal digits of u in below the k bytes of text in
// w, which must leave room for them (8 bytes in all).
func digitsWord(u, w uint64, k int) (uint64, int) {
	for u >= 100 {
		q := u / 100
		w, k = w<<16|uint64(pairWords[u-q*100]), k+2
		u = q
	}
	if u >= 10 {
		return w<<16 | uint64(pairWords[u]), k + 2
	}
	return w<<8 | ('0' + u), k + 1
}

// AppendInt appends v as strconv.AppendInt(dst, v, 10) does. Timestamps in
// milliseconds (13 digits), formatted once per row, take the fast path:
// from 10^8 to 10^16, with 16 bytes to spare, the text is two words, the
// high digits' and the low eight's, made with 32-bit arithmetic and stored
// whole.
func AppendInt(dst []byte, v int64) []byte {
	m := len(dst)
	if v < 1e8 || v >= 1e16 || cap(dst)-m < 16 {
		return strconv.AppendInt(dst, v, 10)
	}
	hi, lo := uint64(v)/1e8, uint32(uint64(v)%1e8)
	w, k := digitsWord(hi, 0, 0)
	a, b := lo/10000, lo%10000
	binary.LittleEndian.PutUint64(dst[m:m+8], w)
	binary.LittleEndian.PutUint64(dst[m+k:m+k+8], uint64(pairWords[a/100])|uint64(pairWords[a%100])<<16|
		uint64(pairWords[b/100])<<32|uint64(pairWords[b%100])<<48)
	return dst[:m+k+8]
}

// cents[f] is the text of a fraction of f hundredths, as shortText builds
// it (".f" or ".ff", or nothing for 0) in its low three bytes, and its
// length in the top one: a table, because whether the last digit is a zero
// is a branch that random values mispredict.
var cents = func() (t [100]uint32) {
	for f := 1; f < 100; f++ {
		if f%10 == 0 {
			t[f] = 2<<24 | uint32('0'+f/10)<<8 | '.'
		} else {
			t[f] = 3<<24 | uint32(pairWords[f])<<8 | '.'
		}
	}
	return t
}()

// pairWords[r] is digitPairs' "rr" as a little-endian 16-bit word.
var pairWords = func() (t [100]uint16) {
	for r := range t {
		t[r] = uint16(digitPairs[2*r]) | uint16(digitPairs[2*r+1])<<8
	}
	return t
}()
