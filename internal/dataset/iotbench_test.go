package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// The test directory, as IoT-benchmark's generateDataMode lays it out with
// DEVICE_NUMBER=3, SENSOR_NUMBER=4, GROUP_NUMBER=2, BATCH_SIZE_PER_WRITE=2,
// LOOP=25 and BIG_BATCH_SIZE=2: schema.txt, info.txt and d_<n>/BigBatch_<k>.csv,
// where BigBatch_k holds loops 2k and 2k+1, each a "Sensor,..." header line
// and 2 rows (so BigBatch_0 .. BigBatch_12; BigBatch_12 has one loop).
const (
	iotDevices   = 3
	iotRows      = 50
	iotBatch     = 2 // BATCH_SIZE_PER_WRITE
	iotBigBatch  = 2 // BIG_BATCH_SIZE
	iotStart     = int64(1537372800000)
	iotPointStep = int64(200)
)

// iotSensors are the schema's sensors and IoT-benchmark's type ordinals.
var iotSensors = []struct {
	name    string
	ordinal int
	typ     ts.DataType
}{
	{"s_0", 1, ts.Int32},
	{"s_1", 4, ts.Double},
	{"s_2", 0, ts.Boolean},
	{"s_3", 5, ts.Text},
}

// iotRow is row r of device d: its time, its values and how
// IoT-benchmark's CSVDataWriter prints them.
func iotRow(d, r int) (int64, []any, []string) {
	tm := iotStart + iotPointStep*int64(r+1) // START_TIME + offset + POINT_STEP
	i32 := int32(d*1000 + r - 7)
	dbl, dblText := float64(d)+float64(r)/4, ""
	switch {
	case r%7 == 0:
		dbl, dblText = float64(r+1)*1e7, fmt.Sprintf("%d.0E7", r+1) // Java's Double.toString
	case dbl == float64(int64(dbl)):
		dblText = fmt.Sprintf("%d.0", int64(dbl))
	default:
		dblText = fmt.Sprint(dbl)
	}
	b := r%3 == 0
	txt := fmt.Sprintf("t%dx%d", d, r)
	if r == 5 {
		txt = "a,b" // a comma inside the quotes
	}
	return tm, []any{i32, dbl, b, txt}, []string{fmt.Sprint(i32), dblText, fmt.Sprint(b), `"` + txt + `"`}
}

// writeIoTDir writes the test directory under root.
func writeIoTDir(t *testing.T, root string) {
	t.Helper()
	var schema strings.Builder
	for d := 0; d < iotDevices; d++ {
		for _, s := range iotSensors {
			fmt.Fprintf(&schema, "d_%d %s %d\n", d, s.name, s.ordinal)
		}
	}
	writeFile(t, filepath.Join(root, "schema.txt"), schema.String())
	info := []string{"LOOP=25", "BIG_BATCH_SIZE=2", "FIRST_DEVICE_INDEX=0", "POINT_STEP=200", "TIMESTAMP_PRECISION='ms'",
		"STRING_LENGTH=2", "DOUBLE_LENGTH=2", "INSERT_DATATYPE_PROPORTION='1:1:1:1:1:1'", "DEVICE_NUMBER=3", "SENSOR_NUMBER=4",
		"IS_SENSOR_TS_ALIGNMENT=true", "DATA_SEED=666", "SG_STRATEGY='mod'", "GROUP_NUMBER=2", "BATCH_SIZE_PER_WRITE=2",
		"START_TIME='2018-09-20T00:00:00+08:00'", "IS_COPY_MODE=false", "IS_OUT_OF_ORDER=false"}
	writeFile(t, filepath.Join(root, "info.txt"), strings.Join(info, "\n"))
	header := "Sensor"
	for _, s := range iotSensors {
		header += "," + s.name
	}
	for d := 0; d < iotDevices; d++ {
		files := map[string]*strings.Builder{}
		for loop := 0; loop < iotRows/iotBatch; loop++ {
			name := filepath.Join(root, fmt.Sprintf("d_%d", d), fmt.Sprintf("BigBatch_%d.csv", loop/iotBigBatch))
			f := files[name]
			if f == nil {
				f = &strings.Builder{}
				files[name] = f
			}
			f.WriteString(header + "\n")
			for r := loop * iotBatch; r < (loop+1)*iotBatch; r++ {
				tm, _, texts := iotRow(d, r)
				fmt.Fprintf(f, "%d,%s\n", tm, strings.Join(texts, ","))
			}
		}
		for name, f := range files {
			writeFile(t, name, f.String())
		}
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// setLine replaces line n (1-based) of a file.
func setLine(t *testing.T, name string, n int, text string) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	lines[n-1] = text
	writeFile(t, name, strings.Join(lines, "\n"))
}

// Importing the directory gives back every time and value, the sensor
// types of schema.txt, IoT-benchmark's device names and GROUP_NUMBER groups.
func TestIoTBenchmarkImport(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	writeIoTDir(t, root)
	if _, err := os.Stat(filepath.Join(root, "d_0", "BigBatch_12.csv")); err != nil {
		t.Fatalf("the layout: %v", err)
	}
	m, err := Import(root, dir, ImportOptions{Format: "auto", Groups: 2})
	if err != nil {
		t.Fatal(err)
	}
	if m.Format != "iot-benchmark" || m.Rows != iotDevices*iotRows || m.DuplicateRows != 0 || m.Step != iotPointStep ||
		m.MinTime != iotStart+iotPointStep || m.MaxTime != iotStart+iotPointStep*iotRows {
		t.Fatalf("manifest: format %s, rows %d, duplicates %d, step %d, times %d..%d", m.Format, m.Rows, m.DuplicateRows, m.Step, m.MinTime, m.MaxTime)
	}
	ds, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	if len(ds.Sensors) != len(iotSensors) {
		t.Fatalf("sensors %v", ds.Sensors)
	}
	for i, s := range iotSensors {
		if ds.Sensors[i].Name != s.name || ds.Sensors[i].Type != s.typ {
			t.Fatalf("sensor %d: %s %s, want %s %s", i, ds.Sensors[i].Name, ds.Sensors[i].Type, s.name, s.typ)
		}
	}
	if strings.Join(ds.Groups, ",") != "g_0,g_1" {
		t.Fatalf("groups %v", ds.Groups)
	}
	schema := ds.Schema("db")
	if len(schema.Devices) != iotDevices {
		t.Fatalf("devices %v", schema.Devices)
	}
	const readBatch = 7
	r := ds.NewReader(readBatch, false)
	got := ds.NewBatch(readBatch)
	for d := range schema.Devices {
		dev := &schema.Devices[d]
		if dev.Name != fmt.Sprintf("d_%d", d) || dev.Index != d || dev.Group != d%2 {
			t.Fatalf("device %d: %+v", d, *dev)
		}
		rows := readAllRows(t, r, got, dev, func(i int, row int64) {
			tm, values, _ := iotRow(d, int(row))
			if got.Times[i] != tm {
				t.Fatalf("%s row %d: time %d, want %d", dev.Name, row, got.Times[i], tm)
			}
			for s := range got.Columns {
				if v := got.Columns[s].Value(i); v != values[s] {
					t.Fatalf("%s row %d sensor %s: %#v, want %#v", dev.Name, row, iotSensors[s].name, v, values[s])
				}
			}
		})
		if rows != iotRows {
			t.Fatalf("%s: %d rows, want %d", dev.Name, rows, iotRows)
		}
	}
}

// detect knows the directory by schema.txt (its "<device> <sensor> <type>"
// lines) with info.txt beside it; plain CSV directories stay CSV, even
// with files of those names.
func TestIoTBenchmarkDetect(t *testing.T) {
	root := t.TempDir()
	writeIoTDir(t, root)
	files, err := inputFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	if f, err := detect(files); err != nil || f != "iot-benchmark" {
		t.Fatalf("detect(%v) = %q, %v", files, f, err)
	}
	// Pointing at schema.txt itself is the same directory.
	if !isIoTBenchmark([]string{filepath.Join(root, "schema.txt")}) {
		t.Fatal("schema.txt alone (info.txt beside it) not detected")
	}
	if _, err := Import(filepath.Join(root, "schema.txt"), t.TempDir(), ImportOptions{Format: "iot-benchmark"}); err != nil {
		t.Fatalf("import from schema.txt: %v", err)
	}

	plain := t.TempDir()
	writeFile(t, filepath.Join(plain, "a.csv"), "time,device,s1\n1000,d1,1\n")
	writeFile(t, filepath.Join(plain, "b.csv"), "time,device,s1\n2000,d2,2\n")
	files, _ = inputFiles(plain)
	if f, err := detect(files); err != nil || f != "csv" {
		t.Fatalf("plain CSV: detect = %q, %v", f, err)
	}
	// A CSV directory that has a schema.txt and an info.txt of its own.
	writeFile(t, filepath.Join(plain, "schema.txt"), "time,device,s1\n")
	writeFile(t, filepath.Join(plain, "info.txt"), "exported by hand\n")
	files, _ = inputFiles(plain)
	if isIoTBenchmark(files) {
		t.Fatal("a CSV directory with schema.txt and info.txt taken for IoT-benchmark")
	}
	if f, err := detect(files); err != nil || f != "csv" {
		t.Fatalf("CSV with schema.txt: detect = %q, %v", f, err)
	}
	// An IoT-benchmark schema without info.txt is not enough either.
	lone := t.TempDir()
	writeFile(t, filepath.Join(lone, "schema.txt"), "d_0 s_0 4\n")
	if files, _ = inputFiles(lone); isIoTBenchmark(files) {
		t.Fatal("schema.txt without info.txt detected")
	}
}

// Every fault of the files is an InputError naming the file, the line and,
// for a value, the column.
func TestIoTBenchmarkErrors(t *testing.T) {
	bad := func(d int, batch int) string {
		return filepath.Join(fmt.Sprintf("d_%d", d), fmt.Sprintf("BigBatch_%d.csv", batch))
	}
	_, _, good := iotRow(1, 0)
	row := func(time string, values ...string) string { return time + "," + strings.Join(values, ",") }
	for _, c := range []struct {
		name   string
		break_ func(t *testing.T, root string)
		file   string // relative to root
		line   int64
		column string
		msg    string
	}{
		{"unparsable INT32", func(t *testing.T, root string) {
			setLine(t, filepath.Join(root, bad(1, 3)), 2, row("1537372801000", "abc", good[1], good[2], good[3]))
		}, bad(1, 3), 2, "2 (s_0)", "not an INT32"},
		{"unparsable BOOLEAN", func(t *testing.T, root string) {
			setLine(t, filepath.Join(root, bad(0, 1)), 6, row("1537372801000", good[0], good[1], "yes", good[3]))
		}, bad(0, 1), 6, "4 (s_2)", "not a BOOLEAN"},
		{"wrong number of fields", func(t *testing.T, root string) {
			setLine(t, filepath.Join(root, bad(2, 10)), 5, row("1537372801000", good[0], good[1], good[2]))
		}, bad(2, 10), 5, "", "4 fields, the header on line 4 has 5"},
		{"unparsable time", func(t *testing.T, root string) {
			setLine(t, filepath.Join(root, bad(1, 0)), 3, row("yesterday", good...))
		}, bad(1, 0), 3, "1 (time)", "not a timestamp"},
		{"empty value", func(t *testing.T, root string) {
			setLine(t, filepath.Join(root, bad(0, 12)), 2, row("1537372801000", good[0], "", good[2], good[3]))
		}, bad(0, 12), 2, "3 (s_1)", "empty value"},
		{"null value", func(t *testing.T, root string) {
			setLine(t, filepath.Join(root, bad(0, 12)), 3, row("1537372801000", good[0], good[1], good[2], "null"))
		}, bad(0, 12), 3, "5 (s_3)", "empty value"},
		{"unclosed quote", func(t *testing.T, root string) {
			setLine(t, filepath.Join(root, bad(2, 2)), 2, row("1537372801000", good[0], good[1], good[2], `"abc`))
		}, bad(2, 2), 2, "5", "closing quote"},
		{"header naming one sensor (unaligned data)", func(t *testing.T, root string) {
			setLine(t, filepath.Join(root, bad(1, 4)), 4, "Sensor,s_0")
		}, bad(1, 4), 4, "", "names 1 of device d_1's 4 sensors"},
		{"header naming an unknown sensor", func(t *testing.T, root string) {
			setLine(t, filepath.Join(root, bad(1, 4)), 1, "Sensor,s_0,s_1,s_9,s_3")
		}, bad(1, 4), 1, "4", `"s_9" is not in`},
		{"a device file without a schema entry", func(t *testing.T, root string) {
			writeFile(t, filepath.Join(root, bad(7, 0)), "Sensor,s_0,s_1,s_2,s_3\n"+row("1537372801000", good...)+"\n")
		}, bad(7, 0), 0, "", "device d_7 (its directory) is not in"},
		{"a schema device without files", func(t *testing.T, root string) {
			if err := os.RemoveAll(filepath.Join(root, "d_2")); err != nil {
				t.Fatal(err)
			}
		}, "schema.txt", 9, "", "device d_2 has no directory"},
		{"schema type", func(t *testing.T, root string) {
			setLine(t, filepath.Join(root, "schema.txt"), 6, "d_1 s_1 DOUBLE_PRECISION")
		}, "schema.txt", 6, "3", "IoT-benchmark SensorType"},
		{"schema types disagreeing", func(t *testing.T, root string) {
			setLine(t, filepath.Join(root, "schema.txt"), 7, "d_1 s_2 2")
		}, "schema.txt", 7, "3", "sensor s_2 is INT64, line 3 made it BOOLEAN"},
		{"schema line", func(t *testing.T, root string) {
			setLine(t, filepath.Join(root, "schema.txt"), 2, "d_0 s_1")
		}, "schema.txt", 2, "", "2 fields"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, dir := t.TempDir(), filepath.Join(t.TempDir(), "ds")
			writeIoTDir(t, root)
			c.break_(t, root)
			_, err := Import(root, dir, ImportOptions{Format: "auto"})
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v (%T), want an *InputError", err, err)
			}
			if ie.File != filepath.Join(root, c.file) || ie.Line != c.line || ie.Column != c.column || !strings.Contains(ie.Msg, c.msg) {
				t.Fatalf("error %q\n (file %s, line %d, column %q), want file %s, line %d, column %q, a message with %q",
					err, ie.File, ie.Line, ie.Column, c.file, c.line, c.column, c.msg)
			}
			if IsDataset(dir) {
				t.Fatal("a failed import left a dataset")
			}
		})
	}
}

// IoT-benchmark's other types map to tsbench's (STRING, BLOB and DATE to
// TEXT, TIMESTAMP to INT64), DATA_TYPES overrides them, and timestamps
// in info.txt's TIMESTAMP_PRECISION are cut to milliseconds.
func TestIoTBenchmarkTypesAndPrecision(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(root, "schema.txt"), "d_0 s_str 6\nd_0 s_blob 7\nd_0 s_ts 8\nd_0 s_date 9\nd_0 s_f 3\nd_0 s_i 2\n")
	writeFile(t, filepath.Join(root, "info.txt"), "LOOP=1\nBIG_BATCH_SIZE=100\nTIMESTAMP_PRECISION='us'\n")
	writeFile(t, filepath.Join(root, "d_0", "BigBatch_0.csv"), "Sensor,s_ts,s_str,s_blob,s_date,s_f,s_i\n"+
		"1537372800000123,123456789,\"ab\",\"say \"\"hi\"\"\",2024-01-01,1.5E-4,7\r\n"+
		"1537372800001000,-5,\"\",\"x\",1970-01-02,-3.25,8\r\n")
	m, err := Import(root, dir, ImportOptions{Format: "iot-benchmark", Types: map[string]ts.DataType{"s_i": ts.Double}})
	if err != nil {
		t.Fatal(err)
	}
	want := []ts.Sensor{{Name: "s_str", Type: ts.Text}, {Name: "s_blob", Type: ts.Text}, {Name: "s_ts", Type: ts.Int64},
		{Name: "s_date", Type: ts.Text}, {Name: "s_f", Type: ts.Float}, {Name: "s_i", Type: ts.Double}}
	if fmt.Sprint(m.Sensors) != fmt.Sprint(want) {
		t.Fatalf("sensors %v, want %v", m.Sensors, want)
	}
	if len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "1 timestamps had parts below a millisecond") {
		t.Fatalf("notes %q", m.Notes)
	}
	ds, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	b := ds.NewBatch(10)
	dev := ds.Schema("db").Devices[0]
	if err := ds.NewReader(10, false).Fill(b, &dev, 0); err != nil {
		t.Fatal(err)
	}
	rows := [][]any{
		{"ab", `say "hi"`, int64(123456789), "2024-01-01", float32(1.5e-4), 7.0},
		{"", "x", int64(-5), "1970-01-02", float32(-3.25), 8.0},
	}
	if b.Len() != 2 || b.Times[0] != 1537372800000 || b.Times[1] != 1537372800001 {
		t.Fatalf("times %v", b.Times)
	}
	for i, r := range rows {
		for s, v := range r {
			if got := b.Columns[s].Value(i); got != v {
				t.Fatalf("row %d %s: %#v, want %#v", i, want[s].Name, got, v)
			}
		}
	}
}
