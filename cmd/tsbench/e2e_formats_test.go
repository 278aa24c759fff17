package main

// More formats, replayed by the binary into SQLite and PostgreSQL with
// the verification and query answers checked against the test's data: an
// InfluxDB line-protocol export, a Prometheus/VictoriaMetrics JSON-line
// export and a gzip-compressed CSV file. And 'tsbench data inspect' on a
// file the test writes.

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/dataset"
)

// lpValue writes a point's value as line protocol types it: count an
// integer (1i); ok a boolean and temp a float as the CSV writes them.
func lpValue(p userPoint) string {
	if p.sensor == "count" {
		return p.text + "i"
	}
	return p.text
}

// writeInfluxExport writes the data as influx_inspect export does: its
// header, then one field per line, series by series (device, field),
// nanosecond times; the file's duplicate row comes last, as a later
// shard's would.
func writeInfluxExport(t *testing.T, path string, pts []userPoint) {
	var b strings.Builder
	b.WriteString("# INFLUXDB EXPORT: 1677-09-21T00:12:43Z - 2262-04-11T23:47:16Z\n# DDL\nCREATE DATABASE plant WITH NAME autogen\n" +
		"# DML\n# CONTEXT-DATABASE:plant\n# CONTEXT-RETENTION-POLICY:autogen\n# writing tsm data\n")
	body, dup := pts[:len(pts)-len(userSensors)], pts[len(pts)-len(userSensors):]
	for _, dev := range userDevices {
		for _, sensor := range userSensors {
			for _, p := range body {
				if p.device == dev && p.sensor == sensor {
					fmt.Fprintf(&b, "plant,device=%s %s=%s %d\n", p.device, p.sensor, lpValue(p), p.t*1_000_000)
				}
			}
		}
	}
	for _, p := range dup {
		fmt.Fprintf(&b, "plant,device=%s %s=%s %d\n", p.device, p.sensor, lpValue(p), p.t*1_000_000)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writePromExport writes the data as /api/v1/export does: a series a
// line; the duplicate row's points as series lines of their own, last.
func writePromExport(t *testing.T, path string, pts []userPoint) {
	var b strings.Builder
	line := func(dev, sensor string, ps []userPoint) {
		var vs, tss []string
		for _, p := range ps {
			vs, tss = append(vs, fmt.Sprint(p.v)), append(tss, fmt.Sprint(p.t))
		}
		fmt.Fprintf(&b, `{"metric":{"__name__":%q,"device":%q},"values":[%s],"timestamps":[%s]}`+"\n", sensor, dev, strings.Join(vs, ","), strings.Join(tss, ","))
	}
	body, dup := pts[:len(pts)-len(userSensors)], pts[len(pts)-len(userSensors):]
	for _, dev := range userDevices {
		for _, sensor := range userSensors {
			var ps []userPoint
			for _, p := range body {
				if p.device == dev && p.sensor == sensor {
					ps = append(ps, p)
				}
			}
			line(dev, sensor, ps)
		}
	}
	for _, p := range dup {
		line(p.device, p.sensor, []userPoint{p})
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gzipFile compresses a file into path.
func gzipFile(t *testing.T, from, path string) {
	raw, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(raw)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReplayMoreFormats(t *testing.T) {
	pts := userData()
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.csv")
	writeWideCSV(t, plain, pts)
	eachFormatFile(t, dir, []formatFile{
		{"plant.lp", "influx", func(path string) { writeInfluxExport(t, path, pts) }},
		{"plant-export.jsonl", "prometheus", func(path string) { writePromExport(t, path, pts) }},
		{"plant.csv.gz", "csv-wide", func(path string) { gzipFile(t, plain, path) }},
	}, func(t *testing.T, file, format string) {
		replayIntoSQLite(t, file, format, pts, "16")
		replayIntoPostgres(t, file, format, pts)
	})
}

// 'tsbench data inspect' says what a file holds, as a table and as JSON;
// bad input exits 2 naming file, line and column.
func TestDataInspect(t *testing.T) {
	inParallel(t)
	file := filepath.Join(t.TempDir(), "weather.csv.gz")
	plain := filepath.Join(t.TempDir(), "weather.csv")
	lines := "date,location,temp_max,weather\n" +
		"2012-01-01,Seattle,12.8,rain\n2012-01-02,Seattle,10.6,\n2012-01-03,Seattle,11.7,sun\n" +
		"2012-01-01,Oslo,1.5,snow\n2012-01-02,Oslo,2.5,snow\n2012-01-02,Oslo,2.5,snow\n"
	if err := os.WriteFile(plain, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	gzipFile(t, plain, file)

	// One row of six repeats a device and time: past 1 %, a replay refuses
	// it unless DATA_DUPLICATES says what to do, and inspect says so.
	r := tsbench(t, nil, "data", "inspect", plain)
	if want := "Replayable   no: DATA = "; r.code != 0 || !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "DATA_DUPLICATES") {
		t.Errorf("exit %d, want %q naming DATA_DUPLICATES:\n%s", r.code, want, r.stdout)
	}

	r = tsbench(t, nil, "data", "inspect", "--set", "DATA_DUPLICATES=last", file)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	checkContains(t, r.stdout,
		"Format       csv-wide, gzip-compressed",
		"Time         date: a date (2006-01-02), in UTC",
		"Devices      2 (by location)",
		"  temp_max                 DOUBLE",
		"  weather                  TEXT",
		"Rows         6",
		"Points       11 present, 1 missing",
		"Span         2012-01-01T00:00:00Z .. 2012-01-03T00:00:00Z (2d)",
		"Median step  1d",
		"Duplicates   1 rows repeat a device and time, e.g. ",
		"Clients      2 (",
		"Replayable   yes, sparse: 1 missing value, no points (targets that take sparse data: ",
		"sqlite",
	)

	r = tsbench(t, nil, "data", "inspect", "--json", "--set", "DATA_DUPLICATES=last", plain)
	var in dataset.Inspection
	if err := json.Unmarshal([]byte(r.stdout), &in); r.code != 0 || err != nil {
		t.Fatalf("exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if in.Format != "csv-wide" || in.Gzip || in.Time.Column != "date" || len(in.DeviceColumns) != 1 || in.DeviceColumns[0] != "location" ||
		len(in.Sensors) != 2 || in.Sensors[1].Type != "TEXT" || in.Devices != 2 || in.Rows != 6 || in.Points != 11 || in.Missing != 1 ||
		in.DuplicateRows != 1 || in.StepMillis != 86_400_000 || in.SpanMillis != 2*86_400_000 || !in.Replayable ||
		!slices.Contains(in.SparseTargets, "sqlite") || !slices.Contains(in.SparseTargets, "postgres") {
		t.Fatalf("inspection %+v", in)
	}

	bad := filepath.Join(t.TempDir(), "bad.lp")
	if err := os.WriteFile(bad, []byte("cpu,host=a v=1 1700000000000000000\ncpu,host=a v=oops 1700000001000000000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = tsbench(t, nil, "data", "inspect", bad)
	if want := `bad.lp:2: column 14: field v: "oops" is not a value`; r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Fatalf("exit %d, want 2 and %q\n%s", r.code, want, r.stderr)
	}
}
