package dataset

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Delimiters. Files separate their fields with commas, or, wherever the
// comma is the decimal mark (spreadsheets and loggers in most of Europe),
// with semicolons; with tabs, pipes or spaces too. The separator is found
// from the header and the first rows together: a line alone cannot tell a
// header of one column from one whose separator was not recognised.

// delimiter is a field separator and the name DATA_DELIMITER gives it.
type delimiter struct {
	r    rune
	name string
}

// delimiters are the separators tried, in the order a tie goes. Space is
// taken only where no other splits the lines alike: spaces are inside
// many times and names.
var delimiters = []delimiter{{',', "comma"}, {';', "semicolon"}, {'\t', "tab"}, {'|', "pipe"}, {' ', "space"}}

// delimiterNames lists DATA_DELIMITER's values, for messages.
const delimiterNames = "auto, comma, semicolon, tab, pipe or space"

// sniffLines caps the lines detection reads from a file's head.
const sniffLines = 100

// parseDelimiter reads DATA_DELIMITER: empty or auto (0: detected), a
// name, or the character itself.
func parseDelimiter(text string) (rune, error) {
	switch text {
	case "\t":
		return '\t', nil
	case " ":
		return ' ', nil
	}
	t := strings.ToLower(strings.TrimSpace(text))
	if t == "" || t == "auto" {
		return 0, nil
	}
	for _, d := range delimiters {
		if t == d.name || t == string(d.r) || (d.r == '\t' && t == `\t`) {
			return d.r, nil
		}
	}
	return 0, fmt.Errorf("DATA_DELIMITER %q: allowed: %s (or the character: , ; |)", text, delimiterNames)
}

// delimiterName names a separator for messages: semicolon (;).
func delimiterName(r rune) string {
	for _, d := range delimiters {
		if d.r == r {
			if r == '\t' || r == ' ' {
				return d.name
			}
			return fmt.Sprintf("%s (%c)", d.name, r)
		}
	}
	return fmt.Sprintf("%q", r)
}

// delimiterNote says how a file's fields were split, for the messages
// of a file that cannot be read so.
func (c *csvFile) delimiterNote() string {
	how := "as DATA_DELIMITER says"
	if c.detected {
		how = "detected from the header and the first rows"
	}
	return fmt.Sprintf("fields split at %s, %s; DATA_DELIMITER sets it: %s", delimiterName(c.comma), how, delimiterNames)
}

// sniffDelimiter finds the separator of a file's head (its first lines,
// whole): the one that splits the header into two fields or more and
// every row into as many. Of several, the one giving the most fields
// wins, then the one whose cells hold the others' characters least (a
// semicolon file's header "Temp, degC" and its decimal commas split by
// commas as often as by semicolons), then the first of delimiters (tab
// first in a .tsv file). Where none splits the lines alike, the one that
// splits most rows as the header (mostAlike); else 0.
func sniffDelimiter(head []byte, tsv bool) rune {
	var fits []delimiter
	var split [][][]string
	for _, d := range delimiters {
		if d.r == ' ' && len(fits) > 0 {
			break
		}
		recs := splitHead(head, d.r)
		if alike(recs) {
			fits, split = append(fits, d), append(split, recs)
		}
	}
	best := -1
	for i, d := range fits {
		if best < 0 {
			best = i
			continue
		}
		h, bh := len(split[i][0]), len(split[best][0])
		f, bf := foreign(split[i], d.r, fits), foreign(split[best], fits[best].r, fits)
		if h > bh || (h == bh && (f < bf || (f == bf && tsv && d.r == '\t'))) {
			best = i
		}
	}
	if best < 0 {
		return mostAlike(head)
	}
	return fits[best].r
}

// mostAlike is the separator of a ragged head: the one (space aside)
// that splits the header into two fields or more and most rows into as
// many, more than half of them; 0 when none does. The row that differs
// is then refused naming its line and the separator.
func mostAlike(head []byte) rune {
	var best rune
	most := 0
	for _, d := range delimiters[:len(delimiters)-1] {
		recs := splitHead(head, d.r)
		if len(recs) < 2 || len(recs[0]) < 2 {
			continue
		}
		n := 0
		for _, r := range recs[1:] {
			if len(r) == len(recs[0]) {
				n++
			}
		}
		if n > most && 2*n > len(recs)-1 {
			best, most = d.r, n
		}
	}
	return best
}

// splitHead reads head's records split at r, up to sniffLines, leniently:
// a stray quote or a record cut at the head's end does not stop it.
func splitHead(head []byte, r rune) [][]string {
	cr := csv.NewReader(bytes.NewReader(head))
	cr.Comma, cr.FieldsPerRecord, cr.LazyQuotes = r, -1, true
	cr.TrimLeadingSpace = r == ' '
	var out [][]string
	for len(out) < sniffLines {
		rec, err := cr.Read()
		if err != nil {
			break
		}
		if r == ' ' && len(rec) > 1 && rec[len(rec)-1] == "" {
			rec = rec[:len(rec)-1] // spaces ending the line (lineEndTrimmer)
		}
		out = append(out, rec)
	}
	return out
}

// alike reports whether records split a header into two fields or more
// and every row into as many.
func alike(recs [][]string) bool {
	if len(recs) == 0 || len(recs[0]) < 2 {
		return false
	}
	for _, r := range recs[1:] {
		if len(r) != len(recs[0]) {
			return false
		}
	}
	return true
}

// foreign counts the cells of recs, split at r, that hold another fitting
// separator (space aside): a decimal comma in a number is no separator.
func foreign(recs [][]string, r rune, fits []delimiter) int {
	n := 0
	for _, rec := range recs {
		for _, v := range rec {
			for _, d := range fits {
				if d.r == r || d.r == ' ' || !strings.ContainsRune(v, d.r) {
					continue
				}
				if _, ok := decimalPoint(v); !ok || d.r != ',' {
					n++
					break
				}
			}
		}
	}
	return n
}

// readHead is the whole lines of br's buffer, without consuming them:
// what detection reads. At most the buffer's size; a first line longer
// than that is all there is.
func readHead(br *bufio.Reader) []byte {
	head, err := br.Peek(br.Size())
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil
	}
	if err == nil {
		if i := bytes.LastIndexByte(head, '\n'); i > 0 {
			head = head[:i+1]
		}
	}
	return head
}

// lineEndTrimmer drops the spaces and tabs that end each line: a file
// aligned with spaces would otherwise end each row with an empty field.
type lineEndTrimmer struct {
	br      *bufio.Reader
	pending []byte
	err     error
}

func (t *lineEndTrimmer) Read(p []byte) (int, error) {
	for len(t.pending) == 0 {
		if t.err != nil {
			return 0, t.err
		}
		line, err := t.br.ReadBytes('\n')
		t.err = err
		end := ""
		if l, ok := bytes.CutSuffix(line, []byte("\n")); ok {
			line, end = l, "\n"
			if l, ok := bytes.CutSuffix(line, []byte("\r")); ok {
				line, end = l, "\r\n"
			}
		}
		t.pending = append(bytes.TrimRight(line, " \t"), end...)
	}
	n := copy(p, t.pending)
	t.pending = t.pending[n:]
	return n, nil
}

// decimalPoint rewrites a number written with a decimal comma (7,35;
// -1.234,5 with points grouping thousands; 7,35e-07) with a point, as Go
// reads numbers; false when v is no such number.
func decimalPoint(v string) (string, bool) {
	if strings.IndexByte(v, ',') < 0 {
		return v, false
	}
	whole, frac, _ := strings.Cut(strings.TrimSpace(v), ",")
	sign := ""
	if whole != "" && (whole[0] == '-' || whole[0] == '+') {
		sign, whole = whole[:1], whole[1:]
	}
	groups := strings.Split(whole, ".")
	if !digits(groups[0]) || (len(groups) > 1 && len(groups[0]) > 3) {
		return v, false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 || !digits(g) {
			return v, false
		}
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(frac), "e")
	if hasExp && exp != "" && (exp[0] == '-' || exp[0] == '+') {
		exp = exp[1:]
	}
	if !digits(mant) || (hasExp && !digits(exp)) {
		return v, false
	}
	return sign + strings.Join(groups, "") + "." + frac, true
}

// digits reports whether s is one or more decimal digits.
func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
