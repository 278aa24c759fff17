//go:build parquet

package dataset

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"

	"github.com/tsbench/tsbench/internal/ts"
)

// parquetStart is 2026-01-01T00:00:00Z in ms.
const parquetStart = int64(1_767_225_600_000)

// wideRow is a wide file's row: a TIMESTAMP(MILLIS) time, a device and a
// sensor of each type.
type wideRow struct {
	Time   int64   `parquet:"time,timestamp(millisecond)"`
	Device string  `parquet:"device,dict"`
	Temp   float64 `parquet:"temp"`
	Count  int64   `parquet:"count"`
	OK     bool    `parquet:"ok"`
	Note   string  `parquet:"note"`
	Load   float32 `parquet:"load"`
}

var wideSensors = []ts.Sensor{{Name: "temp", Type: ts.Double}, {Name: "count", Type: ts.Int64}, {Name: "ok", Type: ts.Boolean},
	{Name: "note", Type: ts.Text}, {Name: "load", Type: ts.Float}}

// wideRows is devices devices' rows interleaved, with values that only
// an exact conversion gives back (fractions, int64s beyond 2^53, UTF-8
// and empty texts).
func wideRows(devices, rows int) []wideRow {
	notes := []string{"", "ok", "température", "a,b \"c\"", "\u65e5\u672c"}
	var out []wideRow
	for r := 0; r < rows; r++ {
		for d := 0; d < devices; d++ {
			out = append(out, wideRow{Time: parquetStart + int64(r)*500, Device: fmt.Sprintf("dev%c", 'A'+d),
				Temp: math.Sin(float64(r))*100 + float64(d)/3, Count: int64(r*(d+1)) - 1<<60, OK: (r+d)%3 == 0,
				Note: notes[(r+d)%len(notes)], Load: float32(r) / 7})
		}
	}
	return out
}

func writeParquet[T any](t *testing.T, path string, rows []T, rowsPerGroup int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f, parquet.MaxRowsPerRowGroup(rowsPerGroup))
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

// readAll returns every device's rows of a dataset, in order.
func readAll(t *testing.T, dir string) (*Dataset, map[string]*ts.Batch) {
	t.Helper()
	ds, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Close() })
	s := ds.Schema("db")
	out := map[string]*ts.Batch{}
	for i := range s.Devices {
		b := ds.NewBatch(int(ds.MaxRows()))
		if err := ds.NewReader(int(ds.MaxRows()), false).Fill(b, &s.Devices[i], 0); err != nil {
			t.Fatal(err)
		}
		out[s.Devices[i].Name] = b
	}
	return ds, out
}

// checkWide compares a dataset with the wide rows it was made from, value
// for value.
func checkWide(t *testing.T, dir string, rows []wideRow) {
	t.Helper()
	_, got := readAll(t, dir)
	n := map[string]int{}
	for _, r := range rows {
		b, i := got[r.Device], n[r.Device]
		n[r.Device]++
		if b == nil || i >= len(b.Times) {
			t.Fatalf("%s: fewer rows than the file's", r.Device)
		}
		c := b.Columns
		if b.Times[i] != r.Time || c[0].Doubles[i] != r.Temp || c[1].Int64s[i] != r.Count || c[2].Bools[i] != r.OK ||
			c[3].Texts[i] != r.Note || c[4].Floats[i] != r.Load {
			t.Fatalf("%s row %d: time %d, %v %v %v %q %v; want %+v", r.Device, i, b.Times[i], c[0].Doubles[i], c[1].Int64s[i],
				c[2].Bools[i], c[3].Texts[i], c[4].Floats[i], r)
		}
	}
	for dev, b := range got {
		if len(b.Times) != n[dev] {
			t.Fatalf("%s: %d rows, the file has %d", dev, len(b.Times), n[dev])
		}
	}
}

// A wide file imports with its columns' types, every value and time exact.
func TestParquetWide(t *testing.T) {
	src := filepath.Join(t.TempDir(), "plant.parquet")
	rows := wideRows(3, 500)
	writeParquet(t, src, rows, 1<<20)
	dir := t.TempDir()
	m, err := Import(src, dir, ImportOptions{Format: "auto", TimeUnit: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Format != "parquet-wide" || m.Rows != 1500 || m.DuplicateRows != 0 || len(m.Devices) != 3 || m.Devices[0].Name != "devA" ||
		m.MinTime != parquetStart || m.MaxTime != parquetStart+499*500 || m.Step != 500 || len(m.Notes) != 0 {
		t.Fatalf("manifest: %s, %d rows (%d duplicates), %d devices, times %d..%d step %d, notes %v",
			m.Format, m.Rows, m.DuplicateRows, len(m.Devices), m.MinTime, m.MaxTime, m.Step, m.Notes)
	}
	if !reflect.DeepEqual(m.Sensors, wideSensors) {
		t.Fatalf("sensors %+v, want %+v", m.Sensors, wideSensors)
	}
	checkWide(t, dir, rows)
}

// longText is a long file whose values are text: DATA_TYPES gives each
// sensor its type.
type longText struct {
	Time   int64  `parquet:"time,timestamp(millisecond)"`
	Device string `parquet:"device"`
	Sensor string `parquet:"sensor,dict"`
	Value  string `parquet:"value"`
}

// longDouble is a long file of DOUBLE values (every sensor's type) and
// plain int64 ms times.
type longDouble struct {
	Time   int64   `parquet:"TS"`
	Device string  `parquet:"Device"`
	Sensor string  `parquet:"Sensor"`
	Value  float64 `parquet:"Value"`
}

type wideDouble struct {
	Time   int64   `parquet:"time"`
	Device string  `parquet:"device"`
	Temp   float64 `parquet:"temp"`
	Count  float64 `parquet:"count"`
}

// A long file (one point per row) gives the dataset its wide equivalent
// gives: same sensors, devices, rows, duplicates, times and values.
func TestParquetLongEqualsWide(t *testing.T) {
	rows := wideRows(2, 300)
	rows = append(rows, rows[len(rows)-1]) // a row again: a duplicate
	rows[len(rows)-1].Temp = -1
	cases := []struct {
		name       string
		write      func(long, wide string)
		o          ImportOptions
		sensors    []ts.Sensor
		duplicates int64
	}{
		{name: "text values, declared types", o: ImportOptions{TimeUnit: "auto",
			Types: map[string]ts.DataType{"temp": ts.Double, "count": ts.Int64, "ok": ts.Boolean, "note": ts.Text, "load": ts.Float}},
			write: func(long, wide string) {
				var lr []longText
				for _, r := range rows {
					for i, v := range []string{strconv.FormatFloat(r.Temp, 'g', -1, 64), strconv.FormatInt(r.Count, 10),
						strconv.FormatBool(r.OK), r.Note, strconv.FormatFloat(float64(r.Load), 'g', -1, 32)} {
						lr = append(lr, longText{r.Time, r.Device, wideSensors[i].Name, v})
					}
				}
				writeParquet(t, long, lr, 777) // row groups end inside rows
				writeParquet(t, wide, rows, 1<<20)
			}, sensors: wideSensors, duplicates: 1},
		{name: "double values, the value column's type", o: ImportOptions{TimeUnit: "ms"},
			write: func(long, wide string) {
				var lr []longDouble
				var wr []wideDouble
				for _, r := range rows {
					lr = append(lr, longDouble{r.Time, r.Device, "temp", r.Temp}, longDouble{r.Time, r.Device, "count", float64(r.Count)})
					wr = append(wr, wideDouble{r.Time, r.Device, r.Temp, float64(r.Count)})
				}
				writeParquet(t, long, lr, 1<<20)
				writeParquet(t, wide, wr, 1<<20)
			}, sensors: []ts.Sensor{{Name: "temp", Type: ts.Double}, {Name: "count", Type: ts.Double}}, duplicates: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			long, wide := filepath.Join(t.TempDir(), "long.parquet"), filepath.Join(t.TempDir(), "wide.parquet")
			c.write(long, wide)
			longDir, wideDir := t.TempDir(), t.TempDir()
			ml, err := Import(long, longDir, c.o)
			if err != nil {
				t.Fatal(err)
			}
			mw, err := Import(wide, wideDir, c.o)
			if err != nil {
				t.Fatal(err)
			}
			if ml.Format != "parquet-long" || mw.Format != "parquet-wide" {
				t.Fatalf("formats %s and %s", ml.Format, mw.Format)
			}
			if !reflect.DeepEqual(ml.Sensors, c.sensors) || !reflect.DeepEqual(mw.Sensors, c.sensors) {
				t.Fatalf("sensors: long %+v, wide %+v, want %+v", ml.Sensors, mw.Sensors, c.sensors)
			}
			if ml.Rows != int64(len(rows)) || ml.DuplicateRows != c.duplicates || !reflect.DeepEqual(ml.Devices, mw.Devices) ||
				ml.MinTime != mw.MinTime || ml.MaxTime != mw.MaxTime || ml.Step != mw.Step || ml.DuplicateRows != mw.DuplicateRows {
				t.Fatalf("manifests differ:\nlong %+v\nwide %+v", ml, mw)
			}
			_, gl := readAll(t, longDir)
			_, gw := readAll(t, wideDir)
			for dev, bw := range gw {
				bl := gl[dev]
				if !reflect.DeepEqual(bl.Times, bw.Times) || !reflect.DeepEqual(bl.Columns, bw.Columns) {
					t.Fatalf("device %s: the long file's rows differ from the wide file's", dev)
				}
			}
			if c.sensors[0].Type == ts.Double && len(c.sensors) == 5 {
				checkWide(t, longDir, rows)
			}
		})
	}
}

type nullRow struct {
	Time   int64    `parquet:"time,timestamp(millisecond)"`
	Device string   `parquet:"device"`
	Temp   *float64 `parquet:"temp,optional"`
}

type nullDeviceRow struct {
	Time   int64   `parquet:"time,timestamp(millisecond)"`
	Device *string `parquet:"device,optional"`
	Temp   float64 `parquet:"temp"`
}

type noTimeRow struct {
	Device string  `parquet:"device"`
	Temp   float64 `parquet:"temp"`
}

type doubleTimeRow struct {
	Time float64 `parquet:"Timestamp"`
	Temp float64 `parquet:"temp"`
}

type otherSchemaRow struct {
	Time   int64  `parquet:"time,timestamp(millisecond)"`
	Device string `parquet:"device"`
	Temp   string `parquet:"temp"` // TEXT where the first file has DOUBLE
}

// A null value of a wide file, and a long file's sensor without a row at
// a time, are missing values: sparse data, no points.
func TestParquetSparse(t *testing.T) {
	v := 1.5
	dir := t.TempDir()
	wide := filepath.Join(dir, "nulls.parquet")
	writeParquet(t, wide, []nullRow{{parquetStart, "a", &v}, {parquetStart + 1, "a", &v}, {parquetStart + 2, "a", nil}}, 2)
	long := filepath.Join(dir, "gap.parquet")
	writeParquet(t, long, []longDouble{{5, "a", "x", 1}, {5, "a", "y", 2}, {6, "a", "x", 3}, {7, "a", "x", 4}, {7, "a", "y", 5}}, 10)
	for _, c := range []struct {
		src     string
		want    []string
		missing int64
	}{
		{wide, []string{"a temp 1767225600000 1.5", "a temp 1767225600001 1.5"}, 1},
		{long, []string{"a x 5000 1", "a y 5000 2", "a x 6000 3", "a x 7000 4", "a y 7000 5"}, 1},
	} {
		out := t.TempDir()
		// The long file's times are plain integers near the epoch: seconds
		// because DATA_TIME_UNIT says so, not by inference.
		m, err := Import(c.src, out, ImportOptions{Format: "parquet", TimeUnit: "s"})
		if err != nil {
			t.Fatal(err)
		}
		if got := points(t, out); !slices.Equal(got, c.want) || m.Missing != c.missing {
			t.Errorf("%s: points %q, %d missing; want %q, %d", c.src, got, m.Missing, c.want, c.missing)
		}
	}
}

// Bad files fail with an InputError naming the file, the column and the
// row; nothing is left that opens as a dataset.
func TestParquetErrors(t *testing.T) {
	v := 1.5
	dev := "a"
	// twoFiles is a directory of two files: 1.parquet of time, device and
	// temp, and the 2.parquet writeSecond writes.
	twoFiles := func(dir string, writeSecond func(path string)) string {
		src := filepath.Join(dir, "src")
		os.Mkdir(src, 0o755)
		writeParquet(t, filepath.Join(src, "1.parquet"), []nullRow{{parquetStart, "a", &v}}, 10)
		writeSecond(filepath.Join(src, "2.parquet"))
		return src
	}
	cases := []struct {
		name   string
		write  func(dir string) string // the source to import
		column string
		want   []string
	}{
		{"a null device", func(dir string) string {
			p := filepath.Join(dir, "nodev.parquet")
			writeParquet(t, p, []nullDeviceRow{{parquetStart, &dev, 1}, {parquetStart, nil, 2}}, 10)
			return p
		}, "device", []string{"row 2", "null device name"}},
		{"no time column", func(dir string) string {
			p := filepath.Join(dir, "notime.parquet")
			writeParquet(t, p, []noTimeRow{{"a", 1}}, 10)
			return p
		}, "time", []string{"notime.parquet: column time: no time column", "device, temp"}},
		{"a DOUBLE time column", func(dir string) string {
			p := filepath.Join(dir, "dtime.parquet")
			writeParquet(t, p, []doubleTimeRow{{1, 1}}, 10)
			return p
		}, "Timestamp", []string{"a time column of type DOUBLE"}},
		{"a NaN", func(dir string) string {
			p := filepath.Join(dir, "nan.parquet")
			nan := math.NaN()
			writeParquet(t, p, []nullRow{{parquetStart, "a", &v}, {parquetStart + 1, "a", &nan}}, 10)
			return p
		}, "temp", []string{"row 2", "not a finite DOUBLE"}},
		{"files of two schemas", func(dir string) string {
			return twoFiles(dir, func(p string) { writeParquet(t, p, []otherSchemaRow{{parquetStart, "b", "x"}}, 10) })
		}, "temp", []string{"2.parquet: column temp: of type STRING", "one schema"}},
		{"files of other columns", func(dir string) string {
			return twoFiles(dir, func(p string) { writeParquet(t, p, []wideDouble{{parquetStart, "b", 1, 2}}, 10) })
		}, "", []string{"2.parquet: columns time, device, temp, count", "one schema"}},
		{"not a Parquet file", func(dir string) string {
			p := filepath.Join(dir, "text.parquet")
			if err := os.WriteFile(p, []byte("time,device,v\n1,a,2\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}, "", []string{"text.parquet: not a Parquet file"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := c.write(t.TempDir())
			out := t.TempDir()
			_, err := Import(src, out, ImportOptions{Format: "parquet", TimeUnit: "auto"})
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("%v, want an InputError", err)
			}
			if ie.Column != c.column {
				t.Errorf("column %q, want %q (%v)", ie.Column, c.column, err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v, want %q in it", err, w)
				}
			}
			if IsDataset(out) {
				t.Errorf("a failed import left a dataset")
			}
		})
	}
}

type microRow struct {
	TS    int64   `parquet:"ts"` // plain int64
	Value float64 `parquet:"value"`
}

type microStampRow struct {
	Time  int64   `parquet:"time,timestamp(microsecond)"`
	Value float64 `parquet:"value"`
}

type nanoStampRow struct {
	Time  int64   `parquet:"time,timestamp(nanosecond)"`
	Value float64 `parquet:"value"`
}

type textTimeRow struct {
	Time  string  `parquet:"Time"`
	Value float64 `parquet:"value"`
}

type int96Row struct {
	Time  deprecated.Int96 `parquet:"t"`
	Value float64          `parquet:"value"`
}

func int96Of(ns int64) deprecated.Int96 {
	const nsPerDay = 86_400 * 1_000_000_000
	day, nanos := ns/nsPerDay+julianEpoch, uint64(ns%nsPerDay)
	return deprecated.Int96{uint32(nanos), uint32(nanos >> 32), uint32(day)}
}

// Times below a millisecond (plain integers of µs, TIMESTAMPs of µs and ns,
// RFC 3339, INT96) are cut to ms, and the manifest's note counts them.
func TestParquetSubMillisecond(t *testing.T) {
	us := parquetStart * 1000
	offsets := []int64{0, 1500, 3000, 4001} // µs: two with a part below 1 ms
	wantMs := []int64{parquetStart, parquetStart + 1, parquetStart + 3, parquetStart + 4}
	// Plain integers of µs, read as µs by their magnitude or by the unit.
	writeMicros := func(p string) {
		var rows []microRow
		for i, o := range offsets {
			rows = append(rows, microRow{us + o, float64(i)})
		}
		writeParquet(t, p, rows, 10)
	}
	cases := []struct {
		name  string
		unit  string
		write func(path string)
	}{
		{"plain int64 µs, unit by magnitude", "auto", writeMicros},
		{"plain int64 µs, DATA_TIME_UNIT us", "us", writeMicros},
		{"TIMESTAMP(MICROS), whatever DATA_TIME_UNIT says", "s", func(p string) {
			var rows []microStampRow
			for i, o := range offsets {
				rows = append(rows, microStampRow{us + o, float64(i)})
			}
			writeParquet(t, p, rows, 10)
		}},
		{"TIMESTAMP(NANOS)", "auto", func(p string) {
			var rows []nanoStampRow
			for i, o := range offsets {
				rows = append(rows, nanoStampRow{(us + o) * 1000, float64(i)})
			}
			writeParquet(t, p, rows, 10)
		}},
		{"RFC 3339 text", "auto", func(p string) {
			var rows []textTimeRow
			for i, o := range offsets {
				rows = append(rows, textTimeRow{fmt.Sprintf("2026-01-01T00:00:00.%06dZ", o), float64(i)})
			}
			writeParquet(t, p, rows, 10)
		}},
		{"INT96", "auto", func(p string) {
			var rows []int96Row
			for i, o := range offsets {
				rows = append(rows, int96Row{int96Of((us + o) * 1000), float64(i)})
			}
			writeParquet(t, p, rows, 10)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := filepath.Join(t.TempDir(), "sensor7.parquet")
			c.write(src)
			dir := t.TempDir()
			m, err := Import(src, dir, ImportOptions{TimeUnit: c.unit})
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Devices) != 1 || m.Devices[0].Name != "sensor7" || len(m.Notes) != 1 ||
				!strings.HasPrefix(m.Notes[0], "2 timestamps had parts below a millisecond") {
				t.Fatalf("devices %+v, notes %q", m.Devices, m.Notes)
			}
			_, got := readAll(t, dir)
			if b := got["sensor7"]; !reflect.DeepEqual(b.Times, wantMs) || !reflect.DeepEqual(b.Columns[0].Doubles, []float64{0, 1, 2, 3}) {
				t.Fatalf("times %v values %v, want times %v", b.Times, b.Columns[0].Doubles, wantMs)
			}
		})
	}
}

type streamRow struct {
	Time  int64   `parquet:"time"` // plain int64 s
	Value float64 `parquet:"value"`
	Seq   int32   `parquet:"seq"`
}

// Files of more rows than one read, in several row groups, stream through
// (rows and long groups crossing reads and row groups).
func TestParquetStreamsRowGroups(t *testing.T) {
	const n = 5000
	var wide []streamRow
	var long []longDouble
	for i := 0; i < n; i++ {
		wide = append(wide, streamRow{1_700_000_000 + int64(i), float64(i) / 4, int32(i)})
		long = append(long, longDouble{1_700_000_000_000 + int64(i/2)*1000, "d", []string{"a", "b"}[i%2], float64(i)})
	}
	dir := t.TempDir()
	wideSrc, longSrc := filepath.Join(dir, "stream.parquet"), filepath.Join(dir, "streamlong.parquet")
	writeParquet(t, wideSrc, wide, 700)
	writeParquet(t, longSrc, long, 701)
	for _, src := range []string{wideSrc, longSrc} {
		f, err := openParquet(src)
		if err != nil {
			t.Fatal(err)
		}
		if g := len(f.pf.RowGroups()); g < 7 {
			t.Fatalf("%s: %d row groups", src, g)
		}
		f.close()
	}

	out := t.TempDir()
	m, err := Import(wideSrc, out, ImportOptions{TimeUnit: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Rows != n || m.Step != 1000 || m.Sensors[1] != (ts.Sensor{Name: "seq", Type: ts.Int32}) {
		t.Fatalf("wide: %d rows, step %d, sensors %+v", m.Rows, m.Step, m.Sensors)
	}
	_, got := readAll(t, out)
	b := got["stream"]
	for i := 0; i < n; i++ {
		if b.Times[i] != (1_700_000_000+int64(i))*1000 || b.Columns[0].Doubles[i] != float64(i)/4 || b.Columns[1].Int32s[i] != int32(i) {
			t.Fatalf("wide row %d: %d %v %d", i, b.Times[i], b.Columns[0].Doubles[i], b.Columns[1].Int32s[i])
		}
	}

	out = t.TempDir()
	if m, err = Import(longSrc, out, ImportOptions{TimeUnit: "auto"}); err != nil {
		t.Fatal(err)
	}
	if m.Rows != n/2 || m.DuplicateRows != 0 || len(m.Sensors) != 2 {
		t.Fatalf("long: %d rows, %d duplicates, sensors %+v", m.Rows, m.DuplicateRows, m.Sensors)
	}
	_, got = readAll(t, out)
	b = got["d"]
	for i := 0; i < n/2; i++ {
		if b.Times[i] != 1_700_000_000_000+int64(i)*1000 || b.Columns[0].Doubles[i] != float64(2*i) || b.Columns[1].Doubles[i] != float64(2*i+1) {
			t.Fatalf("long row %d: %d %v %v", i, b.Times[i], b.Columns[0].Doubles[i], b.Columns[1].Doubles[i])
		}
	}
}

type typesRow struct {
	Time  int64    `parquet:"time,timestamp(millisecond)"`
	Price int32    `parquet:"price,decimal(2:9)"`
	Big   int64    `parquet:"big,decimal(3:18)"`
	Count uint32   `parquet:"count,uint(32)"`
	Day   int32    `parquet:"day,date"`
	ID    [16]byte `parquet:"id,uuid"`
	Seen  int64    `parquet:"seen,timestamp(microsecond)"`
	Small int32    `parquet:"small"`
	Kind  string   `parquet:"kind,enum"`
	Dec   [4]byte  `parquet:"dec,decimal(1:9)"` // big-endian two's complement
}

// Parquet's logical types become sensor types; declared types convert
// exactly as CSV text does; a directory of files of one schema and no
// device column is one device per file.
func TestParquetTypes(t *testing.T) {
	src := t.TempDir()
	id := [16]byte{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0, 1, 2, 3, 4, 5, 6, 7}
	writeParquet(t, filepath.Join(src, "m1.parquet"), []typesRow{
		{parquetStart, 1234, -5, 4_000_000_000, 20454, id, 1_767_225_600_123_456, 7, "x", [4]byte{0xff, 0xff, 0xff, 0xe7}},
		{parquetStart + 1000, -5, 123_456_789, 1, -1, id, 0, 8, "y", [4]byte{0x07, 0x5b, 0xcd, 0x15}}}, 10)
	writeParquet(t, filepath.Join(src, "m2.parquet"), []typesRow{{parquetStart, 1, 1, 2, 3, id, 4, 5, "z", [4]byte{}}}, 10)
	dir := t.TempDir()
	m, err := Import(src, dir, ImportOptions{Types: map[string]ts.DataType{"small": ts.Text, "count": ts.Double}})
	if err != nil {
		t.Fatal(err)
	}
	want := []ts.Sensor{{Name: "price", Type: ts.Double}, {Name: "big", Type: ts.Double}, {Name: "count", Type: ts.Double},
		{Name: "day", Type: ts.Int32}, {Name: "id", Type: ts.Text}, {Name: "seen", Type: ts.Int64}, {Name: "small", Type: ts.Text},
		{Name: "kind", Type: ts.Text}, {Name: "dec", Type: ts.Double}}
	if !reflect.DeepEqual(m.Sensors, want) || len(m.Devices) != 2 || m.Devices[0].Name != "m1" || m.Devices[1].Name != "m2" {
		t.Fatalf("sensors %+v, devices %+v", m.Sensors, m.Devices)
	}
	_, got := readAll(t, dir)
	b := got["m1"]
	c := b.Columns
	if c[0].Doubles[0] != 12.34 || c[0].Doubles[1] != -0.05 || c[1].Doubles[0] != -0.005 || c[1].Doubles[1] != 123456.789 ||
		c[2].Doubles[0] != 4e9 || c[3].Int32s[0] != 20454 || c[3].Int32s[1] != -1 ||
		c[4].Texts[0] != "12345678-9abc-def0-0001-020304050607" || c[5].Int64s[0] != 1_767_225_600_123_456 ||
		c[6].Texts[1] != "8" || c[7].Texts[1] != "y" || c[8].Doubles[0] != -2.5 || c[8].Doubles[1] != 12345678.9 {
		t.Fatalf("values: %+v", c)
	}
	if got["m2"].Times[0] != parquetStart || got["m2"].Columns[7].Texts[0] != "z" {
		t.Fatalf("m2: %+v", got["m2"])
	}
}

// A Parquet file's inspection names its columns; its types are the file's.
func TestInspectParquet(t *testing.T) {
	src := filepath.Join(t.TempDir(), "plant.parquet")
	writeParquet(t, src, wideRows(3, 50), 1<<20)
	in, err := Inspect(src, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if in.Format != "parquet-wide" || in.Time.Column != "time" || !slices.Equal(in.DeviceColumns, []string{"device"}) ||
		len(in.Sensors) != len(wideSensors) || in.Sensors[0].Type != wideSensors[0].Type.String() || in.Rows != 150 || !in.Replayable {
		t.Fatalf("got %+v", in)
	}
}
