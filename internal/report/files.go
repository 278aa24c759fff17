package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/tsbench/tsbench/internal/summary"
)

// CSV file names in the directory given to WriteCSV.
const (
	ResultCSV    = "result.csv"
	LatencyCSV   = "latency.csv"
	IntervalsCSV = "intervals.csv"
)

// intervalsHeader are the columns of intervals.csv.
var intervalsHeader = []string{"t_s", "duration_s", "operation", "ok_operations", "ok_points", "fail_operations", "p50_ms", "p99_ms", "max_ms"}

// WriteJSON writes s as indented JSON to path. A summary without a schema
// version gets the current one: the file is a public format and a reader must
// be able to tell which.
func WriteJSON(path string, s *summary.Summary) error {
	c := *s
	if c.SchemaVersion == 0 {
		c.SchemaVersion = summary.SchemaVersion
	}
	data, err := json.MarshalIndent(&c, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding summary: %w", err)
	}
	return writeAtomic(path, append(data, '\n'))
}

// WriteJSONValue writes any value as indented JSON, atomically.
func WriteJSONValue(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	return writeAtomic(path, append(data, '\n'))
}

// WriteCSV writes result.csv, latency.csv and intervals.csv into dir, the
// first two with the columns and 2-decimal numbers of IoT-benchmark's
// data/csvOutput matrices so that the same spreadsheet reads both, and
// test-result.csv, the whole run in IoT-benchmark's one-file layout.
func WriteCSV(dir string, s *summary.Summary) error {
	files := []struct {
		name string
		rows [][]string
	}{
		{ResultCSV, resultRecords(s.Operations)},
		{LatencyCSV, latencyRecords(s.Operations)},
		{IntervalsCSV, intervalRecords(s.Intervals)},
	}
	if err := writeAtomic(filepath.Join(dir, IoTBenchmarkCSV), iotBenchmarkCSV(s)); err != nil {
		return err
	}
	for _, f := range files {
		data, err := encodeCSV(f.rows)
		if err != nil {
			return fmt.Errorf("encoding %s: %w", f.name, err)
		}
		if err := writeAtomic(filepath.Join(dir, f.name), data); err != nil {
			return err
		}
	}
	return nil
}

func resultRecords(ops []summary.Operation) [][]string {
	rows := [][]string{resultHeader}
	for _, o := range ops {
		rows = append(rows, append([]string{o.Name}, resultCells(o)...))
	}
	return rows
}

func latencyRecords(ops []summary.Operation) [][]string {
	rows := [][]string{append([]string{"Operation"}, latencyHeader...)}
	for _, o := range ops {
		rows = append(rows, append([]string{o.Name}, latencyRow(o)...))
	}
	return rows
}

// intervalRecords keeps full precision (shortest exact form): these rows feed
// charts and scripts, not a side-by-side comparison with IoT-benchmark.
func intervalRecords(intervals []summary.Interval) [][]string {
	rows := [][]string{intervalsHeader}
	for _, iv := range intervals {
		for _, op := range iv.Ops {
			rows = append(rows, []string{
				exact(iv.Start), exact(iv.Seconds), op.Name,
				strconv.FormatInt(op.OKOps, 10),
				strconv.FormatInt(op.OKPoints, 10),
				strconv.FormatInt(op.FailOps, 10),
				exact(op.P50MS), exact(op.P99MS), exact(op.MaxMS),
			})
		}
	}
	return rows
}

func exact(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func encodeCSV(rows [][]string) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(rows); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeAtomic writes data to a temporary file beside path and renames it into
// place, so that a reader (or a crash) never sees half a file. The directory
// is created when missing.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// Removing after a successful rename fails harmlessly.
	defer os.Remove(tmp.Name())
	if err := fillTemp(tmp, data); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// fillTemp writes, syncs and closes tmp. CreateTemp makes the file 0600;
// results are meant to be shared, so they get the usual 0644.
func fillTemp(tmp *os.File, data []byte) error {
	_, err := tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	return err
}
