package main

// Replay tests: the user's own data, written by the test as CSV, replayed
// by the real binary into SQLite and PostgreSQL; the stored points, the
// verification and query answers are checked against the file, computed
// by the test itself. And generate -> replay equals the direct run, point
// for point.

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/tsbench/tsbench/internal/dataset"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// userPoint is one point of the test's data.
type userPoint struct {
	device, sensor string
	t              int64 // ms
	v              float64
	text           string // the value as the file writes it
}

var userDevices = []string{"press_a", "press_b", "oven_1"}
var userSensors = []string{"temp", "count", "ok"} // DOUBLE, INT64, BOOLEAN as inferred

const (
	userRows  = 200
	userStart = int64(1_767_225_600_000) // 2026-01-01T00:00:00Z
	userStep  = int64(1000)
)

// userData is the test's data, rows in time order, then one duplicate row
// (press_b's row 50 again, other values) at the end: the file's last word.
func userData() []userPoint {
	var out []userPoint
	add := func(d, t int64, dev string, bump float64) {
		temp := 20 + float64(d)*1.5 + math.Round(10*math.Sin(float64(t)/7000))/10 + bump
		count := (t/userStep)*int64(d+1) + int64(bump)
		ok := (t/userStep+d)%3 == 0
		out = append(out,
			userPoint{dev, "temp", t, temp, fmt.Sprint(temp)},
			userPoint{dev, "count", t, float64(count), fmt.Sprint(count)},
			userPoint{dev, "ok", t, b2f(ok), fmt.Sprint(ok)})
	}
	for r := int64(0); r < userRows; r++ {
		for d, dev := range userDevices {
			add(int64(d), userStart+r*userStep, dev, 0)
		}
	}
	add(1, userStart+50*userStep, "press_b", 100)
	return out
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// writeLongCSV writes the data one point per line, RFC 3339 times.
func writeLongCSV(t *testing.T, path string, pts []userPoint) {
	var b strings.Builder
	b.WriteString("time,device,sensor,value\n")
	for _, p := range pts {
		fmt.Fprintf(&b, "%s,%s,%s,%s\n", time.UnixMilli(p.t).UTC().Format(time.RFC3339Nano), p.device, p.sensor, p.text)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeWideCSV writes one row per line, microsecond integer times.
func writeWideCSV(t *testing.T, path string, pts []userPoint) {
	var b strings.Builder
	b.WriteString("timestamp,device," + strings.Join(userSensors, ",") + "\n")
	for i := 0; i < len(pts); i += len(userSensors) {
		row := pts[i : i+len(userSensors)]
		fmt.Fprintf(&b, "%d,%s", row[0].t*1000, row[0].device)
		for _, p := range row {
			b.WriteString("," + p.text)
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// keptPoints is the data as the server must keep it: one value per series and
// time, the file's last.
func keptPoints(pts []userPoint) map[[2]string]map[int64]float64 {
	out := map[[2]string]map[int64]float64{}
	for _, p := range pts {
		k := [2]string{p.device, p.sensor}
		if out[k] == nil {
			out[k] = map[int64]float64{}
		}
		out[k][p.t] = p.v
	}
	return out
}

// replayRun runs tsbench on the data and returns its summary.
func replayRun(t *testing.T, dataDir string, args ...string) *summary.Summary {
	t.Helper()
	jsonPath := filepath.Join(t.TempDir(), "s.json")
	r := tsbench(t, nil, append([]string{"run", "--quiet", "--results", "off", "--data-dir", dataDir, "--json", jsonPath}, args...)...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "Data: replayed ") {
		t.Errorf("the console does not say whose data was written:\n%s", r.stdout)
	}
	return readSummary(t, jsonPath)
}

// checkReplay checks the verification and the replay's description.
func checkReplay(t *testing.T, s *summary.Summary, pts []userPoint) {
	t.Helper()
	distinct := int64(0)
	for _, byT := range keptPoints(pts) {
		distinct += int64(len(byT))
	}
	v := s.Verify
	if v == nil || !v.OK || v.StoredPoints != distinct || v.DuplicatePoints != int64(len(userSensors)) {
		t.Fatalf("verify %+v: want %d distinct points stored, %d duplicate points", v, distinct, len(userSensors))
	}
	if w := s.Op("INGESTION"); w == nil || w.OKPoints != int64(len(pts)) {
		t.Fatalf("INGESTION %+v: want every one of the file's %d points written", w, len(pts))
	}
	var answered int64
	for _, q := range v.Queries {
		if !q.OK || q.Error != "" {
			t.Fatalf("query check %+v", q)
		}
		answered += q.Points
	}
	if len(v.Queries) != 3*5 || answered == 0 {
		t.Fatalf("query checks %+v: want QUERY_CHECKS (5) of TIME_RANGE, AGG_RANGE and LATEST_POINT, with points", v.Queries)
	}
	rp := s.Replay
	if rp == nil || rp.Devices != len(userDevices) || rp.Sensors != len(userSensors) || rp.Rows != userRows*3+1 || rp.DuplicateRows != 1 || rp.Repeat {
		t.Fatalf("replay %+v", rp)
	}
}

// checkAnswers asks the target the queries of the test and compares with
// answers computed from the file.
func checkAnswers(t *testing.T, s *summary.Summary, driver string, opts targets.Options, pts []userPoint) {
	t.Helper()
	ds, err := dataset.Open(s.Replay.Dataset)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	schema := ds.Schema(opts.Database)
	d, err := targets.Lookup(driver)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := d.Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if b, ok := conn.(targets.Binder); ok {
		if err := b.Bind(ctx, schema); err != nil {
			t.Fatal(err)
		}
	}
	sensor := func(name string) int {
		for i, sn := range schema.Sensors {
			if sn.Name == name {
				return i
			}
		}
		t.Fatalf("sensor %s not in the replayed schema %+v", name, schema.Sensors)
		return -1
	}
	device := func(name string) *ts.Device {
		for i := range schema.Devices {
			if schema.Devices[i].Name == name {
				return &schema.Devices[i]
			}
		}
		t.Fatalf("device %s not in the replayed schema", name)
		return nil
	}
	dup := userStart + 50*userStep
	queries := []ts.Query{
		// The duplicated point: the file's last value.
		{Kind: ts.PrecisePoint, Devices: []*ts.Device{device("press_b")}, Sensors: []int{sensor("temp"), sensor("count")}, Start: dup, End: dup + 1},
		{Kind: ts.TimeRange, Devices: []*ts.Device{device("press_a"), device("oven_1")}, Sensors: []int{sensor("temp")},
			Start: userStart + 10*userStep, End: userStart + 40*userStep},
		{Kind: ts.AggRange, Devices: []*ts.Device{device("press_b")}, Sensors: []int{sensor("count")}, Agg: ts.Avg,
			Start: userStart, End: userStart + 120*userStep},
		{Kind: ts.LatestPoint, Devices: []*ts.Device{device("oven_1")}, Sensors: []int{sensor("temp"), sensor("ok")}},
	}
	want := keptPoints(pts)
	for _, q := range queries {
		var series []clientside.Series
		for _, dev := range q.Devices {
			for _, si := range q.Sensors {
				var sr clientside.Series
				for tm, v := range want[[2]string{dev.Name, schema.Sensors[si].Name}] {
					if q.Kind == ts.LatestPoint || (tm >= q.Start && tm < q.End) {
						sr = append(sr, clientside.Point{T: tm, V: v, Numeric: true})
					}
				}
				series = append(series, sr)
			}
		}
		got, err := conn.Query(ctx, &q)
		if err != nil {
			t.Fatalf("%v: %v", q.Kind, err)
		}
		if diff := targettest.Compare(&q, got, clientside.Answer(&q, series)); diff != "" {
			t.Errorf("%s on %s: %s", q.Kind, driver, diff)
		}
	}
}

// replayIntoSQLite replays file into a fresh SQLite database and checks
// the verification, the format read and the query answers.
func replayIntoSQLite(t *testing.T, file, format string, pts []userPoint, batch string) (*summary.Summary, string) {
	t.Helper()
	dataDir := t.TempDir()
	s := replayRun(t, dataDir, "--data", file, "--clients", "3", "--batch-size", batch, "--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0")
	checkReplay(t, s, pts)
	if s.Replay.Format != format {
		t.Fatalf("format %q, want %q", s.Replay.Format, format)
	}
	checkAnswers(t, s, "sqlite", targets.Options{Database: "test", DataDir: filepath.Join(dataDir, "sqlite")}, pts)
	return s, dataDir
}

func TestReplayCSVIntoSQLite(t *testing.T) {
	inParallel(t)
	pts := userData()
	file := filepath.Join(t.TempDir(), "plant.csv")
	writeLongCSV(t, file, pts)
	_, dataDir := replayIntoSQLite(t, file, "csv-long", pts, "16")
	// Every stored point, read back with plain SQL, is the file's.
	db := openDB(t, filepath.Join(dataDir, "sqlite", "test.db"))
	rows, err := db.Query(`SELECT s.device, s.sensor, p.t, p.v FROM points p JOIN series s ON s.id = p.series`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := keptPoints(pts)
	n := 0
	for rows.Next() {
		var dev, sensor string
		var tm int64
		var v any
		if err := rows.Scan(&dev, &sensor, &tm, &v); err != nil {
			t.Fatal(err)
		}
		w, ok := want[[2]string{dev, sensor}][tm]
		if !ok || !sameNumber(v, w) {
			t.Fatalf("%s.%s at %d: stored %v, the file says %v (present %v)", dev, sensor, tm, v, w, ok)
		}
		n++
	}
	if n != 3*userRows*3 {
		t.Fatalf("%d points stored", n)
	}
}

func sameNumber(v any, w float64) bool {
	switch x := v.(type) {
	case int64:
		return float64(x) == w
	case float64:
		return x == w
	}
	return false
}

func TestReplayWideCSVIntoPostgres(t *testing.T) {
	pts := userData()
	file := filepath.Join(t.TempDir(), "plant.csv")
	writeWideCSV(t, file, pts)
	replayIntoPostgres(t, file, "csv-wide", pts)
}

// generate -> replay writes exactly what the direct run writes, out-of-
// order delivery included: the two SQLite files hold the same points.
func TestGenerateReplayEqualsTheDirectRun(t *testing.T) {
	inParallel(t)
	shape := []string{"--set", "DEVICE_NUMBER=6", "--set", "SENSOR_NUMBER=5", "--clients", "2", "--loop", "30", "--batch-size", "10",
		"--set", "IS_OUT_OF_ORDER=true", "--set", "INSERT_DATATYPE_PROPORTION=1:1:1:1:1:1", "--set", "OPERATION_PROPORTION=1"}
	out := filepath.Join(t.TempDir(), "ds")
	if r := tsbench(t, nil, append([]string{"generate", "--out", out}, shape...)...); r.code != 0 || !strings.Contains(r.stdout, "Generated 1800 rows") {
		t.Fatalf("generate: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	direct, replayed := t.TempDir(), t.TempDir()
	a := replayRun(t, replayed, append([]string{"--data", out}, shape...)...)
	jsonPath := filepath.Join(t.TempDir(), "d.json")
	if r := tsbench(t, nil, append([]string{"run", "--quiet", "--results", "off", "--data-dir", direct, "--json", jsonPath}, shape...)...); r.code != 0 {
		t.Fatalf("direct run: exit %d\n%s", r.code, r.stderr)
	}
	b := readSummary(t, jsonPath)
	if a.Verify.StoredPoints != b.Verify.StoredPoints || a.Op("INGESTION").OKOperations != b.Op("INGESTION").OKOperations {
		t.Fatalf("replay stored %d points in %d writes, the direct run %d in %d", a.Verify.StoredPoints, a.Op("INGESTION").OKOperations,
			b.Verify.StoredPoints, b.Op("INGESTION").OKOperations)
	}
	dump := func(dir string) string {
		db := openDB(t, filepath.Join(dir, "sqlite", "test.db"))
		rows, err := db.Query(`SELECT series, t, quote(v) FROM points ORDER BY series, t`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var sb strings.Builder
		for rows.Next() {
			var series, tm int64
			var v string
			if err := rows.Scan(&series, &tm, &v); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&sb, "%d %d %s\n", series, tm, v)
		}
		return sb.String()
	}
	if got, want := dump(replayed), dump(direct); got != want || strings.Count(got, "\n") != 6*5*300 {
		t.Fatalf("replayed and direct data differ (or are short): %d vs %d points", strings.Count(got, "\n"), strings.Count(want, "\n"))
	}
}

// Bad input exits 2 naming the file, the line and the column, with a help
// line; nothing is half-written. A file that is not there is refused so too.
func TestReplayBadInput(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	cases := []struct {
		name, content, want string
	}{
		{"value.csv", "time,device,temp\n1767225600000,a,1.5\n1767225601000,a,warm\n1767225602000,a,1.5\n",
			"value.csv:3: column temp: \"warm\" is not a finite DOUBLE"},
		{"time.csv", "time,device,temp\n1767225600000,a,1.5\nyesterday,a,2\n", "time.csv:3: column time: \"yesterday\" is not a timestamp"},
		{"fields.csv", "time,device,temp\n1767225600000,a,1.5\n1767225601000,a\n", "fields.csv:3"},
		{"sensor.csv", "time,device,sensor,value\n1767225600000,a,temp,1\n1767225600000,a,,2\n", "sensor.csv:3: column sensor: empty sensor name"},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		dataDir := t.TempDir()
		r := tsbench(t, nil, "run", "--quiet", "--results", "off", "--data-dir", dataDir, "--data", path, "--clients", "1",
			"--set", "DATA_TYPES=temp=DOUBLE")
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s: exit %d, want 2 and %q\n%s", c.name, r.code, c.want, r.stderr)
		}
		if help := "Run 'tsbench data inspect " + path + "'"; !strings.Contains(r.stderr, help) {
			t.Errorf("%s: the refusal lacks its help line %q:\n%s", c.name, help, r.stderr)
		}
		if entries, _ := os.ReadDir(filepath.Join(dataDir, "datasets")); len(entries) != 0 {
			t.Errorf("%s: a failed import left %d dataset(s) behind", c.name, len(entries))
		}
		if _, err := os.Stat(filepath.Join(dataDir, "sqlite")); err == nil {
			t.Errorf("%s: the run wrote to the database although the data was refused", c.name)
		}
	}
	missing := filepath.Join(dir, "no-such.csv")
	r := tsbench(t, nil, "run", "--quiet", "--results", "off", "--data-dir", t.TempDir(), "--data", missing)
	if r.code != 2 || !strings.Contains(r.stderr, "no-such.csv") || !strings.Contains(r.stderr, "'tsbench run --help' for usage") {
		t.Errorf("a missing DATA file: exit %d, want 2 naming it, with the help line:\n%s", r.code, r.stderr)
	}
}

// The query check catches a database that stores every point but not its
// value: a trigger makes SQLite keep each value plus one. The count agrees;
// the answers do not: exit 3.
func TestReplayQueryCheckCatchesWrongValues(t *testing.T) {
	inParallel(t)
	pts := userData()
	file := filepath.Join(t.TempDir(), "plant.csv")
	writeLongCSV(t, file, pts)
	dataDir := t.TempDir()
	args := []string{"--data", file, "--clients", "3", "--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0"}
	replayRun(t, dataDir, args...)
	rw, err := sql.Open("sqlite", "file:"+filepath.Join(dataDir, "sqlite", "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rw.Exec(`CREATE TRIGGER off_by_one AFTER INSERT ON points BEGIN
		UPDATE points SET v = v + 1 WHERE series = NEW.series AND t = NEW.t; END`); err != nil {
		t.Fatal(err)
	}
	rw.Close()
	jsonPath := filepath.Join(t.TempDir(), "s.json")
	r := tsbench(t, nil, append([]string{"run", "--quiet", "--results", "off", "--data-dir", dataDir, "--json", jsonPath,
		"--set", "IS_DELETE_DATA=false", "--set", "CREATE_SCHEMA=false"}, args...)...)
	s := readSummary(t, jsonPath)
	if r.code != 3 || !s.Verify.OK || !strings.Contains(r.stdout, "MISMATCH TIME_RANGE (devices [") || !strings.Contains(r.stdout, "): sum of values") {
		t.Fatalf("exit %d, verify %+v, want 3 with the count OK and the answers refused\n%s", r.code, s.Verify, r.stdout)
	}
}

// plantRow is a row of the test's data as a Parquet file holds it.
type plantRow struct {
	Time   int64   `parquet:"time,timestamp(millisecond)"`
	Device string  `parquet:"device"`
	Temp   float64 `parquet:"temp"`
	Count  int64   `parquet:"count"`
	OK     bool    `parquet:"ok"`
}

// writeParquet writes the data in wide rows, row groups of 256 rows.
func writeParquetFile(t *testing.T, path string, pts []userPoint) {
	var rows []plantRow
	for i := 0; i < len(pts); i += len(userSensors) {
		r := pts[i : i+len(userSensors)]
		rows = append(rows, plantRow{Time: r[0].t, Device: r[0].device, Temp: r[0].v, Count: int64(r[1].v), OK: r[2].v == 1})
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[plantRow](f, parquet.MaxRowsPerRowGroup(256))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// A Parquet file replays into SQLite and PostgreSQL: counts, duplicates
// and query answers as the file says.
func TestReplayParquet(t *testing.T) {
	pts := userData()
	file := filepath.Join(t.TempDir(), "plant.parquet")
	writeParquetFile(t, file, pts)
	replayIntoSQLite(t, file, "parquet-wide", pts, "20")

	replayIntoPostgres(t, file, "parquet-wide", pts)
}

// replayIntoPostgres replays file into PostgreSQL and checks the
// verification, the format, the server's own count and query answers.
func replayIntoPostgres(t *testing.T, file, format string, pts []userPoint) {
	t.Helper()
	requireTargetServer(t, "postgres")
	s := replayRun(t, t.TempDir(), "--data", file, "--target", "postgres", "--set", "DB_NAME=test", "--clients", "2",
		"--batch-size", "25", "--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0")
	checkReplay(t, s, pts)
	if s.Replay.Format != format {
		t.Fatalf("format %q, want %q", s.Replay.Format, format)
	}
	if n, _ := fingerprint(t); n != 3*userRows*3 {
		t.Fatalf("the server holds %d points", n)
	}
	checkAnswers(t, s, "postgres", targets.Options{Database: "test"}, pts)
}

// With a duration longer than the file, the rows start again with their
// times shifted by the file's span: every repeated point is new, and the
// verification still counts every distinct one.
func TestReplayRepeatsWithShiftedTimes(t *testing.T) {
	pts := userData()
	file := filepath.Join(t.TempDir(), "plant.csv")
	writeLongCSV(t, file, pts)
	dataDir := t.TempDir()
	s := replayRun(t, dataDir, "--data", file, "--clients", "3", "--batch-size", "50", "--duration", "2s",
		"--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0")
	w := s.Op("INGESTION")
	if !s.Replay.Repeat || w == nil || w.OKPoints <= int64(len(pts)) {
		t.Fatalf("repeat %v, wrote %+v: want more than the file's %d points in 2 s", s.Replay.Repeat, w, len(pts))
	}
	v := s.Verify
	if !v.OK || v.StoredPoints != v.ExpectedPoints || v.ExpectedPoints+v.DuplicatePoints != w.OKPoints || len(v.Queries) != 3*5 {
		t.Fatalf("verify %+v for %d written points", v, w.OKPoints)
	}
	for _, q := range v.Queries { // the latest points are in the last repetition
		if !q.OK {
			t.Fatalf("query check after a repeating replay: %+v", q)
		}
	}
	db := openDB(t, filepath.Join(dataDir, "sqlite", "test.db"))
	span := int64(userRows-1)*userStep + userStep // the file's range plus its step
	if last := queryInt(t, db, "SELECT max(t) FROM points"); last < userStart+span {
		t.Fatalf("latest stored time %d: no repetition past the file's span", last)
	}
}
