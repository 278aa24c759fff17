package main

// The shapes real files come in, each written by the test and replayed by
// the binary with `run --target sqlite --data FILE` (and a DATA_* key only
// where the case is about one): every file stores exactly its points,
// verified, or is refused with exit 2 naming where and the key to set.
// None exits 0 with another count.

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// rowsOf is a header and n lines made by line(i).
func rowsOf(header string, n int, line func(i int) string) string {
	var b strings.Builder
	b.WriteString(header + "\n")
	for i := 0; i < n; i++ {
		b.WriteString(line(i) + "\n")
	}
	return b.String()
}

func TestRealFileShapes(t *testing.T) {
	inParallel(t)
	cases := []struct {
		name, file, content string
		sets                []string
		points              int64    // stored and verified; 0: refused
		want                []string // in the output
	}{
		// Item 2: missing cells.
		{"NA, None, #N/A and N/A in a number column are missing", "na.csv",
			"date,v,w\n2020-01-01,1,NA\n2020-01-02,None,2\n2020-01-03,#N/A,N/A\n2020-01-04,4,<NA>\n", nil, 3,
			[]string{`missing cells written as`, `"NA" x1`}},
		{"NA in a TEXT column is kept as text", "text.csv",
			"date,weather,t\n2020-01-01,rain,1\n2020-01-02,NA,2\n2020-01-03,sun,3\n", nil, 6, nil},
		{"DATA_MISSING names a TEXT column's marker", "text.csv",
			"date,weather,t\n2020-01-01,rain,1\n2020-01-02,NA,2\n2020-01-03,sun,3\n", []string{"DATA_MISSING=NA"}, 5, nil},
		// Item 3: times over several columns, row numbers.
		{"year and quarter columns", "macro.csv",
			rowsOf(`"year","quarter","gdp","cpi"`, 12, func(i int) string { return fmt.Sprintf("%d,%d,%d.5,%d", 1959+i/4, 1+i%4, 100+i, 20+i) }), nil, 24,
			[]string{"the time spans columns year,quarter"}},
		{"year, month and day columns", "ymd.csv",
			rowsOf("year,month,day,v", 40, func(i int) string { return fmt.Sprintf("2020,%d,%d,%d", 1+i/28, 1+i%28, i) }), nil, 40, nil},
		{"year and month columns", "ym.csv",
			rowsOf("year,month,v", 24, func(i int) string { return fmt.Sprintf("%d,%d,%d", 2000+i/12, 1+i%12, i) }), nil, 24, nil},
		{"date and time-of-day columns", "dt.csv",
			rowsOf("date,time,v", 48, func(i int) string { return fmt.Sprintf("2020-01-%02d,%02d:00:00,%d", 1+i/24, i%24, i) }), nil, 48, nil},
		{"DATA_TIME_COLUMN names the parts", "yq.csv",
			rowsOf("yr,qtr,v", 8, func(i int) string { return fmt.Sprintf("%d,%d,%d", 1990+i/4, 1+i%4, i) }), []string{"DATA_TIME_COLUMN=yr,qtr"}, 8, nil},
		{"an R row-number column is no time", "rnames.csv",
			rowsOf(`"","time","value"`, 20, func(i int) string { return fmt.Sprintf(`"%d",%g,%d`, i+1, 1945+float64(i)/4, i) }), nil, 20,
			[]string{"counts the rows: a row index"}},
		{"a pandas row-number column, numbered from 0", "pandas.csv",
			rowsOf(",date,v", 10, func(i int) string { return fmt.Sprintf("%d,2020-01-%02d,%d", i, i+1, i) }), nil, 10, nil},
		// Item 4: CSV as it comes.
		{"a byte-order mark", "bom.csv", "\ufeffdate,v\n2020-01-01,1\n2020-01-02,2\n", nil, 2, nil},
		{"comment lines before the header", "comments.csv", "# Data source: somewhere\n# units: C\ndate,v\n2020-01-01,1\n2020-01-02,2\n", nil, 2, nil},
		{"CRLF, quoted headers and trailing spaces", "crlf.csv", "\"date\",\"v\",w \r\n2020-01-01,1,2 \r\n2020-01-02,2,3\r\n", nil, 4, nil},
		// Item 6: rows that fall on one device and time.
		{"a time spanning two columns, unseen, is refused", "collide.csv",
			rowsOf("year,period,v", 40, func(i int) string { return fmt.Sprintf("%d,%d,%d", 2000+i/4, 1+i%4, i) }), nil, 0,
			[]string{"30 of its 40 rows", "collide.csv:2 and", "DATA_TIME_COLUMN", "DATA_DUPLICATES"}},
		{"DATA_DUPLICATES=first keeps the first row of each time", "collide.csv",
			rowsOf("year,period,v", 40, func(i int) string { return fmt.Sprintf("%d,%d,%d", 2000+i/4, 1+i%4, i) }), []string{"DATA_DUPLICATES=first"}, 20, nil},
		{"DATA_DUPLICATES=last: the later values stand, each point once", "collide.csv",
			rowsOf("year,period,v", 40, func(i int) string { return fmt.Sprintf("%d,%d,%d", 2000+i/4, 1+i%4, i) }), []string{"DATA_DUPLICATES=last"}, 20, nil},
		{"a time that cannot be read names the column and the keys", "odd.csv", "date,v\n2020-01-01,1\nsoon,2\n", nil, 0,
			[]string{"odd.csv:3: column date:", "DATA_TIME_FORMAT", "DATA_TIME_COLUMN"}},
		{"day and month that cannot be told apart", "dm.csv", "date,v\n01/02/2020,1\n03/04/2020,2\n", nil, 0,
			[]string{"dm.csv:2: column date:", "DATA_TIME_FORMAT"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := writeInputFile(t, dir, c.file, c.content)
			args := []string{"run", "--target", "sqlite", "--data", path}
			for _, s := range c.sets {
				args = append(args, "--set", s)
			}
			r := tsbench(t, []string{"TSBENCH_DATA_DIR=" + filepath.Join(dir, "data")}, args...)
			out := r.stdout + r.stderr
			if c.points == 0 {
				if r.code != 2 {
					t.Fatalf("exit %d, want 2 (refused):\n%s", r.code, tail(out, 30))
				}
			} else if want := fmt.Sprintf("Verify: stored %d points, expected %d: OK", c.points, c.points); r.code != 0 || !strings.Contains(out, want) {
				t.Fatalf("exit %d, want %q:\n%s", r.code, want, tail(out, 30))
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("want %q in:\n%s", w, tail(out, 30))
				}
			}
		})
	}
}
