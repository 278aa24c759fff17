// Package otlpmetrics writes OTLP/HTTP metrics export requests
// (opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest,
// protobuf, gzip-compressed: remotewrite.OTLP's headers) of
// Prometheus-shaped series, as an
// OpenTelemetry Collector sends what it scraped: a gauge (or an untyped
// series) a Gauge's point, a counter whose name ends in _total a point of
// a monotonic cumulative Sum, a classic histogram's _bucket, _sum and
// _count series one point of a Histogram. The stores that take OTLP
// (Prometheus, Mimir, VictoriaMetrics) turn them back into the same
// series: a point's attributes are its labels (job and instance among
// them: no resource attributes, so that no store derives them), and a
// point flagged as holding no recorded value is a staleness marker.
//
// As in internal/remotewrite, the messages are appended field by field:
// a series' attributes are encoded once, by NewEncoder, and a sample costs
// copies. The tests decode every request with OpenTelemetry's generated
// types, which is the contract.
package otlpmetrics

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/tsbench/tsbench/internal/protoappend"
	"github.com/tsbench/tsbench/internal/remotewrite"
)

// Kind is what a series is to OTLP.
type Kind uint8

// The kinds. A histogram's series must come to Append as the model gives
// them: its buckets in ascending le, then its _sum, then its _count,
// which ends its point.
const (
	Gauge        Kind = iota // a gauge or an untyped series: a Gauge's point
	Counter                  // a counter named ..._total: a monotonic cumulative Sum's point
	Bucket                   // a classic histogram's _bucket series, its le label the bound
	HistSum                  // the histogram's _sum
	HistCount                // the histogram's _count
	ExpHistogram             // a native histogram: an ExponentialHistogram's point (AppendHistogram)
)

// Series is a series template: its labels sorted by name (__name__ among
// them), the indexes, ascending, among them of the open labels whose
// values each sample gives (a target's instance, its revision), and its
// kind.
type Series struct {
	Labels []remotewrite.Label
	Open   []int
	Kind   Kind
}

// Wire types and the field keys written.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2

	keyResourceMetrics = 1<<3 | wireBytes    // ExportMetricsServiceRequest.resource_metrics
	keyScopeMetrics    = 2<<3 | wireBytes    // ResourceMetrics.scope_metrics
	keyMetrics         = 2<<3 | wireBytes    // ScopeMetrics.metrics
	keyName            = 1<<3 | wireBytes    // Metric.name
	keyGauge           = 5<<3 | wireBytes    // Metric.gauge
	keySum             = 7<<3 | wireBytes    // Metric.sum
	keyHistogram       = 9<<3 | wireBytes    // Metric.histogram
	keyExpHistogram    = 10<<3 | wireBytes   // Metric.exponential_histogram
	keyDataPoints      = 1<<3 | wireBytes    // Gauge/Sum/Histogram.data_points
	keyTemporality     = 2<<3 | wireVarint   // Sum/Histogram.aggregation_temporality
	keyMonotonic       = 3<<3 | wireVarint   // Sum.is_monotonic
	keyNumberAttrs     = 7<<3 | wireBytes    // NumberDataPoint.attributes
	keyTime            = 3<<3 | wireFixed64  // NumberDataPoint/HistogramDataPoint.time_unix_nano
	keyAsDouble        = 4<<3 | wireFixed64  // NumberDataPoint.as_double
	keyNumberFlags     = 8<<3 | wireVarint   // NumberDataPoint.flags
	keyHistAttrs       = 9<<3 | wireBytes    // HistogramDataPoint.attributes
	keyHistCount       = 4<<3 | wireFixed64  // HistogramDataPoint.count
	keyHistSum         = 5<<3 | wireFixed64  // HistogramDataPoint.sum
	keyBucketCounts    = 6<<3 | wireBytes    // HistogramDataPoint.bucket_counts, packed fixed64
	keyBounds          = 7<<3 | wireBytes    // HistogramDataPoint.explicit_bounds, packed double
	keyHistFlags       = 10<<3 | wireVarint  // HistogramDataPoint.flags
	keyKey             = 1<<3 | wireBytes    // KeyValue.key
	keyValue           = 2<<3 | wireBytes    // KeyValue.value
	keyStringValue     = 1<<3 | wireBytes    // AnyValue.string_value
	keyExpAttrs        = 1<<3 | wireBytes    // ExponentialHistogramDataPoint.attributes
	keyExpCount        = 4<<3 | wireFixed64  // ExponentialHistogramDataPoint.count
	keyExpSum          = 5<<3 | wireFixed64  // ExponentialHistogramDataPoint.sum
	keyExpScale        = 6<<3 | wireVarint   // ExponentialHistogramDataPoint.scale (sint32)
	keyExpZeroCount    = 7<<3 | wireFixed64  // ExponentialHistogramDataPoint.zero_count
	keyExpPositive     = 8<<3 | wireBytes    // ExponentialHistogramDataPoint.positive
	keyExpFlags        = 10<<3 | wireVarint  // ExponentialHistogramDataPoint.flags
	keyExpZeroThresh   = 14<<3 | wireFixed64 // ExponentialHistogramDataPoint.zero_threshold
	keyBucketsOffset   = 1<<3 | wireVarint   // Buckets.offset (sint32)
	keyBucketsCounts   = 2<<3 | wireBytes    // Buckets.bucket_counts, packed varint

	cumulative    = 2 // AggregationTemporality CUMULATIVE
	noRecordedVal = 1 // DataPointFlags FLAG_NO_RECORDED_VALUE: a staleness marker
)

// metric is a metric of the request: its name, what it is, and the data
// point fields its series gave.
type metric struct {
	name   string
	kind   Kind // Gauge, Counter or HistCount (a histogram)
	points []byte
}

// template is a series' encoding: its metric, its attributes but the open
// ones as KeyValue messages in parts around them (parts[j] before open
// label j, the last after them all), the open labels' names; a bucket's
// bound.
type template struct {
	metric int
	kind   Kind
	parts  [][]byte
	fixed  int // the parts' bytes
	names  []string
	bound  float64
}

// Encoder builds requests of series made from templates. It is not safe
// for concurrent use.
type Encoder struct {
	templates []template
	metrics   []metric

	// The histogram point being gathered: its buckets' cumulative counts
	// and bounds, its sum.
	bounds []float64
	cum    []float64
	sum    float64

	gz  *gzip.Writer
	buf bytes.Buffer
}

// NewEncoder encodes the series' attributes once.
func NewEncoder(series []Series) (*Encoder, error) {
	e := &Encoder{templates: make([]template, len(series))}
	index := map[string]int{}
	for i, s := range series {
		name, rest, bound, err := split(s)
		if err != nil {
			return nil, err
		}
		family := name
		if s.Kind >= Bucket && s.Kind <= HistCount {
			family = histogramFamily(name)
		}
		m, ok := index[family]
		if !ok {
			m = len(e.metrics)
			index[family] = m
			kind := s.Kind
			if kind >= Bucket && kind <= HistCount {
				kind = HistCount
			}
			e.metrics = append(e.metrics, metric{name: family, kind: kind})
		}
		t := &e.templates[i]
		t.metric, t.kind, t.bound = m, s.Kind, bound
		key := byte(keyNumberAttrs)
		switch {
		case s.Kind == ExpHistogram:
			key = keyExpAttrs
		case s.Kind >= Bucket:
			key = keyHistAttrs
		}
		open := map[string]bool{}
		for _, j := range s.Open {
			open[s.Labels[j].Name] = true
		}
		t.parts = make([][]byte, 1, len(s.Open)+1)
		for _, l := range rest {
			if open[l.Name] {
				t.names = append(t.names, l.Name)
				t.parts = append(t.parts, nil)
				continue
			}
			t.parts[len(t.parts)-1] = appendKeyValue(t.parts[len(t.parts)-1], key, l.Name, l.Value)
		}
		for _, p := range t.parts {
			t.fixed += len(p)
		}
	}
	return e, nil
}

// split is a series' metric name, its labels without __name__ (and a
// bucket's le), and a bucket's bound.
func split(s Series) (name string, rest []remotewrite.Label, bound float64, err error) {
	for _, l := range s.Labels {
		switch {
		case l.Name == remotewrite.MetricName:
			name = l.Value
		case l.Name == "le" && s.Kind == Bucket:
			if bound, err = strconv.ParseFloat(l.Value, 64); err != nil {
				return "", nil, 0, fmt.Errorf("otlpmetrics: bucket %s: le %q: %w", name, l.Value, err)
			}
		default:
			rest = append(rest, l)
		}
	}
	return name, rest, bound, nil
}

// histogramFamily is the histogram's name of one of its series' names.
func histogramFamily(name string) string {
	for _, suffix := range []string{"_bucket", "_sum", "_count"} {
		if n := len(name) - len(suffix); n > 0 && name[n:] == suffix {
			return name[:n]
		}
	}
	return name
}

// Reset starts a new request.
func (e *Encoder) Reset() {
	for i := range e.metrics {
		e.metrics[i].points = e.metrics[i].points[:0]
	}
	e.bounds, e.cum = e.bounds[:0], e.cum[:0]
}

// Append adds a sample of template n's series with values as its open
// labels', v at t (ms); a staleness marker (remotewrite's StaleNaN, or
// any NaN of the model's) is a point flagged as holding no value.
func (e *Encoder) Append(n int, values []string, t int64, v float64) {
	tp := &e.templates[n]
	switch tp.kind {
	case Bucket:
		e.bounds = append(e.bounds, tp.bound)
		e.cum = append(e.cum, v)
		return
	case HistSum:
		e.sum = v
		return
	case HistCount:
		e.appendHistogram(tp, values, t, v)
		return
	case ExpHistogram: // only a staleness marker comes as a float
		m := &e.metrics[tp.metric]
		m.points = tp.appendPointHead(m.points, keyExpAttrs, values, t, 2)
		m.points = append(m.points, keyExpFlags, noRecordedVal)
		return
	}
	m := &e.metrics[tp.metric]
	stale := math.IsNaN(v)
	rest := 9 // as_double
	if stale {
		rest = 2 // flags
	}
	m.points = tp.appendPointHead(m.points, keyNumberAttrs, values, t, rest)
	if stale {
		m.points = append(m.points, keyNumberFlags, noRecordedVal)
	} else {
		m.points = protoappend.AppendFixed64(m.points, keyAsDouble, math.Float64bits(v))
	}
}

// appendHistogram ends the histogram point gathered: its count, sum and
// buckets (OTLP counts each bucket apart, Prometheus cumulatively), the
// +Inf bucket's bound left out as OTLP leaves it.
func (e *Encoder) appendHistogram(tp *template, values []string, t int64, count float64) {
	m := &e.metrics[tp.metric]
	bounds := e.bounds
	if k := len(bounds); k > 0 && math.IsInf(bounds[k-1], 1) {
		bounds = bounds[:k-1]
	}
	stale := math.IsNaN(count)
	nb := len(e.cum)
	rest := protoappend.BytesLen(8*nb) + protoappend.BytesLen(8*len(bounds))
	if stale {
		rest += 2 // flags
	} else {
		rest += 9 + 9 // count, sum
	}
	m.points = tp.appendPointHead(m.points, keyHistAttrs, values, t, rest)
	if stale {
		m.points = append(m.points, keyHistFlags, noRecordedVal)
	} else {
		m.points = protoappend.AppendFixed64(m.points, keyHistCount, uint64(count))
		m.points = protoappend.AppendFixed64(m.points, keyHistSum, math.Float64bits(e.sum))
	}
	// A stale point keeps its buckets, counted 0: VictoriaMetrics marks
	// the buckets it is given stale, the +Inf one among them.
	m.points = append(m.points, keyBucketCounts)
	m.points = binary.AppendUvarint(m.points, uint64(8*nb))
	prev := 0.0
	for _, c := range e.cum {
		if stale {
			c = 0
		}
		m.points = binary.LittleEndian.AppendUint64(m.points, uint64(c-prev))
		prev = c
	}
	m.points = append(m.points, keyBounds)
	m.points = binary.AppendUvarint(m.points, uint64(8*len(bounds)))
	for _, b := range bounds {
		m.points = binary.LittleEndian.AppendUint64(m.points, math.Float64bits(b))
	}
	e.bounds, e.cum, e.sum = e.bounds[:0], e.cum[:0], 0
}

// AppendHistogram adds a native histogram sample of template n's series
// (an ExpHistogram) with values as its open labels', h at t (ms): OTLP's
// scale is the schema, and its bucket i holds (base^i, base^(i+1)], one
// below Prometheus' numbering, which the stores add back.
func (e *Encoder) AppendHistogram(n int, values []string, t int64, h *remotewrite.Histogram) {
	tp := &e.templates[n]
	m := &e.metrics[tp.metric]
	offset := protowire.EncodeZigZag(int64(h.Offset) - 1)
	counts := 0
	for _, c := range h.Counts {
		counts += protoappend.VarintLen(c)
	}
	buckets := 1 + protoappend.VarintLen(offset) + protoappend.BytesLen(counts)
	scale := protowire.EncodeZigZag(int64(h.Schema))
	rest := 9 + 9 + 1 + protoappend.VarintLen(scale) + 9 + protoappend.BytesLen(buckets) + 9
	m.points = tp.appendPointHead(m.points, keyExpAttrs, values, t, rest)
	m.points = protoappend.AppendFixed64(m.points, keyExpCount, h.Count)
	m.points = protoappend.AppendFixed64(m.points, keyExpSum, math.Float64bits(h.Sum))
	m.points = append(m.points, keyExpScale)
	m.points = binary.AppendUvarint(m.points, scale)
	m.points = protoappend.AppendFixed64(m.points, keyExpZeroCount, 0)
	m.points = append(m.points, keyExpPositive)
	m.points = binary.AppendUvarint(m.points, uint64(buckets))
	m.points = append(m.points, keyBucketsOffset)
	m.points = binary.AppendUvarint(m.points, offset)
	m.points = append(m.points, keyBucketsCounts)
	m.points = binary.AppendUvarint(m.points, uint64(counts))
	for _, c := range h.Counts {
		m.points = binary.AppendUvarint(m.points, c)
	}
	m.points = protoappend.AppendFixed64(m.points, keyExpZeroThresh, math.Float64bits(remotewrite.ZeroThreshold))
}

// appendPointHead opens a data point of the template's series whose
// fields after its time take rest bytes: the point's key and length, its
// attributes (the open ones, under attrs, valued values) and its time.
func (tp *template) appendPointHead(dst []byte, attrs byte, values []string, t int64, rest int) []byte {
	body := tp.fixed + 9 + rest
	for j, name := range tp.names {
		body += kvLen(name, values[j])
	}
	dst = append(dst, keyDataPoints)
	dst = binary.AppendUvarint(dst, uint64(body))
	for j, name := range tp.names {
		dst = append(dst, tp.parts[j]...)
		dst = appendKeyValue(dst, attrs, name, values[j])
	}
	dst = append(dst, tp.parts[len(tp.names)]...)
	return protoappend.AppendFixed64(dst, keyTime, uint64(t)*1e6)
}

// AppendRequest appends the uncompressed request to dst: one resource,
// one scope, a metric for each that has points. The resource and the
// scope are left empty: VictoriaMetrics makes a scope's name and version
// labels of every series, and Prometheus a resource's attributes a
// target_info series.
func (e *Encoder) AppendRequest(dst []byte) []byte {
	scope := 0
	for i := range e.metrics {
		if n := e.metricLen(&e.metrics[i]); n > 0 {
			scope += protoappend.BytesLen(n)
		}
	}
	resource := protoappend.BytesLen(scope)
	dst = append(dst, keyResourceMetrics)
	dst = binary.AppendUvarint(dst, uint64(resource))
	dst = append(dst, keyScopeMetrics)
	dst = binary.AppendUvarint(dst, uint64(scope))
	for i := range e.metrics {
		m := &e.metrics[i]
		n := e.metricLen(m)
		if n == 0 {
			continue
		}
		dst = append(dst, keyMetrics)
		dst = binary.AppendUvarint(dst, uint64(n))
		dst = protoappend.AppendBytes(dst, keyName, m.name)
		key, data := dataOf(m)
		dst = append(dst, key)
		dst = binary.AppendUvarint(dst, uint64(data))
		dst = append(dst, m.points...)
		switch m.kind {
		case Counter:
			dst = append(dst, keyTemporality, cumulative, keyMonotonic, 1)
		case HistCount, ExpHistogram:
			dst = append(dst, keyTemporality, cumulative)
		}
	}
	return dst
}

// metricLen is the encoded Metric's length, 0 without points.
func (e *Encoder) metricLen(m *metric) int {
	if len(m.points) == 0 {
		return 0
	}
	_, data := dataOf(m)
	return protoappend.BytesLen(len(m.name)) + protoappend.BytesLen(data)
}

// dataOf is the key of the metric's data field and the data's length.
func dataOf(m *metric) (key byte, n int) {
	switch m.kind {
	case Counter:
		return keySum, len(m.points) + 4
	case HistCount:
		return keyHistogram, len(m.points) + 2
	case ExpHistogram:
		return keyExpHistogram, len(m.points) + 2
	}
	return keyGauge, len(m.points)
}

// Compress is raw gzip-compressed (at BestSpeed, as cheap as a client can
// make it), in dst's memory when it has room.
func (e *Encoder) Compress(dst, raw []byte) []byte {
	e.buf.Reset()
	if e.gz == nil {
		e.gz, _ = gzip.NewWriterLevel(&e.buf, gzip.BestSpeed) // a valid level: no error
	} else {
		e.gz.Reset(&e.buf)
	}
	e.gz.Write(raw) //nolint:errcheck // a bytes.Buffer's Write never fails
	e.gz.Close()    //nolint:errcheck
	return append(dst[:0], e.buf.Bytes()...)
}

// kvLen is a KeyValue field's length, its key included.
func kvLen(name, value string) int {
	return protoappend.BytesLen(kvBodyLen(name, value))
}

func kvBodyLen(name, value string) int {
	return protoappend.BytesLen(len(name)) + protoappend.BytesLen(protoappend.BytesLen(len(value)))
}

// appendKeyValue appends a KeyValue field of a string value.
func appendKeyValue(dst []byte, key byte, name, value string) []byte {
	dst = append(dst, key)
	dst = binary.AppendUvarint(dst, uint64(kvBodyLen(name, value)))
	dst = protoappend.AppendBytes(dst, keyKey, name)
	dst = append(dst, keyValue)
	dst = binary.AppendUvarint(dst, uint64(protoappend.BytesLen(len(value))))
	return protoappend.AppendBytes(dst, keyStringValue, value)
}

// CheckAnswer reads a store's answer to an export request
// (ExportMetricsServiceResponse, protobuf): a success may carry a partial
// success, data points the store rejected, which is an error naming how
// many and the store's message. An empty answer is a whole success.
func CheckAnswer(answer []byte) error {
	var partial []byte
	if err := walk(answer, func(num protowire.Number, _ uint64, b []byte) {
		if num == 1 { // partial_success
			partial = b
		}
	}); err != nil {
		return err
	}
	var rejected uint64
	var msg string
	if err := walk(partial, func(num protowire.Number, v uint64, b []byte) {
		switch num {
		case 1: // rejected_data_points
			rejected = v
		case 2: // error_message
			msg = string(b)
		}
	}); err != nil {
		return err
	}
	if rejected > 0 {
		return fmt.Errorf("%d data points rejected: %s", rejected, msg)
	}
	return nil
}

// walk calls fn with each field of message b: its number and its value, a
// varint's as v, a length-delimited field's as b.
func walk(b []byte, fn func(num protowire.Number, v uint64, b []byte)) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return errAnswer
		}
		b = b[n:]
		var v uint64
		var s []byte
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			s, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return errAnswer
		}
		b = b[n:]
		fn(num, v, s)
	}
	return nil
}

var errAnswer = errors.New("the answer is not an ExportMetricsServiceResponse")
