package dataset

import (
	"fmt"
	"slices"
	"strings"
)

// Header rows. Loggers and spreadsheets write a row of units under the
// column names ([W/m2], degC, %), and some a row more (Avg, Smp). Read as
// data, such a row would stop the time column at its first row, or turn
// every column TEXT. A row under the names is taken as a header row when
// nothing in it is data: no cell a number, a boolean or a time, and some
// cell text over a column of numbers. DATA_HEADER_ROWS says how many
// lines the header has instead.

// maxHeadRows is how many rows under the names detection takes at most.
const maxHeadRows = 3

// headRows are the rows under a file's names that are no data.
type headRows struct {
	n     int      // how many
	units []string // the first one's cells: each column's unit
	first int64    // its line
	given bool     // DATA_HEADER_ROWS said so
}

// findHeadRows finds the header rows at the top of sample (the rows under
// the names): those DATA_HEADER_ROWS gives (the names' line counted), or
// those that hold no data, up to maxHeadRows.
func findHeadRows(c *csvFile, header []string, sample []sampled, o ImportOptions, to timeOptions, ms *markerSet) (headRows, error) {
	var h headRows
	switch {
	case o.HeaderRows < 0:
		return h, &InputError{File: c.name, Msg: fmt.Sprintf("DATA_HEADER_ROWS %d: allowed: 0 (detected), 1 (the names alone) or more (the names, then units)", o.HeaderRows)}
	case o.HeaderRows == 1:
		return h, nil
	case o.HeaderRows > 1:
		h.n, h.given = o.HeaderRows-1, true
		if len(sample) < h.n {
			return h, &InputError{File: c.name, Msg: fmt.Sprintf("DATA_HEADER_ROWS %d: the file has %d lines under its names", o.HeaderRows, len(sample))}
		}
	default:
		h.n = unitsRows(header, sample, to, ms, c.comma != ',')
	}
	if h.n > 0 {
		h.units, h.first = sample[0].rec, sample[0].line
	}
	return h, nil
}

// unitsRows counts the header rows at the top of sample: the rows above
// the first that holds data (a number, a boolean or a time), at most
// maxHeadRows, each with some text (not a missing-value marker) over a
// column whose cells are numbers from that row on. None where the first
// row holds data, or the rows above the data do not each say something of
// a column of numbers.
func unitsRows(header []string, sample []sampled, to timeOptions, ms *markerSet, decimalComma bool) int {
	top := sample[:min(len(sample), maxHeadRows+1)]
	data := slices.IndexFunc(top, func(r sampled) bool { return holdsData(header, r.rec, to, ms, decimalComma) })
	if data <= 0 {
		return 0
	}
	for _, r := range sample[:data] {
		units := 0
		for i, v := range r.rec {
			if !ms.isAny(v) && numbersBelow(sample[data:], i, ms, decimalComma) {
				units++
			}
		}
		if units == 0 {
			return 0
		}
	}
	return data
}

// holdsData reports whether a row has a cell that is a number, a boolean
// or a time: what a header row never has.
func holdsData(header, rec []string, to timeOptions, ms *markerSet, decimalComma bool) bool {
	for i, v := range rec {
		v = strings.TrimSpace(v)
		if ms.isAny(v) {
			continue
		}
		if kindOf(number(v, decimalComma)) != kindText {
			return true
		}
		if _, at, _ := to.detectTime(header[i], []string{v}); at < 0 {
			return true
		}
	}
	return false
}

// number is v with a decimal comma read as a point, where the file's
// numbers have one.
func number(v string, decimalComma bool) string {
	if decimalComma {
		v, _ = decimalPoint(v)
	}
	return v
}

// numbersBelow reports whether column i's cells below are numbers, but
// missing ones, and one at least.
func numbersBelow(below []sampled, i int, ms *markerSet, decimalComma bool) bool {
	n := 0
	for _, r := range below {
		if i >= len(r.rec) {
			return false
		}
		v := strings.TrimSpace(r.rec[i])
		if ms.isAny(v) {
			continue
		}
		if k := kindOf(number(v, decimalComma)); k != kindInt && k != kindDouble {
			return false
		}
		n++
	}
	return n > 0
}

// unit is column i's unit, as the header rows give it; "" without.
func (h headRows) unit(i int) string {
	if i < len(h.units) {
		return strings.TrimSpace(h.units[i])
	}
	return ""
}

// note says which lines were header rows, and the units they gave.
func (h headRows) note() string {
	lines, are, them := fmt.Sprintf("line %d is a header row", h.first), "it", "it"
	if h.n > 1 {
		lines, them = fmt.Sprintf("lines %d-%d are header rows", h.first, h.first+int64(h.n)-1), "them"
		are = fmt.Sprintf("line %d", h.first)
	}
	var units []string
	for i := range h.units {
		if u := h.unit(i); u != "" && len(units) < 4 {
			units = append(units, u)
		}
	}
	why := fmt.Sprintf("DATA_HEADER_ROWS=1 reads %s as data", them)
	if h.given {
		why = fmt.Sprintf("as DATA_HEADER_ROWS=%d says", h.n+1)
	}
	return fmt.Sprintf("%s under the names, not data: %s gives the columns' units (%s); %s", lines, are, strings.Join(units, ", "), why)
}
