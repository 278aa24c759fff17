package promshape

import (
	"sort"
	"strconv"
	"strings"

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
	kindNetRx                // node_network_receive_bytes_total; param: interface
	kindLoad1                // node_load1
	kindBucket               // histogram _bucket; param: handler x len(les) + le
	kindSum                  // histogram _sum; param: handler
	kindCount                // histogram _count; param: handler
	kindPad                  // the node profile's other families (node.go); param: its index among them
	kindNative               // a native histogram (native.go); param: handler
)

// template is one series of every target: its labels sorted by name, job
// set, instance's value left for the target's.
type template struct {
	name  string
	kind  kind
	param int
	// a is what the kind's value takes beside param: kindCPU's share of
	// the mode per mille, kindLoad1's divisor, kindFS*'s filesystem
	// size, kindPad's rule.
	a      int64
	fs     filesystem
	labels []remotewrite.Label
	inst   int // index of the instance label
	rev    int // index of the revision label (ChurnRevision), or -1
}

// The label values every profile's histogram takes, as Prometheus
// exposes them.
var (
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

// templates lists a target's series of the profile in their fixed order:
// the families every profile has, then the profile's others.
func templates(job string, p Profile, hs Histograms, churn Churn) []template {
	sh := p.shape()
	var ts []template
	add := func(t template, pairs ...string) {
		ls := []remotewrite.Label{{Name: remotewrite.MetricName, Value: t.name}, {Name: "job", Value: job}, {Name: "instance"}}
		for i := 0; i+1 < len(pairs); i += 2 {
			name := pairs[i]
			if name == "revision" && churn == ChurnRevision {
				// The target's revision label wins over the series' own
				// (node_exporter_build_info's git revision), which
				// Prometheus' scraper keeps as exported_revision, as it
				// does with honor_labels false.
				name = "exported_revision"
			}
			ls = append(ls, remotewrite.Label{Name: name, Value: pairs[i+1]})
		}
		if churn == ChurnRevision {
			ls = append(ls, remotewrite.Label{Name: "revision"})
		}
		sort.Slice(ls, func(i, j int) bool { return ls[i].Name < ls[j].Name })
		t.labels, t.rev = ls, -1
		for i, l := range ls {
			switch {
			case l.Name == "instance":
				t.inst = i
			case l.Name == "revision" && churn == ChurnRevision:
				t.rev = i
			}
		}
		ts = append(ts, t)
	}
	add(template{name: "up", kind: kindUp})
	for c, cpu := range sh.cpus {
		for md, mode := range sh.modes {
			add(template{name: "node_cpu_seconds_total", kind: kindCPU, param: c*len(sh.modes) + md, a: mode.share},
				"cpu", cpu, "mode", mode.name)
		}
	}
	add(template{name: "node_memory_MemAvailable_bytes", kind: kindMemAvail})
	add(template{name: "node_memory_MemTotal_bytes", kind: kindMemTotal})
	for _, k := range []kind{kindFSAvail, kindFSSize} {
		name := map[kind]string{kindFSAvail: "node_filesystem_avail_bytes", kindFSSize: "node_filesystem_size_bytes"}[k]
		for f, fs := range sh.filesystems {
			add(template{name: name, kind: k, param: f, fs: fs}, "device", fs.device, "fstype", fs.fstype, "mountpoint", fs.mountpoint)
		}
	}
	for d, dev := range sh.netdevs {
		add(template{name: "node_network_receive_bytes_total", kind: kindNetRx, param: d}, "device", dev)
	}
	add(template{name: "node_load1", kind: kindLoad1, a: sh.load})
	for h, handler := range handlers {
		if hs == Native {
			add(template{name: Histogram, kind: kindNative, param: h}, "handler", handler)
			continue
		}
		for b, le := range leLabels {
			add(template{name: Histogram + "_bucket", kind: kindBucket, param: h*len(leLabels) + b}, "handler", handler, "le", le)
		}
		add(template{name: Histogram + "_sum", kind: kindSum, param: h}, "handler", handler)
		add(template{name: Histogram + "_count", kind: kindCount, param: h}, "handler", handler)
	}
	pad := 0
	for _, f := range sh.extra {
		for _, pairs := range f.series() {
			add(template{name: f.name, kind: kindPad, param: pad, a: int64(f.rule)}, pairs...)
			pad++
		}
	}
	return ts
}

// series lists the label pairs of each of the family's series: its
// dimensions' rows crossed in order, then its fixed pairs.
func (f family) series() [][]string {
	out := [][]string{nil}
	for _, d := range f.dims {
		var next [][]string
		for _, prefix := range out {
			for _, row := range d.rows {
				pairs := append([]string(nil), prefix...)
				for i, l := range d.labels {
					pairs = append(pairs, l, row[i])
				}
				next = append(next, pairs)
			}
		}
		out = next
	}
	for i := range out {
		out[i] = append(out[i], f.fixed...)
	}
	return out
}

// SeriesType is what a series is, as an exposition's TYPE line says it.
type SeriesType uint8

// The types.
const (
	Gauge                 SeriesType = iota // a gauge, or an untyped series
	Counter                                 // a counter, named ..._total
	HistogramBucket                         // a classic histogram's _bucket series
	HistogramSum                            // its _sum
	HistogramCount                          // its _count
	NativeHistogramSeries                   // a native histogram: its samples are histograms (NativeHistogram)
)

// Type is series n's type. A histogram's series come in Scrape's order as
// an exposition lists them: its buckets in ascending le, then its _sum,
// then its _count.
func (m *Model) Type(n int) SeriesType {
	t := &m.series[n]
	switch t.kind {
	case kindCPU, kindNetRx:
		return Counter
	case kindBucket:
		return HistogramBucket
	case kindSum:
		return HistogramSum
	case kindCount:
		return HistogramCount
	case kindNative:
		return NativeHistogramSeries
	case kindPad:
		if r := padRule(t.a); (r == padCount || r == padBytes || r == padSeconds) && strings.HasSuffix(t.name, "_total") {
			return Counter
		}
	}
	return Gauge
}

// SeriesPerTarget is the number of series a target exposes.
func (m *Model) SeriesPerTarget() int { return len(m.series) }

// Series lists the series of generation g of the slot's target, each's
// labels sorted by name with __name__, in the order Scrape gives them.
func (m *Model) Series(slot int, g int64) ([][]remotewrite.Label, error) {
	if err := m.checkSlot(slot); err != nil {
		return nil, err
	}
	open := m.openValues(nil, new([]byte), slot, g)
	out := make([][]remotewrite.Label, len(m.series))
	for i := range m.series {
		t := &m.series[i]
		out[i] = append([]remotewrite.Label(nil), t.labels...)
		t.setOpen(out[i], open)
	}
	return out, nil
}
