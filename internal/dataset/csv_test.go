package dataset

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

func writeTempFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// namedFile is a file's name and content.
type namedFile struct{ name, content string }

// importsAlike imports each file, the same points written differently, in
// a subtest of its name: check judges each import's manifest, and every
// file must give the first file's points, which importsAlike returns.
func importsAlike(t *testing.T, files []namedFile, check func(t *testing.T, m *Manifest)) []string {
	t.Helper()
	var want []string
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			out := t.TempDir()
			m, err := Import(writeTempFile(t, f.name, f.content), out, ImportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			check(t, m)
			got := points(t, out)
			if want == nil {
				want = got
			} else if !slices.Equal(got, want) {
				t.Fatalf("points differ from %s's:\n%v\n%v", files[0].name, got[:min(6, len(got))], want[:min(6, len(want))])
			}
		})
	}
	return want
}

// Layouts, inferred and declared types, time units and duplicates.
func TestCSVImport(t *testing.T) {
	cases := []struct {
		name, file, content string
		o                   ImportOptions
		format              string
		sensors             []ts.Sensor
		devices             []string
		rows, duplicates    int64
		firstTime           int64
	}{
		{name: "long, RFC 3339, consecutive sensors", file: "a.csv",
			content: "Time,Device,Sensor,Value\n2026-01-01T00:00:00Z,d1,t,1\n2026-01-01T00:00:00Z,d1,on,true\n" +
				"2026-01-01T00:00:01Z,d1,t,1.5\n2026-01-01T00:00:01Z,d1,on,false\n2026-01-01T00:00:00Z,d2,t,2\n2026-01-01T00:00:00Z,d2,on,true\n",
			format: "csv-long", sensors: []ts.Sensor{{Name: "on", Type: ts.Boolean}, {Name: "t", Type: ts.Double}}, devices: []string{"d1", "d2"},
			rows: 3, firstTime: 1_767_225_600_000},
		{name: "long, a repeated sensor starts a duplicate row", file: "b.csv",
			content: "time,device,sensor,value\n5000,d,v,1\n5000,d,v,2\n6000,d,v,3\n",
			o:       ImportOptions{TimeUnit: "ms"}, format: "csv-long", sensors: []ts.Sensor{{Name: "v", Type: ts.Int64}}, devices: []string{"d"},
			rows: 3, duplicates: 1, firstTime: 5000},
		{name: "wide, seconds, declared type", file: "c.csv",
			content: "timestamp,device,temp,label\n1767225600,m1,20,ok\n1767225601,m1,21,warm\n",
			o:       ImportOptions{Types: map[string]ts.DataType{"temp": ts.Float}}, format: "csv-wide",
			sensors: []ts.Sensor{{Name: "temp", Type: ts.Float}, {Name: "label", Type: ts.Text}}, devices: []string{"m1"}, rows: 2, firstTime: 1_767_225_600_000},
		{name: "wide without a device column: the file is the device", file: "pump3.tsv",
			content: "time\tflow\n1767225600000000000\t1.25\n1767225600001000000\t1.5\n", format: "csv-wide",
			sensors: []ts.Sensor{{Name: "flow", Type: ts.Double}}, devices: []string{"pump3"}, rows: 2, firstTime: 1_767_225_600_000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := writeTempFile(t, c.file, c.content)
			m, err := Import(src, t.TempDir(), c.o)
			if err != nil {
				t.Fatal(err)
			}
			var devs []string
			for _, d := range m.Devices {
				devs = append(devs, d.Name)
			}
			if m.Format != c.format || !slices.Equal(m.Sensors, c.sensors) || !slices.Equal(devs, c.devices) ||
				m.Rows != c.rows || m.DuplicateRows != c.duplicates || m.MinTime != c.firstTime {
				t.Fatalf("got %s %+v %v rows %d dups %d min %d", m.Format, m.Sensors, devs, m.Rows, m.DuplicateRows, m.MinTime)
			}
		})
	}
}

func TestCSVErrors(t *testing.T) {
	cases := []struct{ file, content, want string }{
		{"a.csv", "time,device,v\n1767225600000,d,1\n1767225601000,d\n", "a.csv:3"},
		{"b.csv", "time,device,v\n1767225600000,d,1\nnow,d,2\n", `b.csv:3: column time: "now" is not a timestamp`},
		{"c.csv", "time,device,sensor,value\n1767225600000,d,x,1\n1767225600000,,y,1\n", "c.csv:3: column device: empty device name"},
		{"d.csv", "", "d.csv: empty file"},
		{"e.json", "{}", "unknown format"},
	}
	for _, c := range cases {
		_, err := Import(writeTempFile(t, c.file, c.content), t.TempDir(), ImportOptions{})
		if !IsInputError(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an InputError with %q", c.file, err, c.want)
		}
	}
}

// A directory of wide files of other sensor columns is sparse data: a
// file's rows have no value of the sensors it lacks.
func TestCSVDirectoryOfDifferentSensors(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"a.csv": "time,device,t,h\n1767225600000,d1,1,2\n",
		"b.csv": "time,device,t\n1767225600000,d2,1\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	m, err := Import(dir, out, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"d1 t 1767225600000 1", "d1 h 1767225600000 2", "d2 t 1767225600000 1"}
	if got := points(t, out); !slices.Equal(got, want) || m.Missing != 1 || m.Points() != 3 {
		t.Fatalf("points %q, %d missing, want %q, 1", got, m.Missing, want)
	}
}

// DATA_TYPES naming a sensor the data does not have is the user's fault,
// in every text format, and the message lists the sensors there are.
func TestTypesNamingNoSensor(t *testing.T) {
	for _, f := range []namedFile{
		{"wide.csv", "time,device,temp,count\n1700000000000,a,1.5,2\n"},
		{"m.lp", "m,host=a temp=1.5,count=2i 1700000000000000000\n"},
		{"export.jsonl", `{"metric":{"__name__":"temp","host":"a"},"values":[1.5],"timestamps":[1700000000000]}` + "\n"},
	} {
		t.Run(f.name, func(t *testing.T) {
			_, err := Import(writeTempFile(t, f.name, f.content), t.TempDir(), ImportOptions{Types: map[string]ts.DataType{"humidity": ts.Double}})
			if !IsInputError(err) || !strings.Contains(err.Error(), `DATA_TYPES names sensor "humidity", which the data does not have; it has `) ||
				!strings.Contains(err.Error(), "temp") {
				t.Fatalf("got %v", err)
			}
		})
	}
}
