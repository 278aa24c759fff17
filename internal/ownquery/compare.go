package ownquery

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
)

// Tolerance is the relative difference two floating-point values of an
// answer may have and still agree: aggregates over the same points summed
// in another order differ in their last bits.
const Tolerance = 1e-9

// Differ says how two answers to the same parameter set differ, each
// side named (aName's, then bName's), or "" when they agree. Rows are
// compared as sets (a query without ORDER BY may return them in any
// order): each side's rows are sorted, then compared value by value; column
// names are not compared (databases name an aggregate's column
// differently). A disagreement reads "victoriametrics: 0, prometheus:
// -48071.16": which target answered which value, not only that two did.
func Differ(a, b targets.Rows, aName, bName string) string {
	if a.Count != b.Count {
		return fmt.Sprintf("%s: %d rows, %s: %d rows", aName, a.Count, bName, b.Count)
	}
	ra, rb := sortedRows(a.Values), sortedRows(b.Values)
	for i := range min(len(ra), len(rb)) {
		if len(ra[i]) != len(rb[i]) {
			return fmt.Sprintf("%s: %d columns, %s: %d columns", aName, len(ra[i]), bName, len(rb[i]))
		}
		for j := range ra[i] {
			if !sameValue(ra[i][j], rb[i][j]) {
				return fmt.Sprintf("%s: %s, %s: %s", aName, answerText(ra[i], a.Count), bName, answerText(rb[i], b.Count))
			}
		}
	}
	return ""
}

// answerText is a differing row as a disagreement shows it: an answer of
// one value is that value (0, not (0)), any other row its tuple.
func answerText(row []any, rows int64) string {
	text := RowText(row)
	if rows == 1 && len(row) == 1 {
		return strings.TrimSuffix(strings.TrimPrefix(text, "("), ")")
	}
	return text
}

// sameValue compares two normalised values: numbers within Tolerance
// (an int64 and a float64 alike), the rest exactly.
func sameValue(a, b any) bool {
	fa, aNum := number(a)
	fb, bNum := number(b)
	if aNum && bNum {
		if fa == fb {
			return true
		}
		return math.Abs(fa-fb) <= Tolerance*math.Max(math.Abs(fa), math.Abs(fb))
	}
	return a == b
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// sortedRows is a copy of rows in the order of their sort keys.
func sortedRows(rows [][]any) [][]any {
	out := append([][]any(nil), rows...)
	keys := make(map[int]string, len(out))
	idx := make([]int, len(out))
	for i := range out {
		idx[i] = i
		keys[i] = sortKey(out[i])
	}
	sort.SliceStable(idx, func(x, y int) bool { return keys[idx[x]] < keys[idx[y]] })
	sorted := make([][]any, len(out))
	for i, k := range idx {
		sorted[i] = out[k]
	}
	return sorted
}

// sortKey orders rows alike on both sides: numbers rounded to 9
// significant digits (so that values within Tolerance sort together).
func sortKey(row []any) string {
	var b strings.Builder
	for _, v := range row {
		if f, ok := number(v); ok {
			b.WriteString(strconv.FormatFloat(f, 'e', 8, 64))
		} else {
			fmt.Fprintf(&b, "%T:%v", v, v)
		}
		b.WriteByte(0)
	}
	return b.String()
}

// RowText is a row as a disagreement shows it.
func RowText(row []any) string {
	parts := make([]string, len(row))
	for i, v := range row {
		switch x := v.(type) {
		case nil:
			parts[i] = "null"
		case string:
			parts[i] = strconv.Quote(x)
		default:
			parts[i] = fmt.Sprint(x)
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
