package report

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

func withIntervals(s *summary.Summary) *summary.Summary {
	s.Intervals = []summary.Interval{
		{Start: 0, Seconds: 1, Ops: []summary.IntervalOp{
			{Name: "INGESTION", OKOps: 170, OKPoints: 170000, P50MS: 50.125, P99MS: 160.3, MaxMS: 403.33},
			{Name: "VALUE_RANGE_QUERY_DESC", OKOps: 17, OKPoints: 850, FailOps: 1, P50MS: 1, P99MS: 4.25, MaxMS: 12.0001},
		}},
		{Start: 1, Seconds: 0.5, Ops: []summary.IntervalOp{
			{Name: "INGESTION", OKOps: 80, OKPoints: 80000, P50MS: 0.1 + 0.2, P99MS: 1e-7, MaxMS: 1234567.891},
		}},
	}
	return s
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return v
}

// round2 is what a 2-decimal matrix cell can hold.
func round2(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', 2, 64), 64)
	return r
}

func TestWriteCSVParsesBack(t *testing.T) {
	s := withIntervals(closedSummary())
	dir := filepath.Join(t.TempDir(), "csv", "nested") // created by WriteCSV
	if err := WriteCSV(dir, s); err != nil {
		t.Fatal(err)
	}

	res := readCSV(t, filepath.Join(dir, ResultCSV))
	if !reflect.DeepEqual(res[0], resultHeader) || len(res) != 1+len(s.Operations) {
		t.Fatalf("result.csv header/rows: %v", res)
	}
	for i, o := range s.Operations {
		r := res[i+1]
		if r[0] != o.Name || num(t, r[1]) != float64(o.OKOperations) || num(t, r[2]) != float64(o.OKPoints) ||
			num(t, r[3]) != float64(o.FailOperations) || num(t, r[4]) != float64(o.FailPoints) ||
			num(t, r[5]) != round2(o.Throughput) {
			t.Errorf("result.csv row %v does not match %+v", r, o)
		}
	}

	lat := readCSV(t, filepath.Join(dir, LatencyCSV))
	if lat[0][0] != "Operation" || !reflect.DeepEqual(lat[0][1:], latencyHeader) {
		t.Fatalf("latency.csv header: %v", lat[0])
	}
	for i, o := range s.Operations {
		r := lat[i+1]
		want := append(latencyValues(o.LatencyMS), o.SlowestThreadMS)
		if r[0] != o.Name || len(r) != 1+len(want) {
			t.Fatalf("latency.csv row %v", r)
		}
		for j, v := range want {
			if got := num(t, r[j+1]); got != round2(v) {
				t.Errorf("latency.csv %s %s = %v, want %v", o.Name, latencyHeader[j], got, round2(v))
			}
		}
	}

	iv := readCSV(t, filepath.Join(dir, IntervalsCSV))
	if !reflect.DeepEqual(iv[0], intervalsHeader) {
		t.Fatalf("intervals.csv header: %v", iv[0])
	}
	k := 1
	for _, in := range s.Intervals {
		for _, op := range in.Ops {
			r := iv[k]
			k++
			got := summary.IntervalOp{
				Name: r[2], OKOps: int64(num(t, r[3])), OKPoints: int64(num(t, r[4])), FailOps: int64(num(t, r[5])),
				P50MS: num(t, r[6]), P99MS: num(t, r[7]), MaxMS: num(t, r[8]),
			}
			if num(t, r[0]) != in.Start || num(t, r[1]) != in.Seconds || got != op {
				t.Errorf("intervals.csv row %v, want %v %v %+v", r, in.Start, in.Seconds, op)
			}
		}
	}
	if k != len(iv) {
		t.Errorf("intervals.csv has %d rows, want %d", len(iv)-1, k-1)
	}
}

func TestWriteJSONRoundTrip(t *testing.T) {
	s := withIntervals(openSummary())
	s.Started = time.Date(2026, 3, 1, 12, 0, 0, 123, time.UTC)
	s.Config = map[string]any{"LOOP": float64(100), "DB_SWITCH": "InfluxDB"}
	s.Environment = summary.Environment{Hostname: "h", Cores: 2, MemoryBytes: 1 << 33}
	path := filepath.Join(t.TempDir(), "runs", "run-1.json")
	if err := WriteJSON(path, s); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var back summary.Summary
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, s) {
		t.Errorf("JSON round trip changed the summary:\n got %+v\nwant %+v", back, *s)
	}
	if data[len(data)-1] != '\n' || data[2] != ' ' {
		t.Errorf("JSON is not indented with a final newline: %.40q", data)
	}
	assertNoTempFiles(t, filepath.Dir(path))
}

func TestWriteJSONSetsSchemaVersionAndReplaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(path, []byte("old content that is longer than nothing"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &summary.Summary{RunID: "x"}
	if err := WriteJSON(path, s); err != nil {
		t.Fatal(err)
	}
	if s.SchemaVersion != 0 {
		t.Error("WriteJSON modified its argument")
	}
	var back summary.Summary
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.SchemaVersion != summary.SchemaVersion || back.RunID != "x" {
		t.Errorf("got %+v", back)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode = %v, %v; want 0644", fi.Mode(), err)
	}
}

func TestWriteAtomicFailsWithoutLeavingTemp(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "is-a-dir")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// Renaming a file over a non-empty directory fails.
	if err := writeAtomic(target, []byte("x")); err == nil {
		t.Fatal("writeAtomic over a directory succeeded")
	}
	assertNoTempFiles(t, dir)
}

func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(matches) > 0 {
		t.Errorf("temporary files left behind: %v", matches)
	}
}

func TestWriteJSONValue(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x", "v.json")
	if err := WriteJSONValue(path, map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "{\n  \"a\": 1\n}\n" {
		t.Errorf("got %q, %v", data, err)
	}
	assertNoTempFiles(t, filepath.Dir(path))
}

// test-result.csv is IoT-benchmark's one result file: its sections, line
// breaks and HALF_UP numbers. The golden file was written by hand from
// IoT-benchmark's Measurement.outputCSV, not from this code.
func TestIoTBenchmarkCSVGolden(t *testing.T) {
	s := iotBenchmarkSummary()
	s.Config = map[string]any{"DB_SWITCH": "null", "CLIENT_NUMBER": 2, "REMARK": `a, "b"`}
	s.SchemaSeconds = 1.005
	dir := t.TempDir()
	if err := WriteCSV(dir, s); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, IoTBenchmarkCSV))
	if err != nil {
		t.Fatal(err)
	}
	diffLines(t, string(got), golden(t, "iotbenchmark_test_result.golden"))
}
