package dataset

import (
	"slices"
	"testing"

	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/ts"
)

// generated writes rows rows of every device of a generated schema, in
// batches of batch rows, interleaving the devices.
func generated(t testing.TB, types []ts.DataType, devices, rows, batch int) (*Dataset, *gen.Generator, *ts.Schema) {
	t.Helper()
	s := &ts.Schema{Database: "db", Groups: []string{"g0"}, StartTime: 1_700_000_000_000, PointStep: 1000}
	for i, ty := range types {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: "s" + string(rune('0'+i)), Type: ty})
	}
	for i := 0; i < devices; i++ {
		s.Devices = append(s.Devices, ts.Device{Index: i, Name: "d" + string(rune('0'+i))})
	}
	g, err := gen.New(s, gen.Options{Seed: 7, Ratios: [6]float64{1, 1, 1, 1, 1, 1}, StringLength: 5, DoubleLength: -1, BatchSize: batch})
	if err != nil {
		t.Fatal(err)
	}
	m := Manifest{Source: "test", Format: "generated", Groups: s.Groups, Sensors: s.Sensors, Decimals: -1}
	for _, d := range s.Devices {
		m.Devices = append(m.Devices, Device{Name: d.Name, Index: d.Index})
	}
	w, err := Create(t.TempDir(), m)
	if err != nil {
		t.Fatal(err)
	}
	b := g.NewBatch()
	for n := 0; n < rows/batch; n++ {
		for p := range s.Devices {
			g.Fill(b, &s.Devices[p], int64(n), nil)
			if err := w.Write(p, b); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	ds, err := Open(w.dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Close() })
	return ds, g, s
}

// Reading a dataset gives back the generator's batches value for value,
// whatever the batch size of the replay, and with TEXT (variable rows) too.
func TestReplayEqualsTheGenerator(t *testing.T) {
	for _, c := range []struct {
		name      string
		types     []ts.DataType
		readBatch int
	}{
		{"fixed rows, same batches", []ts.DataType{ts.Double, ts.Int64, ts.Boolean, ts.Float, ts.Int32}, 10},
		{"fixed rows, other batches", []ts.DataType{ts.Double, ts.Int32}, 7},
		{"text rows", []ts.DataType{ts.Text, ts.Double, ts.Text}, 10},
		{"text rows, one-row batches", []ts.DataType{ts.Double, ts.Text}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			const rows = 2000 // > one 64 KB chunk of some devices
			ds, g, s := generated(t, c.types, 3, rows, 10)
			if ds.Rows != 3*rows || ds.DuplicateRows != 0 || ds.MinTime != s.StartTime || ds.Step != s.PointStep {
				t.Fatalf("manifest: rows %d, duplicates %d, min %d, step %d", ds.Rows, ds.DuplicateRows, ds.MinTime, ds.Step)
			}
			want := g.NewBatch()
			r := ds.NewReader(c.readBatch, false)
			got := ds.NewBatch(c.readBatch)
			for p := range s.Devices {
				dev := &s.Devices[p]
				k := readAllRows(t, r, got, dev, func(i int, k int64) { checkRow(t, g, want, dev, k, got, i) })
				if k != rows {
					t.Fatalf("device %d: read %d rows of %d", p, k, rows)
				}
			}
		})
	}
}

// readAllRows reads every row of dev through r, batch after batch into got
// until one comes back empty, calling check with each row's place in got
// and its number among the device's rows; it returns how many it read.
func readAllRows(t *testing.T, r *Reader, got *ts.Batch, dev *ts.Device, check func(i int, row int64)) int64 {
	t.Helper()
	var row int64
	for n := int64(0); ; n++ {
		if err := r.Fill(got, dev, n); err != nil {
			t.Fatal(err)
		}
		if got.Len() == 0 {
			return row
		}
		for i := range got.Times {
			check(i, row)
			row++
		}
	}
}

// checkRow compares row i of got with the generator's row k of dev.
func checkRow(t *testing.T, g *gen.Generator, want *ts.Batch, dev *ts.Device, k int64, got *ts.Batch, i int) {
	t.Helper()
	g.Fill(want, dev, k/int64(cap(want.Times)), nil)
	j := int(k % int64(cap(want.Times)))
	if got.Times[i] != want.Times[j] {
		t.Fatalf("device %s row %d: time %d, want %d", dev.Name, k, got.Times[i], want.Times[j])
	}
	for s := range got.Columns {
		if a, b := got.Columns[s].Value(i), want.Columns[s].Value(j); a != b {
			t.Fatalf("device %s row %d sensor %d: %v, want %v", dev.Name, k, s, a, b)
		}
	}
}

// A repeating replay goes on past the last row with times shifted by the
// span; duplicates are counted in every repetition.
func TestRepeatShiftsTimesAndCountsDuplicates(t *testing.T) {
	m := Manifest{Source: "test", Format: "csv-long", Groups: []string{"g"}, Sensors: []ts.Sensor{{Name: "v", Type: ts.Int64}}, Decimals: -1}
	w, err := Create(t.TempDir(), m)
	if err != nil {
		t.Fatal(err)
	}
	p := w.AddDevice(Device{Name: "a"})
	times := []int64{100, 110, 110, 120, 105, 120} // positions 2 and 5 repeat 110 and 120
	for i, tm := range times {
		b := &ts.Batch{Times: []int64{tm}, Columns: []ts.Column{{Type: ts.Int64, Int64s: []int64{int64(i)}}}}
		if err := w.Write(p, b); err != nil {
			t.Fatal(err)
		}
	}
	man, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(man.Devices[0].Duplicates, []int64{2, 5}) || man.DuplicateRows != 2 || man.DistinctPoints() != 4 {
		t.Fatalf("duplicates %v (%d), distinct points %d", man.Devices[0].Duplicates, man.DuplicateRows, man.DistinctPoints())
	}
	if man.Span() != 120-100+10 { // range + the median step (10)
		t.Fatalf("span %d", man.Span())
	}
	ds, err := Open(w.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	r := ds.NewReader(4, true)
	b := ds.NewBatch(4)
	dev := &ts.Device{Index: 0, Name: "a"}
	var gotTimes []int64
	var dups int64
	for n := int64(0); n < 3; n++ {
		if err := r.Fill(b, dev, n); err != nil {
			t.Fatal(err)
		}
		gotTimes = append(gotTimes, b.Times...)
		dups += b.Duplicates
	}
	want := []int64{100, 110, 110, 120, 105, 120, 130, 140, 140, 150, 135, 150}
	if !slices.Equal(gotTimes, want) || dups != 4 {
		t.Fatalf("times %v (duplicates %d), want %v (4)", gotTimes, dups, want)
	}
	// Without repeating, the replay ends at the last row.
	r = ds.NewReader(4, false)
	if err := r.Fill(b, dev, 1); err != nil || b.Len() != 2 {
		t.Fatalf("batch 1 of 6 rows by 4: %d rows, %v", b.Len(), err)
	}
	if err := r.Fill(b, dev, 2); err != nil || b.Len() != 0 {
		t.Fatalf("batch 2: %d rows, %v", b.Len(), err)
	}
}
