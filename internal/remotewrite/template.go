package remotewrite

import (
	"encoding/binary"

	"github.com/tsbench/tsbench/internal/protoappend"
)

// TemplateEncoder builds requests of series made from templates: label
// sets that differ from series to series only in one open label's value
// (a scrape target's instance). Every label but the open one is encoded
// once, by NewTemplateEncoder, so that a sample costs copies rather than
// an encoding of its labels: in 1.0 the Label fields before and after
// the open one; in 2.0 their symbol references, the templates' strings
// being the first symbols of every request and each open value a symbol
// of the request that uses it.
type TemplateEncoder struct {
	v         Version
	templates []encodedTemplate

	// 2.0
	prefix   []byte            // the Request.symbols fields of "" and the templates' strings
	shared   uint64            // how many symbols prefix holds
	index    map[string]uint64 // prefix's symbols' references
	symbols  []byte            // the request's own symbols: the open values, as Request.symbols fields
	own      map[string]uint64
	last     string // the open value of the last sample, and its reference
	lastRef  uint64
	haveLast bool

	series []byte // the request's series fields
	hist   []byte // a Histogram message being encoded
}

// encodedTemplate is a template's labels but the open one, encoded: 1.0
// Label fields, or 2.0 pairs of references, before and after the open
// label; and the open label's name (2.0: its reference).
type encodedTemplate struct {
	before, after []byte
	openName      string
	openRef       uint64
}

// NewTemplateEncoder encodes the templates (each's labels sorted by name)
// for requests of version v: open[i] is the index among templates[i] of
// the label whose value each sample gives.
func NewTemplateEncoder(v Version, templates [][]Label, open []int) *TemplateEncoder {
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
		for j, l := range ls {
			side := &t.before
			switch {
			case j == open[i]:
				if v == V2 {
					t.openRef = ref(l.Name)
				}
				t.openName = l.Name
				continue
			case j > open[i]:
				side = &t.after
			}
			if v == V1 {
				*side = AppendLabel(*side, l.Name, l.Value)
			} else {
				*side = binary.AppendUvarint(*side, ref(l.Name))
				*side = binary.AppendUvarint(*side, ref(l.Value))
			}
		}
	}
	return e
}

// Reset starts a new request.
func (e *TemplateEncoder) Reset() {
	e.series, e.symbols = e.series[:0], e.symbols[:0]
	clear(e.own)
	e.haveLast = false
}

// Append adds a series of one sample to the request: template n's labels
// with value as the open label's, and v at t.
func (e *TemplateEncoder) Append(n int, value string, t int64, v float64) {
	e.appendLabels(n, value, 2+sampleLen(t))
	e.series = appendSample(e.series, v, t)
}

// AppendHistogram adds a series of one native histogram sample to the
// request: template n's labels with value as the open label's, and h at t.
func (e *TemplateEncoder) AppendHistogram(n int, value string, t int64, h *Histogram) {
	e.hist = appendHistogram(e.hist[:0], h, t)
	key := byte(keyV1Histograms)
	if e.v == V2 {
		key = keyV2Histograms
	}
	e.appendLabels(n, value, protoappend.BytesLen(len(e.hist)))
	e.series = append(e.series, key)
	e.series = binary.AppendUvarint(e.series, uint64(len(e.hist)))
	e.series = append(e.series, e.hist...)
}

// appendLabels opens a TimeSeries field of template n's labels with value
// as the open label's, followed by rest bytes of samples the caller
// appends.
func (e *TemplateEncoder) appendLabels(n int, value string, rest int) {
	tp := &e.templates[n]
	if e.v == V1 {
		label := protoappend.BytesLen(len(tp.openName)) + protoappend.BytesLen(len(value))
		size := len(tp.before) + 1 + protoappend.VarintLen(uint64(label)) + label + len(tp.after) + rest
		e.series = append(e.series, keyV1Series)
		e.series = binary.AppendUvarint(e.series, uint64(size))
		e.series = append(e.series, tp.before...)
		e.series = AppendLabel(e.series, tp.openName, value)
		e.series = append(e.series, tp.after...)
		return
	}
	valueRef := e.openRef(value)
	refs := len(tp.before) + protoappend.VarintLen(tp.openRef) + protoappend.VarintLen(valueRef) + len(tp.after)
	size := protoappend.BytesLen(refs) + rest
	e.series = append(e.series, keyV2Series)
	e.series = binary.AppendUvarint(e.series, uint64(size))
	e.series = append(e.series, keyLabels)
	e.series = binary.AppendUvarint(e.series, uint64(refs))
	e.series = append(e.series, tp.before...)
	e.series = binary.AppendUvarint(e.series, tp.openRef)
	e.series = binary.AppendUvarint(e.series, valueRef)
	e.series = append(e.series, tp.after...)
}

// openRef is the reference of an open value in the request, a symbol of
// its own the first time. A target's samples come together: the last
// value's reference is kept aside, sparing a lookup per sample.
func (e *TemplateEncoder) openRef(value string) uint64 {
	if e.haveLast && value == e.last {
		return e.lastRef
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
	e.last, e.lastRef, e.haveLast = value, r, true
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
