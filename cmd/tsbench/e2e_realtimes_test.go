package main

// Times as real files write them, each shape in a small file the test
// writes, replayed by the binary into SQLite with `run --target sqlite
// --data FILE` (and a DATA_* key only where the case is about one): the
// run stores every point at the file's first and last time, read back
// from the database, or exits 2 naming what to set. None lands in 1970 by
// inference.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// measuredRow is a pandas frame with a zoned DatetimeIndex, reset into a
// column and written to Parquet: TIMESTAMP(MICROS, adjusted to UTC).
type measuredRow struct {
	MeasuredOn int64   `parquet:"measured_on,timestamp(microsecond)"`
	Power      float64 `parquet:"power"`
}

// twoStampRow has a second timestamp column, neither named as the time.
type twoStampRow struct {
	MeasuredOn  int64   `parquet:"measured_on,timestamp(microsecond)"`
	InstalledOn int64   `parquet:"installed_on,timestamp(microsecond)"`
	Power       float64 `parquet:"power"`
}

// writeRows writes rows to a Parquet file at path.
func writeRows[T any](t *testing.T, path string, rows []T) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// denver is the zone whose offset changes on 2022-03-13 (summer time).
func denver(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("America/Denver")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestRealTimeShapes(t *testing.T) {
	inParallel(t)
	// Fama-French monthly factors: months as YYYYMM in a column Date.
	famaFrench := rowsOf("Date,Mkt-RF,SMB,HML,RF", 24, func(i int) string {
		return fmt.Sprintf("%d%02d,%.2f,%.2f,%.2f,0.22", 1926+(6+i)/12, 1+(6+i)%12, 2.96-float64(i)/10, -2.3+float64(i)/7, -2.87+float64(i)/9)
	})
	// R's airquality: a row number, then Month and Day without a year.
	airquality := rowsOf(`"","Ozone","Solar.R","Wind","Temp","Month","Day"`, 61, func(i int) string {
		ozone := fmt.Sprint(10 + i%40)
		if i%7 == 3 {
			ozone = "NA"
		}
		d := time.Date(1973, 5, 1+i, 0, 0, 0, 0, time.UTC)
		return fmt.Sprintf(`"%d",%s,%d,%.1f,%d,%d,%d`, i+1, ozone, 100+i, 7+float64(i%9)/2, 60+i%30, int(d.Month()), d.Day())
	})
	// pandas' to_csv of a zoned DatetimeIndex, hourly across the change
	// to summer time: -07:00, then -06:00.
	loc := denver(t)
	pandas := rowsOf("date,load", 48, func(i int) string {
		tm := time.Date(2022, 3, 12, 12, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour).In(loc)
		return fmt.Sprintf("%s,%d.5", tm.Format("2006-01-02 15:04:05-07:00"), i)
	})
	us := time.Date(2022, 1, 20, 7, 0, 0, 0, time.UTC).UnixMicro()
	measured := func(path string) {
		var rows []measuredRow
		for i := int64(0); i < 30; i++ {
			rows = append(rows, measuredRow{us + i*900_000_000, float64(i) / 4})
		}
		writeRows(t, path, rows)
	}
	utc := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	cases := []struct {
		name, file, content string
		write               func(path string) // a binary file, instead of content
		sets                []string
		points              int64     // stored and verified; 0: refused with exit 2
		first, last         time.Time // of the stored points
		want                []string  // in the output
	}{
		{name: "YYYYMM months in a column named Date", file: "F-F_Research_Data_Factors.csv", content: famaFrench,
			points: 24 * 4, first: utc("1926-07-01T00:00:00Z"), last: utc("1928-06-01T00:00:00Z"), want: []string{"1926-07-01T00:00:00Z .. 1928-06-01T00:00:00Z"}},
		{name: "no time column: refused, naming the columns and the keys", file: "airquality.csv", content: airquality,
			want: []string{"no time column", `"Ozone", "Solar.R", "Wind", "Temp", "Month", "Day"`, `column 1 ("") counts the rows, never a time`,
				"would be 1970-01-01T", "DATA_TIME_COLUMN", "DATA_TIME_FORMAT", "DATA_TIME_START", "DATA_TIME_STEP"}},
		{name: "no time column, times from DATA_TIME_START and DATA_TIME_STEP", file: "airquality.csv", content: airquality,
			sets: []string{"DATA_TIME_START=1973-05-01", "DATA_TIME_STEP=1d"}, points: 61*6 - 9,
			first: utc("1973-05-01T00:00:00Z"), last: utc("1973-06-30T00:00:00Z")},
		{name: "pandas' zoned times, offsets changing at summer time", file: "load.csv", content: pandas,
			points: 48, first: utc("2022-03-12T12:00:00Z"), last: utc("2022-03-14T11:00:00Z")},
		{name: "a Parquet TIMESTAMP column named measured_on", file: "power.parquet", write: measured,
			points: 30, first: utc("2022-01-20T07:00:00Z"), last: utc("2022-01-20T14:15:00Z")},
		{name: "a Parquet TIMESTAMP column named by DATA_TIME_COLUMN", file: "power.parquet", write: measured, sets: []string{"DATA_TIME_COLUMN=measured_on"},
			points: 30, first: utc("2022-01-20T07:00:00Z"), last: utc("2022-01-20T14:15:00Z")},
		{name: "two Parquet timestamp columns: refused, asking which", file: "two.parquet", write: func(p string) {
			writeRows(t, p, []twoStampRow{{us, us - 1, 1}, {us + 1000, us - 1, 2}})
		}, want: []string{"several timestamp columns: measured_on", "installed_on", "DATA_TIME_COLUMN"}},
		{name: "two Parquet timestamp columns, DATA_TIME_COLUMN says which", file: "two.parquet", write: func(p string) {
			writeRows(t, p, []twoStampRow{{us, us - 60_000_000, 1}, {us, us, 2}})
		}, sets: []string{"DATA_TIME_COLUMN=installed_on"}, points: 4, first: utc("2022-01-20T06:59:00Z"), last: utc("2022-01-20T07:00:00Z")},
		{name: "small integers in a column named time: refused", file: "ticks.csv", content: rowsOf("time,v", 10, func(i int) string { return fmt.Sprintf("%d,%d", i+1, i) }),
			want: []string{`column time: "1" as s since the epoch would be 1970-01-01T00:00:01Z`, "DATA_TIME_UNIT", "DATA_TIME_FORMAT=%s"}},
		{name: "small integers in 1970 where DATA_TIME_UNIT asks", file: "ticks.csv", content: rowsOf("time,v", 10, func(i int) string { return fmt.Sprintf("%d,%d", i+1, i) }),
			sets: []string{"DATA_TIME_UNIT=s"}, points: 10, first: utc("1970-01-01T00:00:01Z"), last: utc("1970-01-01T00:00:10Z")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, c.file)
			if c.write != nil {
				c.write(path)
			} else {
				writeInputFile(t, dir, c.file, c.content)
			}
			dataDir := filepath.Join(dir, "data")
			args := []string{"run", "--target", "sqlite", "--results", "off", "--data-dir", dataDir, "--data", path}
			for _, s := range c.sets {
				args = append(args, "--set", s)
			}
			r := tsbench(t, nil, args...)
			out := r.stdout + r.stderr
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("want %q in:\n%s", w, tail(out, 30))
				}
			}
			if c.points == 0 {
				if r.code != 2 {
					t.Fatalf("exit %d, want 2 (refused):\n%s", r.code, tail(out, 30))
				}
				if _, err := os.Stat(filepath.Join(dataDir, "sqlite")); err == nil {
					t.Fatal("the run wrote to the database although the data was refused")
				}
				return
			}
			if want := fmt.Sprintf("Verify: stored %d points, expected %d: OK", c.points, c.points); r.code != 0 || !strings.Contains(out, want) {
				t.Fatalf("exit %d, want %q:\n%s", r.code, want, tail(out, 30))
			}
			lo, hi := storedSpan(t, filepath.Join(dataDir, "sqlite", "test.db"))
			if !lo.Equal(c.first) || !hi.Equal(c.last) {
				t.Fatalf("stored %s .. %s, want %s .. %s", lo.Format(time.RFC3339), hi.Format(time.RFC3339), c.first.Format(time.RFC3339), c.last.Format(time.RFC3339))
			}
		})
	}
}

// 'data inspect' prints the span a replay will write, and refuses a
// file it would read in 1970 as the run does.
func TestRealTimeShapesInspected(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	ff := writeInputFile(t, dir, "ff.csv", "Date,Mkt-RF\n192607,2.96\n192608,2.64\n192609,0.36\n")
	r := tsbench(t, nil, "data", "inspect", ff)
	if want := "Span         1926-07-01T00:00:00Z .. 1926-09-01T00:00:00Z (62d)"; r.code != 0 || !strings.Contains(r.stdout, want) ||
		!strings.Contains(r.stdout, "Date: a month as YYYYMM (192607)") {
		t.Fatalf("exit %d, want %q:\n%s%s", r.code, want, r.stdout, r.stderr)
	}
	rows := writeInputFile(t, dir, "rows.csv", `"","Month","Day"`+"\n"+`"1",5,1`+"\n"+`"2",5,2`+"\n")
	r = tsbench(t, nil, "data", "inspect", rows)
	if r.code != 2 || !strings.Contains(r.stderr, "no time column") || !strings.Contains(r.stderr, "DATA_TIME_START") {
		t.Fatalf("exit %d, want 2 and no time column:\n%s%s", r.code, r.stdout, r.stderr)
	}
}
