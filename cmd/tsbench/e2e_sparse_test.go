package main

// Sparse data, replayed by the binary: files the test writes with values
// missing (empty and null cells, missing lines, fields missing from
// line-protocol lines, a sensor one device never has) go into SQLite and
// PostgreSQL; the verification expects exactly the present points and the
// query answers are computed from them. A target that does not declare
// sparse support refuses the data before the run.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
)

// sparseDropped reports whether the test's sparse data lacks a point of
// the dense data: temp now and then, count every seventh row, and ok of
// oven_1 always (a sensor that device never has). The duplicate row (the
// last) keeps every value. Some oven_1 rows lose every value.
func sparseDropped(p userPoint, row int64, d int) bool {
	switch p.sensor {
	case "temp":
		return (row+int64(d))%5 == 0
	case "count":
		return row%7 == 3
	}
	return p.device == "oven_1"
}

// sparseRow is a row of the sparse data: its device, time and the value
// of each sensor ("" when missing).
type sparseRow struct {
	device string
	t      int64
	values []string
	row    int64 // the row number of the dense data
}

// sparseData is userData with points missing (sparseDropped): the points
// present and the rows, every sensor's cell empty where missing.
func sparseData() ([]userPoint, []sparseRow) {
	dense := userData()
	var pts []userPoint
	var rows []sparseRow
	for i := 0; i < len(dense); i += len(userSensors) {
		row := dense[i : i+len(userSensors)]
		r := int64(i / len(userSensors) / len(userDevices))
		d := (i / len(userSensors)) % len(userDevices)
		last := i+len(userSensors) == len(dense)
		sr := sparseRow{device: row[0].device, t: row[0].t, values: make([]string, len(userSensors)), row: r}
		for k, p := range row {
			if !last && sparseDropped(p, r, d) {
				continue
			}
			pts = append(pts, p)
			sr.values[k] = p.text
		}
		rows = append(rows, sr)
	}
	return pts, rows
}

// writeSparseWide writes the rows with empty and null cells (a row of
// oven_1 may have none), microsecond times.
func writeSparseWide(t *testing.T, path string, rows []sparseRow) {
	var b strings.Builder
	b.WriteString("timestamp,device," + strings.Join(userSensors, ",") + "\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%d,%s", r.t*1000, r.device)
		for _, v := range r.values {
			if v == "" && r.row%2 == 0 {
				v = "null"
			}
			b.WriteString("," + v)
		}
		b.WriteString("\n")
	}
	writeText(t, path, b.String())
}

// writeSparseLong writes a line per point present; a missing temp is an
// empty value on even rows and no line on odd ones.
func writeSparseLong(t *testing.T, path string, rows []sparseRow) {
	var b strings.Builder
	b.WriteString("time,device,sensor,value\n")
	for _, r := range rows {
		for k, v := range r.values {
			if v == "" && (userSensors[k] != "temp" || r.row%2 == 1) {
				continue
			}
			fmt.Fprintf(&b, "%s,%s,%s,%s\n", time.UnixMilli(r.t).UTC().Format(time.RFC3339Nano), r.device, userSensors[k], v)
		}
	}
	writeText(t, path, b.String())
}

// writeSparseLP writes a line per row as TSBS does, every field of a point
// on one line: the fields present (a row without any has no line).
func writeSparseLP(t *testing.T, path string, rows []sparseRow) {
	var b strings.Builder
	for _, r := range rows {
		var fields []string
		for k, v := range r.values {
			if v != "" {
				fields = append(fields, userSensors[k]+"="+lpValue(userPoint{sensor: userSensors[k], text: v}))
			}
		}
		if len(fields) > 0 {
			fmt.Fprintf(&b, "plant,device=%s %s %d\n", r.device, strings.Join(fields, ","), r.t*1_000_000)
		}
	}
	writeText(t, path, b.String())
}

func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkSparseReplay checks a sparse replay: every present point written,
// the distinct ones stored, the duplicate row's values counted once, and
// every query answer agreeing.
func checkSparseReplay(t *testing.T, s *summary.Summary, format string, pts []userPoint) {
	t.Helper()
	distinct := int64(0)
	for _, byT := range keptPoints(pts) {
		distinct += int64(len(byT))
	}
	if w := s.Op("INGESTION"); w == nil || w.OKPoints != int64(len(pts)) {
		t.Fatalf("INGESTION %+v: want the file's %d present points written", w, len(pts))
	}
	v := s.Verify
	if v == nil || !v.OK || v.StoredPoints != distinct || v.ExpectedPoints != distinct || v.DuplicatePoints != int64(len(userSensors)) {
		t.Fatalf("verify %+v: want %d distinct points stored, %d duplicate", v, distinct, len(userSensors))
	}
	if len(v.Queries) != 3*5 {
		t.Fatalf("query checks %+v: want QUERY_CHECKS (5) of TIME_RANGE, AGG_RANGE and LATEST_POINT", v.Queries)
	}
	for _, q := range v.Queries {
		if !q.OK || q.Error != "" {
			t.Fatalf("query check %+v", q)
		}
	}
	if s.Replay == nil || s.Replay.Format != format || s.Replay.Sensors != len(userSensors) || s.Replay.Devices != len(userDevices) ||
		s.Replay.MissingValues != s.Replay.Rows*int64(len(userSensors))-int64(len(pts)) {
		t.Fatalf("replay %+v, want format %s", s.Replay, format)
	}
}

func TestReplaySparseData(t *testing.T) {
	pts, rows := sparseData()
	dense := userData()
	if len(pts) >= len(dense)-userRows { // oven_1's ok alone is userRows
		t.Fatalf("the sparse data lacks only %d points", len(dense)-len(pts))
	}
	t.Logf("the sparse data: %d points present of the dense data's %d, in %d rows", len(pts), len(dense), len(rows))
	dir := t.TempDir()
	eachFormatFile(t, dir, []formatFile{
		{"sparse-wide.csv", "csv-wide", func(path string) { writeSparseWide(t, path, rows) }},
		{"sparse-long.csv", "csv-long", func(path string) { writeSparseLong(t, path, rows) }},
		{"sparse.lp", "influx", func(path string) { writeSparseLP(t, path, rows) }},
		// A series a line: each lacks the times its sensor has no value at.
		{"sparse-export.jsonl", "prometheus", func(path string) { writePromExport(t, path, pts) }},
	}, func(t *testing.T, file, format string) {
		dataDir := t.TempDir()
		s := replayRun(t, dataDir, "--data", file, "--clients", "3", "--batch-size", "16", "--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0")
		checkSparseReplay(t, s, format, pts)
		checkAnswers(t, s, "sqlite", targets.Options{Database: "test", DataDir: filepath.Join(dataDir, "sqlite")}, pts)
		db := openDB(t, filepath.Join(dataDir, "sqlite", "test.db"))
		if n := queryInt(t, db, "SELECT count(*) FROM points"); n != s.Verify.StoredPoints {
			t.Fatalf("SQLite holds %d points, want %d", n, s.Verify.StoredPoints)
		}

		requireTargetServer(t, "postgres")
		s = replayRun(t, t.TempDir(), "--data", file, "--target", "postgres", "--set", "DB_NAME=tsbench_sparse", "--clients", "2",
			"--batch-size", "25", "--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0")
		checkSparseReplay(t, s, format, pts)
		checkAnswers(t, s, "postgres", targets.Options{Database: "tsbench_sparse"}, pts)
	})
}

// Sparse data on a target that does not declare it is refused before the
// run, exit 2, saying how many values are missing and which targets take
// sparse data; dense data still runs there.
func TestReplaySparseRefused(t *testing.T) {
	inParallel(t)
	var without, with []string
	for _, d := range targets.Drivers() {
		if d.Caps.Sparse {
			with = append(with, d.Name)
		} else {
			without = append(without, d.Name)
		}
	}
	// The null target needs no server: the refusal is checked there while
	// it lacks sparse support (its worker may add it).
	name := ""
	for _, n := range without {
		if n == "null" {
			name = n
		}
	}
	if name == "" {
		t.Skipf("the null target declares sparse data; the targets without it (%v) need a server", without)
	}
	_, rows := sparseData()
	file := filepath.Join(t.TempDir(), "sparse.csv")
	writeSparseWide(t, file, rows)
	missing := int64(0)
	for _, r := range rows {
		for _, v := range r.values {
			if v == "" {
				missing++
			}
		}
	}
	r := tsbench(t, nil, "run", "--quiet", "--results", "off", "--data-dir", t.TempDir(), "--data", file, "--target", name, "--clients", "1")
	want := fmt.Sprintf("is sparse data (%d of its %d values missing: cells without a value), which the %s target does not write yet; "+
		"targets that take sparse data: %s", missing, int64(len(rows)*len(userSensors)), name, strings.Join(with, ", "))
	if r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Fatalf("exit %d, want 2 and %q\n%s", r.code, want, r.stderr)
	}

	dense := filepath.Join(t.TempDir(), "dense.csv")
	writeWideCSV(t, dense, userData())
	r = tsbench(t, nil, "run", "--quiet", "--results", "off", "--data-dir", t.TempDir(), "--data", dense, "--target", name, "--clients", "1")
	if r.code != 0 {
		t.Fatalf("dense data on %s: exit %d\n%s", name, r.code, r.stderr)
	}
}

// tsbsMeasurements are the nine measurements of a TSBS devops file, each
// with its own fields (a few of each; disk and mem share used_percent) and
// extra tags.
var tsbsMeasurements = []struct {
	name, tags string
	fields     []string
}{
	{"cpu", "", []string{"usage_user", "usage_system", "usage_idle"}},
	{"diskio", ",serial=338-444-5", []string{"reads", "writes", "io_time"}},
	{"disk", ",path=/,fstype=ext4", []string{"total", "free", "used_percent"}},
	{"kernel", "", []string{"boot_time", "interrupts", "context_switches"}},
	{"mem", "", []string{"available", "cached", "used_percent"}},
	{"net", ",interface=eth0", []string{"bytes_sent", "bytes_recv"}},
	{"nginx", ",port=80,server=nginx_1", []string{"accepts", "active"}},
	{"postgresl", "", []string{"numbackends", "xact_commit"}},
	{"redis", ",port=6379,server=redis_1", []string{"uptime_in_seconds", "connected_clients"}},
}

// A TSBS devops file (nine measurements of different fields, every field
// of a point on one line, integer fields with their i) replays whole: a
// device (a measurement's host) has its measurement's fields only, the
// other sensors' cells all missing.
func TestReplayTSBSDevops(t *testing.T) {
	const hosts, times = 2, 12
	var b strings.Builder
	var points int64
	for k := int64(0); k < times; k++ {
		for h := 0; h < hosts; h++ {
			for m, ms := range tsbsMeasurements {
				var fields []string
				for f, name := range ms.fields {
					fields = append(fields, fmt.Sprintf("%s=%di", name, (k+1)*int64(10*m+f+h)))
				}
				points += int64(len(fields))
				fmt.Fprintf(&b, "%s,hostname=host_%d,region=eu-west-1,datacenter=eu-west-1a%s %s %d\n", ms.name, h, ms.tags,
					strings.Join(fields, ","), (userStart+k*10_000)*1_000_000)
			}
		}
	}
	file := filepath.Join(t.TempDir(), "devops.lp")
	writeText(t, file, b.String())
	r := tsbench(t, nil, "data", "inspect", file)
	if want := fmt.Sprintf("Points       %d present, ", points); r.code != 0 || !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "Replayable   yes, sparse") {
		t.Fatalf("exit %d, want %q and replayable\n%s%s", r.code, want, r.stdout, r.stderr)
	}
	check := func(s *summary.Summary) {
		t.Helper()
		v := s.Verify
		if w := s.Op("INGESTION"); w == nil || w.OKPoints != points || v == nil || !v.OK || v.StoredPoints != points {
			t.Fatalf("INGESTION %+v, verify %+v: want %d points written and stored", w, v, points)
		}
		if s.Replay.Devices != hosts*len(tsbsMeasurements) || len(v.Queries) != 3*5 {
			t.Fatalf("replay %+v, %d query checks", s.Replay, len(v.Queries))
		}
		for _, q := range v.Queries {
			if !q.OK || q.Error != "" {
				t.Fatalf("query check %+v", q)
			}
		}
	}
	check(replayRun(t, t.TempDir(), "--data", file, "--clients", "3", "--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0"))
	requireTargetServer(t, "postgres")
	check(replayRun(t, t.TempDir(), "--data", file, "--target", "postgres", "--set", "DB_NAME=tsbench_tsbs_devops", "--clients", "2",
		"--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0"))
}
