package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// maxWeight caps one field of a proportion. Real proportions are small
// integers; the cap keeps every sum of weights far from overflow.
const maxWeight = 1_000_000_000

// typeProportion binds INSERT_DATATYPE_PROPORTION. IoT-benchmark documents
// the 6-field form and its code wants 11 fields (crashing on 6); tsbench
// takes both, and refuses weight on the five types it does not generate
// rather than silently dropping it.
func typeProportion() binding {
	return binding{
		allowed: "6 non-negative weights (integers, or decimals as IoT-benchmark takes them) BOOLEAN:INT32:INT64:FLOAT:DOUBLE:TEXT, not all 0, " +
			"or the 11-field form ending in STRING:BLOB:TIMESTAMP:DATE:OBJECT = 0:0:0:0:0",
		set: parsedAs(parseWeights, func(c *Config, w []int64) error {
			switch {
			case len(w) != 6 && len(w) != 11:
				return because("has %d fields; want 6 or 11", len(w))
			case len(w) == 11 && anyNonZero(w[6:]):
				return because("tsbench generates only the first six types (BOOLEAN:INT32:INT64:FLOAT:DOUBLE:TEXT); " +
					"STRING:BLOB:TIMESTAMP:DATE:OBJECT must be 0")
			case !anyNonZero(w[:6]):
				return because("all weights are 0")
			}
			copy(c.TypeProportion[:], w)
			return nil
		}),
		get: func(c *Config) any { return joinInts(c.TypeProportion[:], ":") },
	}
}

// operationProportion binds OPERATION_PROPORTION. Like IoT-benchmark,
// missing trailing fields count as 0 (so "1" means write only); Q11 and Q12
// of newer IoT-benchmark versions are accepted only with weight 0.
func operationProportion() binding {
	return binding{
		allowed: "up to 13 non-negative weights (integers or decimals) write:Q1:...:Q10[:Q11:Q12], not all 0; " +
			"missing fields are 0 and Q11, Q12 must be 0",
		set: parsedAs(parseWeights, func(c *Config, w []int64) error {
			switch {
			case len(w) > 13:
				return because("has %d fields; want at most 13 (write:Q1..Q12)", len(w))
			case len(w) > 11 && anyNonZero(w[11:]):
				return because("not supported: Q11 (GROUP_BY_DESC) and Q12 (SET_OPERATION) must have weight 0")
			case !anyNonZero(w):
				return because("all weights are 0")
			}
			var p [11]int64
			copy(p[:], w)
			c.Proportion = p
			return nil
		}),
		get: func(c *Config) any { return joinInts(c.Proportion[:], ":") },
	}
}

// maxDecimals bounds the decimals of a fractional weight.
const maxDecimals = 6

// parseWeights reads a ':'-separated proportion. IoT-benchmark reads its
// fields as doubles, so 0.5:0.5 and 0.1:0.2:0.7 are proportions there too;
// tsbench apportions whole numbers, so decimal fields are scaled to integers
// by the same power of ten and reduced by their greatest common divisor
// (0.1:0.2:0.7 is 1:2:7). The ratios are exactly the file's.
func parseWeights(v string) ([]int64, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, nil
	}
	parts := strings.Split(v, ":")
	decimals := 0
	for _, p := range parts {
		if _, frac, ok := strings.Cut(strings.TrimSpace(p), "."); ok {
			decimals = max(decimals, len(frac))
		}
	}
	if decimals > maxDecimals {
		return nil, because("a weight has more than %d decimals", maxDecimals)
	}
	scale := int64(math.Pow10(decimals))
	out := make([]int64, len(parts))
	for i, p := range parts {
		n, err := scaledWeight(strings.TrimSpace(p), decimals, scale)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	if decimals == 0 {
		return out, nil // whole numbers stay as written
	}
	return reduceWeights(out), nil
}

// scaledWeight is a non-negative decimal field times scale, exactly.
func scaledWeight(p string, decimals int, scale int64) (int64, error) {
	whole, frac, _ := strings.Cut(p, ".")
	if whole == "" && frac == "" {
		return 0, badValue()
	}
	frac += strings.Repeat("0", decimals-len(frac))
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil || n < 0 || (whole != "" && strings.HasPrefix(whole, "-")) {
		return 0, badValue()
	}
	if n > maxWeight {
		return 0, because("a weight is above %d", maxWeight/max(scale, 1))
	}
	return n, nil
}

// reduceWeights divides every weight by their greatest common divisor.
func reduceWeights(w []int64) []int64 {
	g := int64(0)
	for _, x := range w {
		g = gcd(g, x)
	}
	if g <= 1 {
		return w
	}
	for i := range w {
		w[i] /= g
	}
	return w
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func anyNonZero(w []int64) bool {
	for _, x := range w {
		if x != 0 {
			return true
		}
	}
	return false
}

// proportionPadding warns about an OPERATION_PROPORTION with fewer than 11
// fields. The missing fields count as 0, as in IoT-benchmark (which logs an
// error and carries on), so that IoT-benchmark files and the short "1"
// (write only) keep working; but "1:1" is as likely a mix meant for
// write:Q1 as a typo, so the guess is said out loud (and --strict refuses
// it).
func proportionPadding(v string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		return ""
	}
	n := len(strings.Split(v, ":"))
	if n >= 11 {
		return ""
	}
	full := v + strings.Repeat(":0", 11-n)
	return fmt.Sprintf("has %d of the 11 fields write:Q1:...:Q10; the missing %d count as 0 (as in IoT-benchmark): "+
		"write %s to say so", n, 11-n, full)
}
