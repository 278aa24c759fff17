// Package remotewrite writes Prometheus remote write requests: 1.0's
// prometheus.WriteRequest and 2.0's io.prometheus.write.v2.Request,
// protobuf, snappy block-compressed, as Prometheus agents send them. The
// remote-write targets (VictoriaMetrics, Prometheus, Mimir, Thanos) write
// their batches through an Encoder, and the prometheus-rw live output its
// samples through AppendSeries and AppendMetadata.
//
// The messages are appended field by field rather than built as prompb
// structs and marshalled: a batch then costs no allocation, every
// device's labels (and 2.0's symbols) are encoded once per schema, and a
// point is its 8-byte value and its timestamp's varint. The tests decode
// every request with Prometheus' own prompb types, which is the contract.
// BenchmarkEncode compares the two ways on the lean shape.
package remotewrite

import (
	"encoding/binary"
	"math"
	"sort"

	"github.com/golang/snappy"

	"github.com/tsbench/tsbench/internal/protoappend"
	"github.com/tsbench/tsbench/internal/ts"
)

// Version is a remote write protocol version.
type Version int

// The versions: 1.0 (prometheus.WriteRequest, every series with its
// labels as strings) and 2.0 (io.prometheus.write.v2.Request, a request's
// strings once in a symbol table, series naming them by index).
//
// OTLP is not remote write but the third way the stores take samples:
// OTLP/HTTP metrics export requests, gzip-compressed protobuf, which
// package otlpmetrics encodes (the prometheus workload only).
const (
	V1   Version = 1
	V2   Version = 2
	OTLP Version = 3
)

func (v Version) String() string {
	switch v {
	case V2:
		return "2.0"
	case OTLP:
		return "OTLP"
	}
	return "1.0"
}

// Header is the request headers of the version as name, value pairs
// (httpclient.Poster's form): snappy, the content type naming the message,
// and the version header a receiver that speaks both reads first; OTLP's
// content type and gzip.
func (v Version) Header() []string {
	if v == OTLP {
		return []string{"Content-Type", "application/x-protobuf", "Content-Encoding", "gzip", "User-Agent", "tsbench"}
	}
	ct, ver := "application/x-protobuf", "0.1.0"
	if v == V2 {
		ct, ver = "application/x-protobuf;proto=io.prometheus.write.v2.Request", "2.0.0"
	}
	return []string{"Content-Encoding", "snappy", "Content-Type", ct,
		"X-Prometheus-Remote-Write-Version", ver, "User-Agent", "tsbench"}
}

// Field keys (field number << 3 | wire type) of the messages written.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2

	keyV1Series   = 1<<3 | wireBytes   // WriteRequest.timeseries
	keyV1Metadata = 3<<3 | wireBytes   // WriteRequest.metadata
	keyV2Symbols  = 4<<3 | wireBytes   // Request.symbols
	keyV2Series   = 5<<3 | wireBytes   // Request.timeseries
	keyLabels     = 1<<3 | wireBytes   // TimeSeries.labels (1.0), TimeSeries.labels_refs, packed (2.0)
	keySamples    = 2<<3 | wireBytes   // TimeSeries.samples
	keyLabelName  = 1<<3 | wireBytes   // Label.name
	keyLabelValue = 2<<3 | wireBytes   // Label.value
	keyValue      = 1<<3 | wireFixed64 // Sample.value
	keyTimestamp  = 2<<3 | wireVarint  // Sample.timestamp
	keyMetaType   = 1<<3 | wireVarint  // MetricMetadata.type
	keyMetaFamily = 2<<3 | wireBytes   // MetricMetadata.metric_family_name
	keyMetaHelp   = 4<<3 | wireBytes   // MetricMetadata.help
)

// MetricName is the label that holds a series' metric name.
const MetricName = "__name__"

// AppendLabel appends a 1.0 TimeSeries.labels field: a Label message.
// A series' labels go in order of name.
func AppendLabel(dst []byte, name, value string) []byte {
	n := protoappend.BytesLen(len(name)) + protoappend.BytesLen(len(value))
	dst = append(dst, keyLabels)
	dst = binary.AppendUvarint(dst, uint64(n))
	dst = protoappend.AppendBytes(dst, keyLabelName, name)
	return protoappend.AppendBytes(dst, keyLabelValue, value)
}

// sampleLen is the length of a Sample message at time t.
func sampleLen(t int64) int { return 1 + 8 + 1 + protoappend.VarintLen(uint64(t)) }

// appendSample appends a TimeSeries.samples field. A Sample message is at
// most 20 bytes, so its length is one byte.
func appendSample(dst []byte, v float64, t int64) []byte {
	dst = append(dst, keySamples, byte(sampleLen(t)), keyValue)
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v))
	dst = append(dst, keyTimestamp)
	return binary.AppendUvarint(dst, uint64(t))
}

// AppendSeries appends a 1.0 WriteRequest.timeseries field: labels (the
// Label fields AppendLabel wrote, in order of name) and a sample per
// time, in the order given.
func AppendSeries(dst, labels []byte, times []int64, values []float64) []byte {
	n := len(labels)
	for _, t := range times {
		n += 2 + sampleLen(t)
	}
	dst = append(dst, keyV1Series)
	dst = binary.AppendUvarint(dst, uint64(n))
	dst = append(dst, labels...)
	for i, t := range times {
		dst = appendSample(dst, values[i], t)
	}
	return dst
}

// MetricType is a 1.0 MetricMetadata type.
type MetricType int

// The metric types tsbench sends (prompb.MetricMetadata_COUNTER, _GAUGE).
const (
	Counter MetricType = 1
	Gauge   MetricType = 2
)

// AppendMetadata appends a 1.0 WriteRequest.metadata field: a metric
// family's type and help text.
func AppendMetadata(dst []byte, typ MetricType, family, help string) []byte {
	n := 1 + protoappend.VarintLen(uint64(typ)) + protoappend.BytesLen(len(family)) + protoappend.BytesLen(len(help))
	dst = append(dst, keyV1Metadata)
	dst = binary.AppendUvarint(dst, uint64(n))
	dst = append(dst, keyMetaType)
	dst = binary.AppendUvarint(dst, uint64(typ))
	dst = protoappend.AppendBytes(dst, keyMetaFamily, family)
	return protoappend.AppendBytes(dst, keyMetaHelp, help)
}

// Compress is raw snappy block-compressed, in dst's memory when it has
// room.
func Compress(dst, raw []byte) []byte {
	if n := snappy.MaxEncodedLen(len(raw)); cap(dst) < n {
		dst = make([]byte, n)
	}
	return snappy.Encode(dst[:cap(dst)], raw)
}

// Label is a label's name and value.
type Label struct{ Name, Value string }

// Encoder writes batches of one schema as requests of one version: a
// sensor is a metric name, a device a label set. What repeats from batch
// to batch is encoded once, by NewEncoder: each sensor's name label, and
// each device's labels split where the metric name sorts among them
// (2.0: the device's symbols and label references likewise).
type Encoder struct {
	v       Version
	names   [][]byte // 1.0: each sensor's __name__ label field
	devices []encodedDevice
	prefix  []byte // 2.0: the symbols "", "__name__" and the sensors' names, as Request.symbols fields
	raw     []byte // the request, reused
	body    []byte // raw compressed, reused
	tsLens  []int  // per row of the batch: its Sample field's length
}

// encodedDevice is a device's labels, encoded: those whose names sort
// before the metric name's and those after (1.0: Label fields; 2.0: label
// references as varints), and 2.0's symbols of the device.
type encodedDevice struct {
	before, after []byte
	symbols       []byte
}

// NewEncoder prepares the encoding of the sensors' series of each device
// (devices[i]: the labels of the device at position i, none named
// __name__), a sensor's metric name being its name. A label with an empty
// value is left out: Prometheus reads it as no label at all.
func NewEncoder(v Version, sensors []ts.Sensor, devices [][]Label) *Encoder {
	e := &Encoder{v: v, devices: make([]encodedDevice, len(devices))}
	if v == V1 {
		e.names = make([][]byte, len(sensors))
		for i, sn := range sensors {
			e.names[i] = AppendLabel(nil, MetricName, sn.Name)
		}
	}
	var index map[string]uint64 // 2.0: the shared symbols' references
	if v == V2 {
		index = map[string]uint64{}
		shared := []string{"", MetricName}
		for _, sn := range sensors {
			shared = append(shared, sn.Name)
		}
		for i, s := range shared {
			e.prefix = protoappend.AppendBytes(e.prefix, keyV2Symbols, s)
			if _, dup := index[s]; !dup {
				index[s] = uint64(i)
			}
		}
	}
	for pos, labels := range devices {
		ls := make([]Label, 0, len(labels))
		for _, l := range labels {
			if l.Value != "" {
				ls = append(ls, l)
			}
		}
		sort.Slice(ls, func(i, j int) bool { return ls[i].Name < ls[j].Name })
		d := &e.devices[pos]
		if v == V1 {
			for _, l := range ls {
				if l.Name < MetricName {
					d.before = AppendLabel(d.before, l.Name, l.Value)
				} else {
					d.after = AppendLabel(d.after, l.Name, l.Value)
				}
			}
			continue
		}
		// 2.0: the device's strings follow the shared ones; a string
		// already there (a tag value equal to a sensor's name) is named
		// by its first reference.
		next := uint64(len(sensors) + 2)
		own := map[string]uint64{}
		ref := func(s string) uint64 {
			if r, ok := index[s]; ok {
				return r
			}
			if r, ok := own[s]; ok {
				return r
			}
			own[s] = next
			d.symbols = protoappend.AppendBytes(d.symbols, keyV2Symbols, s)
			next++
			return next - 1
		}
		for _, l := range ls {
			refs := &d.after
			if l.Name < MetricName {
				refs = &d.before
			}
			*refs = binary.AppendUvarint(*refs, ref(l.Name))
			*refs = binary.AppendUvarint(*refs, ref(l.Value))
		}
	}
	return e
}

// Encode returns the compressed request of a batch of the device at
// position pos: a series per sensor with a sample per row that has a
// value (a sensor without any has no series), the rows in the batch's
// order. The bytes are the Encoder's, valid until its next Encode.
func (e *Encoder) Encode(pos int, b *ts.Batch) []byte {
	e.raw = e.AppendRequest(e.raw[:0], pos, b)
	e.body = Compress(e.body, e.raw)
	return e.body
}

// AppendRequest appends the uncompressed request of a batch (Encode) to
// dst.
func (e *Encoder) AppendRequest(dst []byte, pos int, b *ts.Batch) []byte {
	d := &e.devices[pos]
	if e.v == V2 {
		dst = append(dst, e.prefix...)
		dst = append(dst, d.symbols...)
	}
	// Every dense series has the same samples: their length is the
	// batch's, summed once.
	e.tsLens = e.tsLens[:0]
	dense := 0
	for _, t := range b.Times {
		n := 2 + sampleLen(t)
		e.tsLens = append(e.tsLens, n)
		dense += n
	}
	var pair [1 + binary.MaxVarintLen64]byte // 2.0: the varints of __name__'s pair (1, 2+sensor)
	for sn := range b.Columns {
		c := &b.Columns[sn]
		samples := dense
		if b.Nulls != 0 {
			samples = 0
			for i := range b.Times {
				if c.Present(i) {
					samples += e.tsLens[i]
				}
			}
			if samples == 0 {
				continue
			}
		}
		var n int
		if e.v == V1 {
			name := e.names[sn]
			n = len(d.before) + len(name) + len(d.after) + samples
			dst = append(dst, keyV1Series)
			dst = binary.AppendUvarint(dst, uint64(n))
			dst = append(dst, d.before...)
			dst = append(dst, name...)
			dst = append(dst, d.after...)
		} else {
			ref := binary.AppendUvarint(append(pair[:0], 1), uint64(2+sn))
			refs := len(d.before) + len(ref) + len(d.after)
			n = protoappend.BytesLen(refs) + samples
			dst = append(dst, keyV2Series)
			dst = binary.AppendUvarint(dst, uint64(n))
			dst = append(dst, keyLabels)
			dst = binary.AppendUvarint(dst, uint64(refs))
			dst = append(dst, d.before...)
			dst = append(dst, ref...)
			dst = append(dst, d.after...)
		}
		dst = appendColumn(dst, c, b.Times, b.Nulls != 0)
	}
	return dst
}

// appendColumn appends a sample per row of the column that has a value.
func appendColumn(dst []byte, c *ts.Column, times []int64, sparse bool) []byte {
	if c.Type == ts.Double && !sparse {
		for i, t := range times {
			dst = appendSample(dst, c.Doubles[i], t)
		}
		return dst
	}
	for i, t := range times {
		if sparse && !c.Present(i) {
			continue
		}
		v, _ := c.Number(i)
		dst = appendSample(dst, v, t)
	}
	return dst
}
