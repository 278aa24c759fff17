package output

import (
	"sort"
	"time"
)

// Kind says how a series' values add up: a counter only grows (cumulative
// since measuring began), a gauge is the second's own figure.
type Kind int

const (
	Gauge Kind = iota
	Counter
)

// Label is one name=value pair of a series.
type Label struct{ Name, Value string }

// Point is one value of one series at one time, named per Prometheus
// conventions, in base units: the form that the remote-write, InfluxDB and
// OTLP receivers encode.
type Point struct {
	Name   string
	Help   string
	Kind   Kind
	Labels []Label // sorted by name
	Value  float64
	Time   time.Time
}

// Metric names. Counters end in _total; durations are in seconds, sizes in
// bytes, CPU in cores (1 = one core busy) or as a ratio of all cores.
const (
	MetricOperations       = "tsbench_operations_total"
	MetricPoints           = "tsbench_points_total"
	MetricFailedOperations = "tsbench_failed_operations_total"
	MetricRetries          = "tsbench_retries_total"
	MetricInDoubtPoints    = "tsbench_in_doubt_points_total"
	MetricOpsPerSecond     = "tsbench_operations_per_second"
	MetricPointsPerSecond  = "tsbench_points_per_second"
	MetricLatency          = "tsbench_latency_seconds"
	MetricLatencyMax       = "tsbench_latency_max_seconds"
)

// Quantiles are the latency quantiles exported, as their label values.
var Quantiles = []string{"0.5", "0.9", "0.99", "0.999"}

var help = map[string]string{
	MetricOperations:       "Operations that succeeded, since measuring began.",
	MetricPoints:           "Points written or read by operations that succeeded, since measuring began.",
	MetricFailedOperations: "Operations that failed, since measuring began.",
	MetricRetries:          "Further attempts of operations (RETRIES), since measuring began.",
	MetricInDoubtPoints:    "Points of write attempts that failed in a way that may still have stored them, since measuring began.",
	MetricOpsPerSecond:     "Operations that succeeded in the last second, per second.",
	MetricPointsPerSecond:  "Points of operations that succeeded in the last second, per second.",
	MetricLatency:          "Latency quantile of the operations that finished in the last second.",
	MetricLatencyMax:       "Longest latency of the operations that finished in the last second.",
}

// Labels of the run, in the order Points gives them (sorted with the
// series' own: operation, quantile).
func (l Labels) pairs() []Label {
	all := []Label{{"group", l.Group}, {"phase", l.Phase}, {"run_id", l.RunID}, {"scenario", l.Scenario},
		{"target", l.Target}, {"worker", l.Worker}}
	out := all[:0]
	for _, p := range all {
		if p.Value != "" { // Prometheus treats an empty label as none
			out = append(out, p)
		}
	}
	return out
}

// Points flattens the sample into series values.
func (s *Sample) Points() []Point {
	base := s.Labels.pairs()
	var out []Point
	add := func(name string, kind Kind, v float64, extra ...Label) {
		ls := make([]Label, 0, len(base)+len(extra))
		ls = append(ls, base...)
		ls = append(ls, extra...)
		sort.Slice(ls, func(i, j int) bool { return ls[i].Name < ls[j].Name })
		out = append(out, Point{Name: name, Help: help[name], Kind: kind, Labels: ls, Value: v, Time: s.Time})
	}
	for _, o := range s.Ops {
		op := Label{"operation", o.Name}
		add(MetricOperations, Counter, float64(o.OKOpsTotal), op)
		add(MetricPoints, Counter, float64(o.OKPointsTotal), op)
		add(MetricFailedOperations, Counter, float64(o.FailOpsTotal), op)
		add(MetricRetries, Counter, float64(o.RetriesTotal), op)
		add(MetricInDoubtPoints, Counter, float64(o.InDoubtTotal), op)
		add(MetricOpsPerSecond, Gauge, o.OpsPerSecond, op)
		add(MetricPointsPerSecond, Gauge, o.PointsPerSecond, op)
		if !o.HasLatency() {
			continue
		}
		for i, q := range []float64{o.P50, o.P90, o.P99, o.P999} {
			add(MetricLatency, Gauge, q, op, Label{"quantile", Quantiles[i]})
		}
		add(MetricLatencyMax, Gauge, o.Max, op)
	}
	if r := s.Resources; r != nil {
		if p := r.Tool; p != nil {
			add("tsbench_tool_cpu_cores", Gauge, p.CPUPercent/100)
			add("tsbench_tool_resident_memory_bytes", Gauge, float64(p.RSSBytes))
		}
		if p := r.Server; p != nil {
			add("tsbench_server_cpu_cores", Gauge, p.CPUPercent/100)
			add("tsbench_server_resident_memory_bytes", Gauge, float64(p.RSSBytes))
			add("tsbench_server_read_bytes_per_second", Gauge, p.ReadBytesPerS)
			add("tsbench_server_write_bytes_per_second", Gauge, p.WriteBytesPerS)
		}
		if h := r.Host; h != nil {
			add("tsbench_host_cpu_ratio", Gauge, h.CPUPercent/100)
			add("tsbench_host_memory_used_bytes", Gauge, float64(h.MemUsedBytes))
			add("tsbench_host_disk_read_bytes_per_second", Gauge, h.DiskReadBytesPerS)
			add("tsbench_host_disk_write_bytes_per_second", Gauge, h.DiskWriteBytesPerS)
			add("tsbench_host_network_receive_bytes_per_second", Gauge, h.NetRecvBytesPerS)
			add("tsbench_host_network_transmit_bytes_per_second", Gauge, h.NetSentBytesPerS)
		}
	}
	return out
}
