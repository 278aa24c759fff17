package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/tsbench/tsbench/internal/ts"
)

type wideRow struct {
	Time   int64   `parquet:"time,timestamp(millisecond)"`
	Device string  `parquet:"device"`
	Temp   float64 `parquet:"temp"`
	Count  int64   `parquet:"count"`
	OK     bool    `parquet:"ok"`
	Note   string  `parquet:"note"`
	Load   float32 `parquet:"load"`
}

type longRow struct {
	Time   int64   `parquet:"time"` // plain int64 milliseconds
	Device string  `parquet:"device"`
	Sensor string  `parquet:"sensor"`
	Value  float64 `parquet:"value"`
}

const parquetStart = int64(1_767_225_600_000)

func wideRows(devices, rows int) []wideRow {
	var out []wideRow
	for r := 0; r < rows; r++ {
		for d := 0; d < devices; d++ {
			out = append(out, wideRow{Time: parquetStart + int64(r)*500, Device: "dev" + string(rune('a'+d)),
				Temp: float64(r)*0.25 - float64(d), Count: int64(r * (d + 1)), OK: (r+d)%2 == 0,
				Note: strings.Repeat("x", r%5), Load: float32(r) / 8})
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

// A wide file of several row groups (more rows than one read) imports with
// its columns' types, every value and time exact.
func TestParquetWide(t *testing.T) {
	src := filepath.Join(t.TempDir(), "plant.parquet")
	rows := wideRows(3, 700) // 2,100 rows in row groups of 400
	writeParquet(t, src, rows, 400)
	dir := t.TempDir()
	m, err := Import(src, dir, ImportOptions{Format: "auto", TimeUnit: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Format != "parquet-wide" || m.Rows != 2100 || len(m.Devices) != 3 {
		t.Fatalf("manifest: format %s, %d rows, %d devices", m.Format, m.Rows, len(m.Devices))
	}
	want := []ts.Sensor{{Name: "temp", Type: ts.Double}, {Name: "count", Type: ts.Int64}, {Name: "ok", Type: ts.Boolean},
		{Name: "note", Type: ts.Text}, {Name: "load", Type: ts.Float}}
	for i, s := range m.Sensors {
		if s != want[i] {
			t.Fatalf("sensor %d: %+v, want %+v", i, s, want[i])
		}
	}
	_, got := readAll(t, dir)
	n := map[string]int{}
	for _, r := range rows {
		b := got[r.Device]
		i := n[r.Device]
		n[r.Device]++
		c := b.Columns
		if b.Times[i] != r.Time || c[0].Doubles[i] != r.Temp || c[1].Int64s[i] != r.Count || c[2].Bools[i] != r.OK ||
			c[3].Texts[i] != r.Note || c[4].Floats[i] != r.Load {
			t.Fatalf("%s row %d: time %d %v %v %v %q %v, want %+v", r.Device, i, b.Times[i], c[0].Doubles[i], c[1].Int64s[i],
				c[2].Bools[i], c[3].Texts[i], c[4].Floats[i], r)
		}
	}
}

// A long file (one point per row) gives the same rows as the wide one,
// its value column's type for every sensor.
func TestParquetLongEqualsWide(t *testing.T) {
	var long []longRow
	for _, r := range wideRows(2, 300) {
		long = append(long, longRow{r.Time, r.Device, "temp", r.Temp}, longRow{r.Time, r.Device, "count", float64(r.Count)})
	}
	src := filepath.Join(t.TempDir(), "long.parquet")
	writeParquet(t, src, long, 250)
	dir := t.TempDir()
	m, err := Import(src, dir, ImportOptions{Format: "parquet", TimeUnit: "ms"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Format != "parquet-long" || m.Rows != 600 || m.Sensors[0] != (ts.Sensor{Name: "temp", Type: ts.Double}) ||
		m.Sensors[1] != (ts.Sensor{Name: "count", Type: ts.Double}) {
		t.Fatalf("manifest: %s, %d rows, sensors %+v", m.Format, m.Rows, m.Sensors)
	}
	_, got := readAll(t, dir)
	n := map[string]int{}
	for _, r := range wideRows(2, 300) {
		b, i := got[r.Device], n[r.Device]
		n[r.Device]++
		if b.Times[i] != r.Time || b.Columns[0].Doubles[i] != r.Temp || b.Columns[1].Doubles[i] != float64(r.Count) {
			t.Fatalf("%s row %d differs from the wide file's", r.Device, i)
		}
	}
}

type optionalRow struct {
	Time   int64    `parquet:"time,timestamp(millisecond)"`
	Device string   `parquet:"device"`
	Temp   *float64 `parquet:"temp,optional"`
}

type microRow struct {
	TS    int64   `parquet:"ts"` // plain int64 microseconds
	Value float64 `parquet:"value"`
}

// Bad files fail naming the file, the row and the column; nothing is left.
func TestParquetErrors(t *testing.T) {
	dir := t.TempDir()
	v := 1.5
	nulls := filepath.Join(dir, "nulls.parquet")
	writeParquet(t, nulls, []optionalRow{{parquetStart, "a", &v}, {parquetStart + 1, "a", nil}}, 10)
	notParquet := filepath.Join(dir, "text.parquet")
	if err := os.WriteFile(notParquet, []byte("time,device,v\n1,a,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src, want string
	}{
		{nulls, "nulls.parquet: row 2: column temp: empty value"},
		{notParquet, "text.parquet: not a Parquet file"},
	} {
		out := t.TempDir()
		_, err := Import(c.src, out, ImportOptions{Format: "auto"})
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an InputError with %q", filepath.Base(c.src), err, c.want)
		}
		if IsDataset(out) {
			t.Errorf("%s: a failed import left a dataset", filepath.Base(c.src))
		}
	}
}

// Microsecond integer times are found by magnitude; their sub-millisecond
// parts are cut, and the manifest says how many were.
func TestParquetMicroseconds(t *testing.T) {
	src := filepath.Join(t.TempDir(), "sensor7.parquet")
	us := parquetStart * 1000
	writeParquet(t, src, []microRow{{us, 1}, {us + 1500, 2}, {us + 3000, 3}}, 10)
	dir := t.TempDir()
	m, err := Import(src, dir, ImportOptions{Format: "auto", TimeUnit: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Devices) != 1 || m.Devices[0].Name != "sensor7" || len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "1 timestamps") {
		t.Fatalf("devices %+v, notes %v", m.Devices, m.Notes)
	}
	_, got := readAll(t, dir)
	if b := got["sensor7"]; b.Times[1] != parquetStart+1 || b.Times[2] != parquetStart+3 {
		t.Fatalf("times %v", b.Times)
	}
}
