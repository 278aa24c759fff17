package tsbs

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The golden files' TSBS command: --seed=123 --scale=4, 2016-01-01 00:00 to
// 01:00 UTC, --log-interval=10s (testdata/golden/README.md).
func goldenConfig(useCase string) ExactConfig {
	start := time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC)
	return ExactConfig{UseCase: useCase, Seed: 123, Scale: 4, Start: start, End: start.Add(time.Hour),
		Interval: 10 * time.Second}
}

// readGolden returns a golden file's bytes, gunzipped if its name ends in .gz.
func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "golden", name))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(name, ".gz") {
		return raw
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// textRow is a row as written in TSBS's timescaledb format: every value as
// text, a field's name taken from the header.
type textRow struct {
	table  string
	tags   [][2]string // key, value
	nanos  int64
	fields [][2]string // name, value
}

// timescaleFile is a parsed timescaledb data file: the header lines as
// written (tags line and one line per table), then the rows.
type timescaleFile struct {
	header []string
	rows   []textRow
}

// parseTimescale reads TSBS's timescaledb format: "tags,key type,..."; one
// "table,field,..." line per table; a blank line; then per row a
// "tags,key=value,..." line and a "table,unix_nanos,value,..." line.
func parseTimescale(data []byte) (*timescaleFile, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	f := &timescaleFile{}
	tables := map[string][]string{}
	line := 0
	for sc.Scan() {
		line++
		if sc.Text() == "" {
			break
		}
		f.header = append(f.header, sc.Text())
		if line > 1 {
			parts := strings.Split(sc.Text(), ",")
			tables[parts[0]] = parts[1:]
		}
	}
	for sc.Scan() {
		line++
		tagLine := sc.Text()
		if !sc.Scan() {
			return nil, fmt.Errorf("line %d: a tags line with no row after it", line)
		}
		line++
		row, err := parseTimescaleRow(tagLine, sc.Text(), tables)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		f.rows = append(f.rows, row)
	}
	return f, sc.Err()
}

func parseTimescaleRow(tagLine, valueLine string, tables map[string][]string) (textRow, error) {
	var row textRow
	tags := strings.Split(tagLine, ",")
	if tags[0] != "tags" {
		return row, fmt.Errorf("want a tags line, got %q", tagLine)
	}
	for _, kv := range tags[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return row, fmt.Errorf("tag %q has no =", kv)
		}
		row.tags = append(row.tags, [2]string{k, v})
	}
	cells := strings.Split(valueLine, ",")
	names, ok := tables[cells[0]]
	if !ok || len(cells) != len(names)+2 {
		return row, fmt.Errorf("row %q does not fit the header's table", valueLine)
	}
	nanos, err := strconv.ParseInt(cells[1], 10, 64)
	if err != nil {
		return row, err
	}
	row.table, row.nanos = cells[0], nanos
	for i, name := range names {
		row.fields = append(row.fields, [2]string{name, cells[i+2]})
	}
	return row, nil
}

// generate runs the generator to its end.
func generate(t *testing.T, c ExactConfig) (*Exact, []ExactRow) {
	t.Helper()
	g, err := NewExact(c)
	if err != nil {
		t.Fatal(err)
	}
	var rows []ExactRow
	for row, ok := g.Next(); ok; row, ok = g.Next() {
		rows = append(rows, row)
	}
	return g, rows
}

func textOf(r ExactRow) textRow {
	out := textRow{table: r.Table, nanos: r.Time.UnixNano()}
	for _, p := range r.Tags {
		out.tags = append(out.tags, [2]string{p.Key, p.Value.Text()})
	}
	for _, p := range r.Fields {
		out.fields = append(out.fields, [2]string{p.Key, p.Value.Text()})
	}
	return out
}

// rowDiffs lists how got differs from want, row by row (0-based rows).
func rowDiffs(want []textRow, got []ExactRow) []string {
	var diffs []string
	if len(want) != len(got) {
		diffs = append(diffs, fmt.Sprintf("%d rows, TSBS wrote %d", len(got), len(want)))
	}
	for i := range min(len(want), len(got)) {
		w, g := want[i], textOf(got[i])
		if w.table != g.table || w.nanos != g.nanos {
			diffs = append(diffs, fmt.Sprintf("row %d: %s at %d, TSBS: %s at %d", i, g.table, g.nanos, w.table, w.nanos))
		}
		diffs = append(diffs, pairDiffs(i, "tag", w.tags, g.tags)...)
		diffs = append(diffs, pairDiffs(i, "field", w.fields, g.fields)...)
	}
	return diffs
}

func pairDiffs(row int, what string, want, got [][2]string) []string {
	if len(want) != len(got) {
		return []string{fmt.Sprintf("row %d: %d %ss, TSBS wrote %d", row, len(got), what, len(want))}
	}
	var diffs []string
	for i := range want {
		if want[i] != got[i] {
			diffs = append(diffs, fmt.Sprintf("row %d: %s %s=%q, TSBS: %s=%q", row, what, got[i][0], got[i][1],
				want[i][0], want[i][1]))
		}
	}
	return diffs
}

// reportDiffs fails with the first few differences.
func reportDiffs(t *testing.T, diffs []string) {
	t.Helper()
	if len(diffs) == 0 {
		return
	}
	const shown = 8
	total := len(diffs)
	if total > shown {
		diffs = diffs[:shown]
	}
	t.Errorf("%d differences from TSBS, the first %d:\n%s", total, len(diffs), strings.Join(diffs, "\n"))
}

// written is what WriteExact writes for c in format.
func written(t *testing.T, c ExactConfig, format string) []byte {
	t.Helper()
	g, err := NewExact(c)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := WriteExact(&b, format, g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// firstLineDiff names the first line where got and want differ.
func firstLineDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got  %s\n TSBS %s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, TSBS wrote %d", len(g), len(w))
}

// TestExactGolden compares the generator's rows with every row TSBS wrote to
// the golden timescaledb files, tag by tag and field by field, then the
// whole file byte for byte.
func TestExactGolden(t *testing.T) {
	cases := []struct {
		useCase, file string
		rows          int
		emptyTags     int // rows with a cleared tag
		emptyFields   int // rows with a cleared field
	}{
		{"cpu-only", "cpu-only_seed123_scale4_1h_10s.timescaledb", 1440, 0, 0},
		{"iot", "iot_seed123_scale4_1h_10s.timescaledb.gz", 2607, 27, 231},
	}
	for _, tc := range cases {
		t.Run(tc.useCase, func(t *testing.T) {
			data := readGolden(t, tc.file)
			want, err := parseTimescale(data)
			if err != nil {
				t.Fatalf("%s: %v", tc.file, err)
			}
			if len(want.rows) != tc.rows {
				t.Fatalf("%s holds %d rows, want %d", tc.file, len(want.rows), tc.rows)
			}
			g, got := generate(t, goldenConfig(tc.useCase))
			if h := exactHeaderLines(g.Header()); strings.Join(h, "\n") != strings.Join(want.header, "\n") {
				t.Errorf("header\n%s\nTSBS wrote\n%s", strings.Join(h, "\n"), strings.Join(want.header, "\n"))
			}
			reportDiffs(t, rowDiffs(want.rows, got))
			if out := written(t, goldenConfig(tc.useCase), "timescaledb"); !bytes.Equal(out, data) {
				t.Errorf("timescaledb text differs from %s at %s", tc.file, firstLineDiff(out, data))
			}
			// The clears the README counts are there (so the comparison
			// above did cover them).
			tags, fields := countMissing(got)
			if tags != tc.emptyTags || fields != tc.emptyFields {
				t.Errorf("%d rows with a cleared tag and %d with a cleared field, want %d and %d",
					tags, fields, tc.emptyTags, tc.emptyFields)
			}
		})
	}
}

func countMissing(rows []ExactRow) (tags, fields int) {
	for _, r := range rows {
		if hasMissing(r.Tags) {
			tags++
		}
		if hasMissing(r.Fields) {
			fields++
		}
	}
	return tags, fields
}

func hasMissing(ps []ExactPair) bool {
	for _, p := range ps {
		if p.Value.Kind == ExactMissing {
			return true
		}
	}
	return false
}

// TestExactGoldenInflux compares the same rows, written as TSBS's influx
// serializer writes them, with the golden influx files line for line.
func TestExactGoldenInflux(t *testing.T) {
	cases := []struct {
		useCase, file string
		lines         int
	}{
		{"cpu-only", "cpu-only_seed123_scale4_1h_10s.influx.gz", 1440},
		{"iot", "iot_seed123_scale4_1h_10s.influx.gz", 2607},
	}
	for _, tc := range cases {
		t.Run(tc.useCase, func(t *testing.T) {
			want := readGolden(t, tc.file)
			if n := bytes.Count(want, []byte("\n")); n != tc.lines {
				t.Fatalf("%s holds %d lines, want %d", tc.file, n, tc.lines)
			}
			if got := written(t, goldenConfig(tc.useCase), "influx"); !bytes.Equal(got, want) {
				t.Errorf("influx text differs from %s at %s", tc.file, firstLineDiff(got, want))
			}
		})
	}
}

// TestExactRefuses: a bad config is refused with the field, the value and
// what is allowed.
func TestExactRefuses(t *testing.T) {
	ok := goldenConfig("iot")
	cases := []struct {
		change func(c *ExactConfig)
		want   string
	}{
		{func(c *ExactConfig) { c.UseCase = "devops" }, `ExactConfig.UseCase = "devops": allowed: cpu-only, iot`},
		{func(c *ExactConfig) { c.UseCase = "" }, `ExactConfig.UseCase = "": allowed: cpu-only, iot`},
		{func(c *ExactConfig) { c.Scale = 0 }, `ExactConfig.Scale = "0": allowed: 1 or more`},
		{func(c *ExactConfig) { c.Scale = -3 }, `ExactConfig.Scale = "-3": allowed: 1 or more`},
		{func(c *ExactConfig) { c.End = c.Start }, `ExactConfig.End = "2016-01-01T00:00:00Z": ` +
			`allowed: after Start (2016-01-01T00:00:00Z)`},
		{func(c *ExactConfig) { c.End = c.Start.Add(-time.Second) }, `ExactConfig.End = "2015-12-31T23:59:59Z": ` +
			`allowed: after Start (2016-01-01T00:00:00Z)`},
		{func(c *ExactConfig) { c.Interval = 0 }, `ExactConfig.Interval = "0s": allowed: more than 0`},
		{func(c *ExactConfig) { c.Interval = -time.Second }, `ExactConfig.Interval = "-1s": allowed: more than 0`},
	}
	for _, tc := range cases {
		c := ok
		tc.change(&c)
		g, err := NewExact(c)
		var e *Error
		if g != nil || !errors.As(err, &e) || err.Error() != tc.want {
			t.Errorf("%+v: got %v, %v; want error %s", c, g, err, tc.want)
		}
	}
}

// TestExactShortSpan: a span shorter than one interval has no epoch, so
// TSBS writes no rows; the generator stops at once.
func TestExactShortSpan(t *testing.T) {
	for _, uc := range ExactUseCases {
		c := goldenConfig(uc)
		c.End = c.Start.Add(5 * time.Second)
		if _, rows := generate(t, c); len(rows) != 0 {
			t.Errorf("%s: %d rows, want 0", uc, len(rows))
		}
	}
}
