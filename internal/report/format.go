package report

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"
)

// HumanBytes formats a byte count with decimal (SI) units, one decimal:
// 45200000 -> "45.2 MB". Decimal units because the figures are compared with
// disk sizes and network rates, which vendors quote in powers of ten.
func HumanBytes(n int64) string {
	if n < 0 {
		return "-" + HumanBytes(-n)
	}
	if n < 1000 {
		return fmt.Sprintf("%d B", n)
	}
	v := float64(n)
	for _, unit := range []string{"kB", "MB", "GB", "TB", "PB"} {
		v /= 1000
		// Switch units before rounding would print "1000.0 kB".
		if math.Round(v*10)/10 < 1000 {
			return fmt.Sprintf("%.1f %s", v, unit)
		}
	}
	return fmt.Sprintf("%.1f EB", v/1000)
}

// Compact formats a rate with a K/M/G suffix and three significant figures
// or so (987, 12.3K, 1.23M), short enough for a live progress line that must
// not wrap on an 80-column terminal.
func Compact(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Sprint(v)
	case a < 1000:
		return fmt.Sprintf("%.0f", v)
	case a < 1e6:
		return fmt.Sprintf("%.1fK", v/1e3)
	case a < 1e9:
		return fmt.Sprintf("%.2fM", v/1e6)
	default:
		return fmt.Sprintf("%.2fG", v/1e9)
	}
}

// ShortDuration formats d rounded to whole seconds as 7s, 2m03s or 1h02m03s:
// steadier on a live line than time.Duration's String, which prints
// fractions.
func ShortDuration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int64(d.Round(time.Second) / time.Second)
	h, m, sec := s/3600, s/60%60, s%60
	switch {
	case h > 0:
		return fmt.Sprintf("%dh%02dm%02ds", h, m, sec)
	case m > 0:
		return fmt.Sprintf("%dm%02ds", m, sec)
	default:
		return fmt.Sprintf("%ds", sec)
	}
}

// f2 is IoT-benchmark's number format: String.format("%.2f").
func f2(v float64) string { return fmt.Sprintf("%.2f", v) }

// javaF2 is Java's String.format("%.2f", v), which IoT-benchmark's matrices
// use: the exact binary value rounded half up, where Go's %.2f rounds a
// tie to even (0.125 is "0.13" in Java, "0.12" in Go). A value that only
// looks like a tie (2.675 is 2.67499999... in binary) rounds down in both.
func javaF2(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return f2(v)
	}
	exact := new(big.Float).SetFloat64(v).Text('f', 1100) // every binary fraction ends by then
	dot := strings.IndexByte(exact, '.')
	if tail := strings.TrimRight(exact[dot+3:], "0"); tail != "5" {
		return f2(v) // not a tie: both round to nearest
	}
	away := math.Copysign(0.005, v)
	return f2(v + away) // a tie: half up, away from zero as Java's HALF_UP
}

// oneLine collapses runs of whitespace (including newlines of multi-line
// server errors) to single spaces and cuts the text to max runes, so that an
// example error cannot break the console layout.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max-3]) + "..."
}

// GroupThousands puts a comma between each group of three digits of a
// formatted number's integer part: "-1234567.50" becomes "-1,234,567.50".
func GroupThousands(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		return sign + b.String() + "." + frac
	}
	return sign + b.String()
}
