package dataset

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// Each format's missing values become empty cells: no point, counted in
// the manifest, the dataset version 2.
func TestSparseImports(t *testing.T) {
	cases := []struct {
		name, file, content string
		want                []string
		missing             int64
	}{
		{"wide: empty, null and NaN cells", "w.csv", "time,device,temp,hum\n1000,a,1,\n2000,a, ,2\n3000,a,null,NaN\n1000,b,5,6\n",
			[]string{"a temp 1000000 1", "a hum 2000000 2", "b temp 1000000 5", "b hum 1000000 6"}, 4},
		{"long: a series lacking a time, an empty value", "l.csv", "time,device,sensor,value\n1000,a,t,1\n1000,a,h,2\n2000,a,t,3\n3000,a,h,\n3000,a,t,4\n",
			[]string{"a h 1000000 2", "a t 1000000 1", "a t 2000000 3", "a t 3000000 4"}, 2},
		{"line protocol: a field missing on a line", "m.lp", "cpu,host=a v=1,w=2 1700000000000000000\ncpu,host=a v=3 1700000001000000000\n",
			[]string{"a v 1700000000000 1", "a w 1700000000000 2", "a v 1700000001000 3"}, 1},
		// TSBS devops: each measurement has its own fields; a device (a
		// measurement's host) never has the others'.
		{"line protocol: measurements of other fields", "devops.lp", "cpu,hostname=h1 usage_user=1,usage_idle=2 1700000000000000000\nmem,hostname=h1 used=5i 1700000000000000000\n" +
			"cpu,hostname=h1 usage_user=3,usage_idle=4 1700000010000000000\nmem,hostname=h1 used=6i 1700000010000000000\n",
			[]string{"cpu_h1 usage_idle 1700000000000 2", "cpu_h1 usage_user 1700000000000 1", "cpu_h1 usage_idle 1700000010000 4", "cpu_h1 usage_user 1700000010000 3",
				"mem_h1 used 1700000000000 5", "mem_h1 used 1700000010000 6"}, 6},
		{"prometheus: a series lacking a time, a null and a NaN", "p.jsonl",
			`{"metric":{"__name__":"t","host":"a"},"values":[1,2,null],"timestamps":[1700000000000,1700000060000,1700000120000]}` + "\n" +
				`{"metric":{"__name__":"u","host":"a"},"values":[5,"NaN"],"timestamps":[1700000000000,1700000120000]}` + "\n",
			[]string{"a t 1700000000000 1", "a u 1700000000000 5", "a t 1700000060000 2"}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			m, err := Import(writeTempFile(t, c.file, c.content), dir, ImportOptions{TimeUnit: map[bool]string{true: "s"}[strings.HasSuffix(c.file, ".csv")]})
			if err != nil {
				t.Fatal(err)
			}
			got := points(t, dir)
			if !slices.Equal(got, c.want) || m.Missing != c.missing || m.Points() != int64(len(c.want)) || m.Version != SparseFormatVersion ||
				m.DistinctPoints() != int64(len(c.want)) {
				t.Fatalf("points %q, %d missing, %d points, version %d; want %q, %d missing", got, m.Missing, m.Points(), m.Version, c.want, c.missing)
			}
			in, err := Inspect(filepath.Join(filepath.Dir(writeTempFile(t, c.file, c.content)), c.file), ImportOptions{TimeUnit: map[bool]string{true: "s"}[strings.HasSuffix(c.file, ".csv")]})
			if err != nil || !in.Replayable || in.Missing != c.missing || in.Points != int64(len(c.want)) {
				t.Fatalf("inspection %+v, %v", in, err)
			}
		})
	}
}

// A dense dataset is written as before sparse data existed: version 1,
// no null bitmaps, its manifest without their fields.
func TestDenseFormatUnchanged(t *testing.T) {
	dir := t.TempDir()
	m, err := Import(writeTempFile(t, "d.csv", "time,device,t,h\n1000,a,1,2\n2000,a,3,4\n"), dir, ImportOptions{TimeUnit: "s"})
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, dataName))
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != FormatVersion || bytes.Contains(manifest, []byte("missing")) || len(data) != 2*(8+16) {
		t.Fatalf("version %d, %d bytes of data, manifest:\n%s", m.Version, len(data), manifest)
	}
}

// Batches of a sparse dataset mark its empty cells, across chunks and
// repetitions; their points are the values present; Series leaves the
// empty cells out.
func TestSparseBatches(t *testing.T) {
	// 30000 rows of one device, sensors a (INT64), b (TEXT): b empty every
	// third row, a every seventh: several chunks of 64 KiB.
	const rows = 30000
	var in strings.Builder
	in.WriteString("time,device,a,b\n")
	var missing, bMissing int64
	for i := 0; i < rows; i++ {
		a, b := fmt.Sprint(i), fmt.Sprintf("x%d", i)
		if i%7 == 0 {
			a = ""
			missing++
		}
		if i%3 == 0 {
			b = ""
			missing++
			bMissing++
		}
		fmt.Fprintf(&in, "%d,d,%s,%s\n", 1_000_000+i, a, b)
	}
	dir := t.TempDir()
	m, err := Import(writeTempFile(t, "s.csv", in.String()), dir, ImportOptions{TimeUnit: "ms", Types: map[string]ts.DataType{"b": ts.Text}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Missing != missing || len(m.Devices[0].Chunks) < 2 {
		t.Fatalf("%d missing (want %d), %d chunks", m.Missing, missing, len(m.Devices[0].Chunks))
	}
	ds, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	dev := &ds.Schema("db").Devices[0]
	const batch = 777
	r, b := ds.NewReader(batch, true), ds.NewBatch(batch)
	var points int64
	for n := int64(0); n*batch < 2*rows; n++ { // two repetitions
		if err := r.Fill(b, dev, n); err != nil {
			t.Fatal(err)
		}
		var nulls int64
		for i := range b.Times {
			k := b.Rows[i] % rows
			for c, col := range b.Columns {
				want := !(c == 0 && k%7 == 0 || c == 1 && k%3 == 0)
				if col.Present(i) != want {
					t.Fatalf("batch %d row %d (file row %d) column %d: present %v", n, i, k, c, col.Present(i))
				}
				if !want {
					nulls++
					if v := col.Value(i); v != int64(0) && v != "" {
						t.Fatalf("empty cell holds %v", v)
					}
				} else if c == 0 && col.Int64s[i] != k {
					t.Fatalf("row %d: a = %d", k, col.Int64s[i])
				}
			}
		}
		if b.Nulls != nulls || b.Points() != int64(len(b.Times))*2-nulls {
			t.Fatalf("batch %d: Nulls %d, want %d", n, b.Nulls, nulls)
		}
		for i := range b.Times {
			for c := range b.Columns {
				if b.Rows[i] < 2*rows && b.Columns[c].Present(i) {
					points++
				}
			}
		}
	}
	if points != 2*m.Points() {
		t.Fatalf("two repetitions carried %d points, want %d", points, 2*m.Points())
	}
	s, err := ds.Series(dev, 1, rows)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(s)) != rows-bMissing || s[0].T != 1_000_001 {
		t.Fatalf("series of b: %d points from %d, want %d from 1000001", len(s), s[0].T, rows-bMissing)
	}
}

// Duplicate rows of sparse data: a duplicate row's values repeat a point
// only where an earlier row of that time had a value of the sensor; a
// repeated row's empty cell does not erase the value in Series.
func TestSparseDuplicates(t *testing.T) {
	dir := t.TempDir()
	m, err := Import(writeTempFile(t, "d.csv", "time,device,a,b\n1000,d,1,2\n1000,d,3,\n2000,d,,5\n2000,d,4,6\n"), dir, ImportOptions{TimeUnit: "ms"})
	if err != nil {
		t.Fatal(err)
	}
	if m.DuplicateRows != 2 || m.Missing != 2 || m.Points() != 6 || m.DuplicatePoints != 2 || m.DistinctPoints() != 4 {
		t.Fatalf("duplicate rows %d, missing %d, points %d, duplicate points %d, distinct %d; want 2, 2, 6, 2, 4",
			m.DuplicateRows, m.Missing, m.Points(), m.DuplicatePoints, m.DistinctPoints())
	}
	ds, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	dev := &ds.Schema("db").Devices[0]
	b := ds.NewBatch(4)
	if err := ds.NewReader(4, false).Fill(b, dev, 0); err != nil {
		t.Fatal(err)
	}
	if b.Duplicates != 2 || b.DuplicatePoints != 2 || b.Points() != 6 {
		t.Fatalf("batch: %d duplicate rows, %d duplicate points, %d points", b.Duplicates, b.DuplicatePoints, b.Points())
	}
	for s, want := range map[int][2]float64{0: {3, 4}, 1: {2, 6}} {
		sr, err := ds.Series(dev, s, 4)
		if err != nil {
			t.Fatal(err)
		}
		if len(sr) != 2 || sr[0].V != want[0] || sr[1].V != want[1] {
			t.Fatalf("series %d: %+v, want values %v", s, sr, want)
		}
	}
}

// A dense dataset's duplicate rows repeat every value.
func TestDenseDuplicatePoints(t *testing.T) {
	dir := t.TempDir()
	if _, err := Import(writeTempFile(t, "d.csv", "time,device,a,b\n1000,d,1,2\n1000,d,3,4\n"), dir, ImportOptions{TimeUnit: "ms"}); err != nil {
		t.Fatal(err)
	}
	ds, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	b := ds.NewBatch(2)
	if err := ds.NewReader(2, false).Fill(b, &ds.Schema("db").Devices[0], 0); err != nil {
		t.Fatal(err)
	}
	if b.Duplicates != 1 || b.DuplicatePoints != 2 || ds.DistinctPoints() != 2 {
		t.Fatalf("%d duplicate rows, %d duplicate points, %d distinct", b.Duplicates, b.DuplicatePoints, ds.DistinctPoints())
	}
}
