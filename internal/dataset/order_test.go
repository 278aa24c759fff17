package dataset

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// points lists a dataset's points, device by device, row by row:
// "device sensor time value".
func points(t *testing.T, dir string) []string {
	t.Helper()
	ds, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	var out []string
	schema := ds.Schema("db")
	for i := range schema.Devices {
		dev := &schema.Devices[i]
		d := ds.Devices[i]
		b := ds.NewBatch(int(d.Rows))
		if err := ds.NewReader(int(d.Rows), false).Fill(b, dev, 0); err != nil {
			t.Fatal(err)
		}
		for r, tm := range b.Times {
			for s, c := range b.Columns {
				if !c.Present(r) {
					continue // an empty cell: no point
				}
				out = append(out, fmt.Sprintf("%s %s %d %v", dev.Name, ds.Sensors[s].Name, tm, c.Value(r)))
			}
		}
	}
	return out
}

// weatherLines are a long file's lines, by series: city, sensor, day.
func weatherLines() []string {
	var out []string
	for _, city := range []string{"Seattle", "Oslo", "New York"} {
		for s, sensor := range []string{"temp_max", "temp_min", "wind"} {
			for day := 1; day <= 20; day++ {
				out = append(out, fmt.Sprintf("2012-01-%02d,%s,%s,%d.%d", day, city, sensor, day+s, len(city)))
			}
		}
	}
	return out
}

// wideLines are a wide file's rows, by series: symbol, month.
func wideLines() []string {
	var out []string
	for _, sym := range []string{"MSFT", "AAPL", "IBM"} {
		for m := 1; m <= 12; m++ {
			out = append(out, fmt.Sprintf("%s,2000-%02d-01,%d.5,%d.25", sym, m, 10*m+len(sym), 10*m))
		}
	}
	return out
}

// byTime reorders lines on their date (first field, or second for wide),
// stable.
func byTime(lines []string, field int) []string {
	out := slices.Clone(lines)
	slices.SortStableFunc(out, func(a, b string) int {
		return strings.Compare(strings.Split(a, ",")[field], strings.Split(b, ",")[field])
	})
	return out
}

func shuffled(lines []string) []string {
	out := slices.Clone(lines)
	r := rand.New(rand.NewPCG(1, 2))
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// A file sorted by series, by time or shuffled gives the same dataset,
// long or wide, sorted in memory or through run files.
func TestAnyRowOrder(t *testing.T) {
	long, wide := weatherLines(), wideLines()
	cases := []struct {
		name, header string
		orders       [][]string
		rows         int64
		sortBytes    int
	}{
		{"long", "date,city,sensor,value", [][]string{long, byTime(long, 0), shuffled(long)}, 60, 0},
		{"long through run files", "date,city,sensor,value", [][]string{long, byTime(long, 0), shuffled(long)}, 60, 500},
		{"wide", "symbol,date,open,close", [][]string{wide, byTime(wide, 1), shuffled(wide)}, 36, 0},
		{"wide through run files", "symbol,date,open,close", [][]string{wide, byTime(wide, 1), shuffled(wide)}, 36, 300},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.sortBytes > 0 {
				defer func(old int) { sortBytes = old }(sortBytes)
				sortBytes = c.sortBytes
			}
			var first []string
			for i, lines := range c.orders {
				dir := t.TempDir()
				m, err := Import(writeTempFile(t, "data.csv", c.header+"\n"+strings.Join(lines, "\n")+"\n"), dir, ImportOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if m.Rows != c.rows || len(m.Devices) != 3 || m.DuplicateRows != 0 {
					t.Fatalf("order %d: %d rows of %d devices, %d duplicates", i, m.Rows, len(m.Devices), m.DuplicateRows)
				}
				got := points(t, dir)
				if i == 0 {
					first = got
					continue
				}
				if !slices.Equal(got, first) {
					t.Fatalf("order %d gives another dataset:\n%s\nwant\n%s", i, strings.Join(got[:12], "\n"), strings.Join(first[:12], "\n"))
				}
			}
		})
	}
}

// A device's rows come out in time order whatever the file's; rows that
// repeat a device and time follow its first rows (in time order, the
// file's later value last), so no batch holds a point twice.
func TestRowsSortedByTime(t *testing.T) {
	cases := []struct{ name, content string }{
		{"wide", "time,device,v\n3000,d,3\n2000,d,7\n1000,d,1\n2000,d,2\n1000,d,9\n1000,d,8\n"},
		{"long", "time,device,sensor,value\n3000,d,v,3\n2000,d,v,7\n1000,d,v,1\n2000,d,v,2\n1000,d,v,9\n1000,d,v,8\n"},
	}
	want := []string{"d v 1000 1", "d v 2000 7", "d v 3000 3", "d v 1000 9", "d v 2000 2", "d v 1000 8"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			m, err := Import(writeTempFile(t, "d.csv", c.content), dir, ImportOptions{TimeUnit: "ms"})
			if err != nil {
				t.Fatal(err)
			}
			if got := points(t, dir); !slices.Equal(got, want) || m.DuplicateRows != 3 {
				t.Fatalf("%q (%d duplicates), want %q (3)", got, m.DuplicateRows, want)
			}
		})
	}
}

// Faults found after the sort still name the file, line and column.
func TestSortedInputErrors(t *testing.T) {
	cases := []struct {
		name, content string
		o             ImportOptions
		want          string
	}{
		{"long: a bad value", "date,city,sensor,value\n2012-01-02,Oslo,t,1\n2012-01-01,Oslo,t,abc\n",
			ImportOptions{Types: map[string]ts.DataType{"t": ts.Double}}, `x.csv:3: column value: sensor t: "abc" is not a finite DOUBLE`},
		{"wide: a bad value", "date,city,t\n2012-01-02,Oslo,1\n2012-01-01,Oslo,abc\n",
			ImportOptions{Types: map[string]ts.DataType{"t": ts.Double}}, `x.csv:3: column t: "abc" is not a finite DOUBLE`},
		{"wide: a bad value beside a missing one", "date,city,t,h\n2012-01-02,Oslo,1,2\n2012-01-01,Oslo,,x\n",
			ImportOptions{Types: map[string]ts.DataType{"h": ts.Int64}}, `x.csv:3: column h: "x" is not an INT64`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Import(writeTempFile(t, "x.csv", c.content), t.TempDir(), c.o)
			if !IsInputError(err) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%v, want an InputError with %q", err, c.want)
			}
		})
	}
}
