package promshape

import (
	"sort"
	"strconv"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

// kind is how a series' value is computed.
type kind uint8

const (
	kindUp       kind = iota // up: always 1
	kindCPU                  // node_cpu_seconds_total; param: cpu x len(modes) + mode
	kindMemAvail             // node_memory_MemAvailable_bytes
	kindMemTotal             // node_memory_MemTotal_bytes
	kindFSAvail              // node_filesystem_avail_bytes; param: filesystem
	kindFSSize               // node_filesystem_size_bytes; param: filesystem
	kindNetRx                // node_network_receive_bytes_total
	kindLoad1                // node_load1
	kindBucket               // histogram _bucket; param: handler x len(les) + le
	kindSum                  // histogram _sum; param: handler
	kindCount                // histogram _count; param: handler
)

// template is one series of every target: its labels sorted by name, job
// set, instance's value left for the target's.
type template struct {
	name   string
	kind   kind
	param  int
	labels []remotewrite.Label
	inst   int // index of the instance label
}

// The label values of the families, as node_exporter and Prometheus
// expose them. The modes are a subset of node_exporter's, sorted.
var (
	cpus        = []string{"0", "1"}
	modes       = []string{"idle", "iowait", "system", "user"}
	filesystems = [][3]string{ // device, fstype, mountpoint
		{"/dev/sda1", "ext4", "/"},
		{"/dev/sdb1", "xfs", "/data"},
	}
	handlers = []string{"/api/v1/query", "/api/v1/query_range"}
	// les are Prometheus' own buckets of this histogram; leLabels their
	// label values as client_golang formats them.
	les      = []float64{0.1, 0.2, 0.4, 1, 3, 8, 20, 60, 120}
	leLabels = func() []string {
		out := make([]string, 0, len(les)+1)
		for _, le := range les {
			out = append(out, strconv.FormatFloat(le, 'g', -1, 64))
		}
		return append(out, "+Inf")
	}()
)

// Histogram is the histogram family's name.
const Histogram = "prometheus_http_request_duration_seconds"

// templates lists a target's series in their fixed order.
func templates(job string) []template {
	var ts []template
	add := func(name string, k kind, param int, extra ...string) {
		ls := []remotewrite.Label{{Name: remotewrite.MetricName, Value: name}, {Name: "job", Value: job}, {Name: "instance"}}
		for i := 0; i+1 < len(extra); i += 2 {
			ls = append(ls, remotewrite.Label{Name: extra[i], Value: extra[i+1]})
		}
		sort.Slice(ls, func(i, j int) bool { return ls[i].Name < ls[j].Name })
		t := template{name: name, kind: k, param: param, labels: ls}
		for i, l := range ls {
			if l.Name == "instance" {
				t.inst = i
			}
		}
		ts = append(ts, t)
	}
	add("up", kindUp, 0)
	for c, cpu := range cpus {
		for md, mode := range modes {
			add("node_cpu_seconds_total", kindCPU, c*len(modes)+md, "cpu", cpu, "mode", mode)
		}
	}
	add("node_memory_MemAvailable_bytes", kindMemAvail, 0)
	add("node_memory_MemTotal_bytes", kindMemTotal, 0)
	for f, fs := range filesystems {
		add("node_filesystem_avail_bytes", kindFSAvail, f, "device", fs[0], "fstype", fs[1], "mountpoint", fs[2])
	}
	for f, fs := range filesystems {
		add("node_filesystem_size_bytes", kindFSSize, f, "device", fs[0], "fstype", fs[1], "mountpoint", fs[2])
	}
	add("node_network_receive_bytes_total", kindNetRx, 0, "device", "eth0")
	add("node_load1", kindLoad1, 0)
	for h, handler := range handlers {
		for b, le := range leLabels {
			add(Histogram+"_bucket", kindBucket, h*len(leLabels)+b, "handler", handler, "le", le)
		}
		add(Histogram+"_sum", kindSum, h, "handler", handler)
		add(Histogram+"_count", kindCount, h, "handler", handler)
	}
	return ts
}

// SeriesPerTarget is the number of series a target exposes.
func (m *Model) SeriesPerTarget() int { return len(m.series) }

// Series lists the series of generation g of the slot's target, each's
// labels sorted by name with __name__, in the order Scrape gives them.
func (m *Model) Series(slot int, g int64) ([][]remotewrite.Label, error) {
	if err := m.checkSlot(slot); err != nil {
		return nil, err
	}
	inst := Instance(slot, g)
	out := make([][]remotewrite.Label, len(m.series))
	for i := range m.series {
		t := &m.series[i]
		out[i] = append([]remotewrite.Label(nil), t.labels...)
		out[i][t.inst].Value = inst
	}
	return out, nil
}
