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
var pow10i = [MaxDecimals + 1]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9}

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
			scale := pow10f[decimals]
			if n := math.Round(v * scale); n/scale == v {
				return appendFixed(dst, n, decimals)
			}
		}
	}
	return strconv.AppendFloat(dst, v, 'g', -1, 64)
}

// appendFixed writes n / 10^d in plain decimal notation, without trailing
// zeros in the fraction (nor a point when none is left); n is integral and
// below 1e15 in magnitude.
func appendFixed(dst []byte, n float64, d int) []byte {
	if n < 0 {
		dst = append(dst, '-')
		n = -n
	}
	u := uint64(n)
	ip, fp := u/pow10i[d], u%pow10i[d]
	dst = strconv.AppendUint(dst, ip, 10)
	if fp == 0 {
		return dst
	}
	for fp%10 == 0 {
		fp /= 10
		d--
	}
	dst = append(dst, '.')
	for p := pow10i[d-1]; p > fp && p > 1; p /= 10 {
		dst = append(dst, '0') // leading zeros of the fraction
	}
	return strconv.AppendUint(dst, fp, 10)
}
