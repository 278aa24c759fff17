package report

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
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
// use. Java rounds the shortest decimal that reads back as v (the digits of
// Double.toString) half up, away from zero: 0.125 is "0.13" and 2.675 and
// 1.005 are "2.68" and "1.01" in Java 17, where Go's %.2f rounds the exact
// binary value (2.67499999..., 1.00499999...) to nearest, ties to even
// ("0.12", "2.67", "1.00").
func javaF2(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return f2(v)
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(v, 'g', -1, 64))
	if !ok {
		return f2(v)
	}
	neg := r.Sign() < 0 || math.Signbit(v) && v != 0
	r.Abs(r)
	r.Mul(r, big.NewRat(100, 1)).Add(r, big.NewRat(1, 2))
	hundredths := new(big.Int).Quo(r.Num(), r.Denom()) // floor: r is not negative
	digits := fmt.Sprintf("%03d", hundredths)
	out := digits[:len(digits)-2] + "." + digits[len(digits)-2:]
	if neg {
		out = "-" + out
	}
	return out
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
