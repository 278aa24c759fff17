package dataset

import (
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// The writer keeps no row times: a device out of order has its times read
// back (across chunks, TEXT rows of any length) to find its duplicates;
// one in order has none.
func TestWriterDuplicatesReadBack(t *testing.T) {
	sensors := []ts.Sensor{{Name: "v", Type: ts.Double}, {Name: "note", Type: ts.Text}}
	w, err := Create(t.TempDir(), Manifest{Sensors: sensors})
	if err != nil {
		t.Fatal(err)
	}
	sorted, shuffled := w.AddDevice(Device{Name: "a"}), w.AddDevice(Device{Name: "b"})
	// b: times 0..2999 then 500..509 again, then 42 again: 11 duplicates.
	var bTimes []int64
	for i := int64(0); i < 3000; i++ {
		bTimes = append(bTimes, i)
	}
	for i := int64(500); i < 510; i++ {
		bTimes = append(bTimes, i)
	}
	bTimes = append(bTimes, 42)
	write := func(p int, times []int64) {
		b := &ts.Batch{Columns: make([]ts.Column, 2)}
		b.Columns[0].Type, b.Columns[1].Type = ts.Double, ts.Text
		for _, tm := range times {
			b.Times = append(b.Times, tm)
			b.Columns[0].Doubles = append(b.Columns[0].Doubles, float64(tm))
			b.Columns[1].Texts = append(b.Columns[1].Texts, strings.Repeat("x", int(tm%50)))
		}
		if err := w.Write(p, b); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < len(bTimes); i += 100 {
		write(sorted, []int64{int64(i), int64(i + 1)})
		write(shuffled, bTimes[i:min(len(bTimes), i+100)])
	}
	m, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	for i := int64(3000); i < 3011; i++ {
		want = append(want, i)
	}
	if len(m.Devices[shuffled].Chunks) < 2 || !slices.Equal(m.Devices[shuffled].Duplicates, want) || m.DuplicateRows != 11 ||
		len(m.Devices[sorted].Duplicates) != 0 {
		t.Fatalf("%d chunks, duplicates %v (%d), sorted device's %v", len(m.Devices[shuffled].Chunks), m.Devices[shuffled].Duplicates,
			m.DuplicateRows, m.Devices[sorted].Duplicates)
	}
}
