// Package csvout writes samples to a CSV file: one row per operation per
// second, written as the second closes. Latencies are in seconds; the
// *_total columns are cumulative since measuring began; the tool's CPU and
// memory are on every row of the second they were sampled in.
//
// It stands apart as k6's outputs do, one package per receiver behind
// output.Receiver: a new receiver is one new package, and each brings only
// its own format. internal/cli's receivers.go is the one place that knows
// them all.
package csvout

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/tsbench/tsbench/internal/output"
)

// Header is the first row.
var Header = []string{"time", "t_s", "run_id", "group", "worker", "target", "scenario", "phase", "operation",
	"ok_operations", "ok_points", "failed_operations", "operations_per_second", "points_per_second",
	"latency_p50_s", "latency_p90_s", "latency_p99_s", "latency_p999_s", "latency_max_s",
	"ok_operations_total", "ok_points_total", "failed_operations_total", "tool_cpu_cores", "tool_resident_memory_bytes",
	"retries", "in_doubt_points"}

// Receiver is one CSV file.
type Receiver struct {
	path string
	f    *os.File
	w    *csv.Writer
}

// New creates (or truncates) the file at path and writes the header.
func New(path string) (*Receiver, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("csv: %w", err)
	}
	r := &Receiver{path: path, f: f, w: csv.NewWriter(f)}
	if err := r.w.Write(Header); err != nil {
		f.Close()
		return nil, fmt.Errorf("csv: write %s: %w", path, err)
	}
	return r, nil
}

// Send writes the batch's rows and flushes them.
func (r *Receiver) Send(_ context.Context, batch []*output.Sample) error {
	for _, s := range batch {
		cpu, rss := "", ""
		if s.Resources != nil && s.Resources.Tool != nil {
			cpu = num(s.Resources.Tool.CPUPercent / 100)
			rss = strconv.FormatUint(s.Resources.Tool.RSSBytes, 10)
		}
		for _, o := range s.Ops {
			lat := []string{"", "", "", "", ""}
			if o.HasLatency() {
				lat = []string{num(o.P50), num(o.P90), num(o.P99), num(o.P999), num(o.Max)}
			}
			row := []string{s.Time.Format(time.RFC3339Nano), num(s.T), s.RunID, s.Group, s.Worker, s.Target, s.Scenario,
				s.Phase, o.Name, itoa(o.OKOps), itoa(o.OKPoints), itoa(o.FailOps), num(o.OpsPerSecond), num(o.PointsPerSecond)}
			row = append(row, lat...)
			row = append(row, itoa(o.OKOpsTotal), itoa(o.OKPointsTotal), itoa(o.FailOpsTotal), cpu, rss,
				itoa(o.Retries), itoa(o.InDoubtPoints))
			if err := r.w.Write(row); err != nil {
				return fmt.Errorf("csv: write %s: %w", r.path, err)
			}
		}
	}
	r.w.Flush()
	if err := r.w.Error(); err != nil {
		return fmt.Errorf("csv: write %s: %w", r.path, err)
	}
	return nil
}

// Close closes the file.
func (r *Receiver) Close(context.Context) error {
	r.w.Flush()
	if err := r.f.Close(); err != nil {
		return fmt.Errorf("csv: close %s: %w", r.path, err)
	}
	return nil
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
func itoa(v int64) string  { return strconv.FormatInt(v, 10) }
