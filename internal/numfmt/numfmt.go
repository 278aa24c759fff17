// Package numfmt formats the generator's numbers for text wire formats
// (InfluxDB line protocol, VictoriaMetrics' JSON import) fast and exactly:
// the same bytes strconv.AppendFloat(dst, v, 'g', -1, 64) writes, the
// shortest text that reads back as v, without its general shortest-digits
// search when v is a decimal of few places, which generated DOUBLEs are
// (DOUBLE_LENGTH: rounded to 2 places by default). That search is most of a
// point's cost on these targets.
package numfmt

import (
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
// non-zero and below 1e15 in magnitude. The fraction's trailing zeros are
// divided off first; then the text is built right to left in a scratch
// array (fraction, point, whole part two digits at a time) and appended
// once: no division by a variable power of ten, one capacity check.
func appendFixed(dst []byte, n int64, d int) []byte {
	u := uint64(n)
	if n < 0 {
		u = uint64(-n)
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
