package remotewrite

import (
	"encoding/binary"
	"slices"

	"github.com/tsbench/tsbench/internal/protoappend"
)

// TemplateEncoder builds requests of series made from templates: label
// sets that differ from series to series only in the values of a few open
// labels (a scrape target's instance, its revision). Every label but the
// open ones is encoded once, by NewTemplateEncoder, so that a sample
// costs copies rather than an encoding of its labels: in 1.0 the Label
// fields around the open ones; in 2.0 their symbol references, the
// templates' strings being the first symbols of every request and each
// open value a symbol of the request that uses it.
type TemplateEncoder struct {
	v         Version
	templates []encodedTemplate

	// 2.0
	prefix  []byte            // the Request.symbols fields of "" and the templates' strings
	shared  uint64            // how many symbols prefix holds
	index   map[string]uint64 // prefix's symbols' references
	symbols []byte            // the request's own symbols: the open values, as Request.symbols fields
	own     map[string]uint64
	last    []lastRef // by open label: the value of the last sample, and its reference
	refs    []uint64  // the sample's open values' references

	series []byte // the request's series fields
	hist   []byte // a Histogram message being encoded
}

// lastRef is an open label's value in the last sample and its reference.
type lastRef struct {
	value string
	ref   uint64
	set   bool
}

// encodedTemplate is a template's labels but the open ones, encoded: 1.0
// Label fields, or 2.0 pairs of references, in parts around the open
// labels (parts[j] before open label j, the last part after them all);
// and the open labels' names (2.0: their references).
type encodedTemplate struct {
	parts    [][]byte
	fixed    int // the parts' bytes
	names    []string
	nameRefs []uint64
}

// NewTemplateEncoder encodes the templates (each's labels sorted by name)
// for requests of version v: open[i] is the indexes, ascending, among
// templates[i] of the labels whose values each sample gives.
func NewTemplateEncoder(v Version, templates [][]Label, open [][]int) *TemplateEncoder {
	e := &TemplateEncoder{v: v, templates: make([]encodedTemplate, len(templates)), own: map[string]uint64{},
		index: map[string]uint64{}}
	ref := func(s string) uint64 {
		r, ok := e.index[s]
		if !ok {
			r = e.shared
			e.index[s] = r
			e.prefix = protoappend.AppendBytes(e.prefix, keyV2Symbols, s)
			e.shared++
		}
		return r
	}
	if v == V2 {
		ref("") // a 2.0 request's first symbol is the empty string
	}
	for i, ls := range templates {
		t := &e.templates[i]
		t.parts = make([][]byte, 1, len(open[i])+1)
		for j, l := range ls {
			if slices.Contains(open[i], j) {
				t.names = append(t.names, l.Name)
				if v == V2 {
					t.nameRefs = append(t.nameRefs, ref(l.Name))
				}
				t.parts = append(t.parts, nil)
				continue
			}
			side := &t.parts[len(t.parts)-1]
			if v == V1 {
				*side = AppendLabel(*side, l.Name, l.Value)
			} else {
				*side = binary.AppendUvarint(*side, ref(l.Name))
				*side = binary.AppendUvarint(*side, ref(l.Value))
			}
		}
		for _, p := range t.parts {
			t.fixed += len(p)
		}
		e.last = make([]lastRef, max(len(e.last), len(open[i])))
	}
	e.refs = make([]uint64, len(e.last))
	return e
}

// Reset starts a new request.
func (e *TemplateEncoder) Reset() {
	e.series, e.symbols = e.series[:0], e.symbols[:0]
	clear(e.own)
	clear(e.last)
}

// Append adds a series of one sample to the request: template n's labels
// with values as the open labels' (in their order), and v at t.
func (e *TemplateEncoder) Append(n int, values []string, t int64, v float64) {
	e.appendLabels(n, values, 2+sampleLen(t))
	e.series = appendSample(e.series, v, t)
}

// AppendHistogram adds a series of one native histogram sample to the
// request: template n's labels with values as the open labels', and h at t.
func (e *TemplateEncoder) AppendHistogram(n int, values []string, t int64, h *Histogram) {
	e.hist = appendHistogram(e.hist[:0], h, t)
	key := byte(keyV1Histograms)
	if e.v == V2 {
		key = keyV2Histograms
	}
	e.appendLabels(n, values, protoappend.BytesLen(len(e.hist)))
	e.series = append(e.series, key)
	e.series = binary.AppendUvarint(e.series, uint64(len(e.hist)))
	e.series = append(e.series, e.hist...)
}

// appendLabels opens a TimeSeries field of template n's labels with
// values as the open labels', followed by rest bytes of samples the
// caller appends.
func (e *TemplateEncoder) appendLabels(n int, values []string, rest int) {
	tp := &e.templates[n]
	if e.v == V1 {
		size := tp.fixed + rest
		for j, name := range tp.names {
			label := protoappend.BytesLen(len(name)) + protoappend.BytesLen(len(values[j]))
			size += 1 + protoappend.VarintLen(uint64(label)) + label
		}
		e.series = append(e.series, keyV1Series)
		e.series = binary.AppendUvarint(e.series, uint64(size))
		for j, name := range tp.names {
			e.series = append(e.series, tp.parts[j]...)
			e.series = AppendLabel(e.series, name, values[j])
		}
		e.series = append(e.series, tp.parts[len(tp.names)]...)
		return
	}
	refs := tp.fixed
	for j, nameRef := range tp.nameRefs {
		e.refs[j] = e.openRef(j, values[j])
		refs += protoappend.VarintLen(nameRef) + protoappend.VarintLen(e.refs[j])
	}
	size := protoappend.BytesLen(refs) + rest
	e.series = append(e.series, keyV2Series)
	e.series = binary.AppendUvarint(e.series, uint64(size))
	e.series = append(e.series, keyLabels)
	e.series = binary.AppendUvarint(e.series, uint64(refs))
	for j, nameRef := range tp.nameRefs {
		e.series = append(e.series, tp.parts[j]...)
		e.series = binary.AppendUvarint(e.series, nameRef)
		e.series = binary.AppendUvarint(e.series, e.refs[j])
	}
	e.series = append(e.series, tp.parts[len(tp.nameRefs)]...)
}

// openRef is the reference of open label j's value in the request, a
// symbol of its own the first time. A target's samples come together:
// each open label's last value's reference is kept aside, sparing a
// lookup per sample.
func (e *TemplateEncoder) openRef(j int, value string) uint64 {
	if l := &e.last[j]; l.set && value == l.value {
		return l.ref
	}
	r, ok := e.index[value] // a value among the templates' strings has its reference
	if !ok {
		r, ok = e.own[value]
	}
	if !ok {
		r = e.shared + uint64(len(e.own))
		e.own[value] = r
		e.symbols = protoappend.AppendBytes(e.symbols, keyV2Symbols, value)
	}
	e.last[j] = lastRef{value: value, ref: r, set: true}
	return r
}

// AppendRequest appends the uncompressed request (2.0: its symbols before
// its series) to dst.
func (e *TemplateEncoder) AppendRequest(dst []byte) []byte {
	if e.v == V2 {
		dst = append(dst, e.prefix...)
		dst = append(dst, e.symbols...)
	}
	return append(dst, e.series...)
}
