package tsbs

// Exact generation: the rows TSBS's tsbs_generate_data writes for the
// cpu-only and iot use cases (TSBS at commit 37fced7), row for row and value
// for value, for a given seed, scale, span and interval. The golden files in
// testdata/golden, written by TSBS itself, are the proof (exact_test.go); their
// README describes the random draws this file follows.
//
// Cost: TSBS draws everything from one sequential math/rand source seeded
// once, host after host and row after row, and iot even interleaves its
// batch drops and delays with the value draws. A row's values therefore
// depend on every draw made before it: no row can be computed from its index
// alone, and reaching row k costs O(k) work (all the draws of the rows before
// it, plus the rows iot drops or delays). Memory is O(scale) for the devices,
// plus, for iot, the rows it holds back to deliver late.

import (
	"math/rand"
	"strconv"
	"time"
)

// ExactConfig is what tsbs_generate_data is given: --use-case, --seed,
// --scale, --timestamp-start, --timestamp-end and --log-interval. TSBS's
// initial scale is taken equal to Scale (its default), and no point limit.
type ExactConfig struct {
	UseCase string // "cpu-only" or "iot"
	// Seed seeds the source as TSBS's rand.Seed does. TSBS itself replaces
	// a seed of 0 with the clock's nanoseconds; here 0 is seed 0.
	Seed     int64
	Scale    int // hosts or trucks
	Start    time.Time
	End      time.Time
	Interval time.Duration
}

// ExactUseCases are the use cases Exact reproduces.
var ExactUseCases = []string{"cpu-only", "iot"}

// ExactKind is the type TSBS gives a value, which decides how it is written.
type ExactKind uint8

const (
	// ExactMissing is a value TSBS cleared (iot): an empty cell in
	// timescaledb's format, left out in influx's.
	ExactMissing ExactKind = iota
	ExactString
	ExactInt     // int64: cpu's fields, iot's status
	ExactFloat   // float64: iot's readings, fuel_state, current_load
	ExactFloat32 // float32: iot's capacity tags
)

// ExactValue is one tag or field value as TSBS holds it before writing it.
type ExactValue struct {
	Kind  ExactKind
	Str   string  // ExactString
	Int   int64   // ExactInt
	Float float64 // ExactFloat, and ExactFloat32 widened (exactly)
}

// Text is the value as TSBS writes it: integers in decimal, floats in the
// shortest form that reads back as the same float64 (float32 for
// ExactFloat32), never with an exponent; a missing value as "".
func (v ExactValue) Text() string {
	switch v.Kind {
	case ExactString:
		return v.Str
	case ExactInt:
		return strconv.FormatInt(v.Int, 10)
	case ExactFloat:
		return strconv.FormatFloat(v.Float, 'f', -1, 64)
	case ExactFloat32:
		return strconv.FormatFloat(v.Float, 'f', -1, 32)
	}
	return ""
}

func stringValue(s string) ExactValue   { return ExactValue{Kind: ExactString, Str: s} }
func intValue(i int64) ExactValue       { return ExactValue{Kind: ExactInt, Int: i} }
func floatValue(f float64) ExactValue   { return ExactValue{Kind: ExactFloat, Float: f} }
func float32Value(f float32) ExactValue { return ExactValue{Kind: ExactFloat32, Float: float64(f)} }

// ExactPair is a tag or a field: its name and value.
type ExactPair struct {
	Key   string
	Value ExactValue
}

// ExactRow is one row of TSBS's output.
type ExactRow struct {
	Table string    // TSBS's measurement: cpu, readings, diagnostics
	Time  time.Time // UTC
	// Tags in TSBS's written order. For cpu-only the slice is shared by all
	// rows of a host: read it, do not modify it.
	Tags []ExactPair
	// Fields in TSBS's order, every field of the table, cleared ones
	// included as ExactMissing.
	Fields []ExactPair
}

// ExactTable is a table of the header: its name and field names in order.
type ExactTable struct {
	Name   string
	Fields []string
}

// ExactHeader is what TSBS's timescaledb files start with: the tag keys
// with their types, then the tables sorted by name.
type ExactHeader struct {
	TagKeys  []string
	TagTypes []string // Go type names as TSBS writes them: string, float32
	Tables   []ExactTable
}

// Exact yields TSBS's rows in TSBS's order. It is not safe for concurrent use.
type Exact struct {
	header ExactHeader
	next   func() (*ExactRow, bool)
}

// NewExact checks c and builds the devices, making TSBS's first draws.
func NewExact(c ExactConfig) (*Exact, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	r := rand.New(rand.NewSource(c.Seed))
	epochs := uint64(c.End.Sub(c.Start) / c.Interval) // TSBS: whole intervals only
	start := c.Start.UTC()
	if c.UseCase == "cpu-only" {
		s := newCPUSim(r, c.Scale, start, c.Interval, epochs)
		return &Exact{header: cpuHeader(), next: s.next}, nil
	}
	s := newIoTSim(r, c.Scale, start, c.Interval, epochs)
	return &Exact{header: iotHeader(), next: s.next}, nil
}

// Header is the header TSBS writes before the rows.
func (g *Exact) Header() ExactHeader { return g.header }

// Next returns the next row, or false when TSBS would have stopped.
func (g *Exact) Next() (ExactRow, bool) {
	row, ok := g.next()
	if !ok {
		return ExactRow{}, false
	}
	return *row, true
}

func (c ExactConfig) validate() error {
	switch {
	case c.UseCase != "cpu-only" && c.UseCase != "iot":
		return &Error{Key: "ExactConfig.UseCase", Value: c.UseCase, Allowed: "cpu-only, iot"}
	case c.Scale < 1:
		return &Error{Key: "ExactConfig.Scale", Value: strconv.Itoa(c.Scale), Allowed: "1 or more"}
	case !c.End.After(c.Start):
		return &Error{Key: "ExactConfig.End", Value: c.End.Format(time.RFC3339Nano),
			Allowed: "after Start (" + c.Start.Format(time.RFC3339Nano) + ")"}
	case c.Interval <= 0:
		return &Error{Key: "ExactConfig.Interval", Value: c.Interval.String(), Allowed: "more than 0"}
	}
	return nil
}

// walk is TSBS's clamped random walk: each step adds a draw to the state,
// then clamps it to [min, max].
type walk struct {
	state, min, max float64
	step            func(*rand.Rand) float64
}

func (w *walk) advance(r *rand.Rand) {
	w.state += w.step(r)
	if w.state > w.max {
		w.state = w.max
	}
	if w.state < w.min {
		w.state = w.min
	}
}

// uniform is TSBS's uniform step, x*(high-low)+low. The explicit float64
// conversion forbids fusing the multiply and add into one FMA (which Go may
// do on arm64 and others): TSBS's golden files were written on amd64, where
// they are rounded separately.
func uniform(low, high float64) func(*rand.Rand) float64 {
	return func(r *rand.Rand) float64 {
		x := float64(r.Float64() * (high - low))
		return x + low
	}
}

// standardNormal is TSBS's ND(0, 1) step, x*1+0: the same value as x, kept
// in TSBS's form.
func standardNormal(r *rand.Rand) float64 {
	x := float64(r.NormFloat64() * 1.0)
	return x + 0.0
}

// truncate is TSBS's FloatPrecision: the value cut (not rounded) to scale
// (10^digits), through an int as TSBS does.
func truncate(x, scale float64) float64 {
	return float64(int(x*scale)) / scale
}

// cpuSim is TSBS's cpu-only simulator.
type cpuSim struct {
	r        *rand.Rand
	hosts    []cpuHost
	at       time.Time
	interval time.Duration
	made     uint64 // rows made
	limit    uint64 // epochs × hosts
	index    int    // next host within the epoch
}

type cpuHost struct {
	tags  []ExactPair
	usage [10]walk // CPUFields' order
}

func newCPUSim(r *rand.Rand, scale int, start time.Time, interval time.Duration, epochs uint64) *cpuSim {
	s := &cpuSim{r: r, at: start, interval: interval, limit: epochs * uint64(scale)}
	s.hosts = make([]cpuHost, scale)
	for i := range s.hosts {
		s.hosts[i] = newCPUHost(r, i)
	}
	return s
}

// newCPUHost draws as TSBS does: the ten fields' starting values first,
// then the tags in TSBS's draw order (not their written order).
func newCPUHost(r *rand.Rand, i int) cpuHost {
	var h cpuHost
	for f := range h.usage {
		h.usage[f] = walk{state: r.Float64() * 100.0, min: 0, max: 100, step: standardNormal}
	}
	reg := regions[r.Intn(len(regions))]
	dc := reg.datacenters[r.Intn(len(reg.datacenters))]
	rack := strconv.FormatInt(r.Int63n(racks), 10)
	arch := arches[r.Intn(len(arches))]
	os := oses[r.Intn(len(oses))]
	service := strconv.FormatInt(r.Int63n(services), 10)
	version := strconv.FormatInt(r.Int63n(serviceVersions), 10)
	env := environments[r.Intn(len(environments))]
	team := teams[r.Intn(len(teams))]
	h.tags = stringPairs([]string{"hostname", "region", "datacenter", "rack", "os", "arch", "team", "service",
		"service_version", "service_environment"},
		[]string{"host_" + strconv.Itoa(i), reg.name, dc, rack, os, arch, team, service, version, env})
	return h
}

func stringPairs(keys, values []string) []ExactPair {
	out := make([]ExactPair, len(keys))
	for i, k := range keys {
		out[i] = ExactPair{Key: k, Value: stringValue(values[i])}
	}
	return out
}

// next makes the next row. Epoch 0 is the starting state; every later epoch
// begins by advancing every host, in host order, field by field.
func (s *cpuSim) next() (*ExactRow, bool) {
	if s.made >= s.limit {
		return nil, false
	}
	if s.index == len(s.hosts) {
		s.index = 0
		for h := range s.hosts {
			for f := range s.hosts[h].usage {
				s.hosts[h].usage[f].advance(s.r)
			}
		}
		s.at = s.at.Add(s.interval)
	}
	h := &s.hosts[s.index]
	fields := make([]ExactPair, len(h.usage))
	for f := range h.usage {
		fields[f] = ExactPair{Key: CPUFields[f], Value: intValue(int64(h.usage[f].state))}
	}
	s.made++
	s.index++
	return &ExactRow{Table: "cpu", Time: s.at, Tags: h.tags, Fields: fields}, true
}

func cpuHeader() ExactHeader {
	keys := []string{"hostname", "region", "datacenter", "rack", "os", "arch", "team", "service",
		"service_version", "service_environment"}
	types := make([]string, len(keys))
	for i := range types {
		types[i] = "string"
	}
	return ExactHeader{TagKeys: keys, TagTypes: types,
		Tables: []ExactTable{{Name: "cpu", Fields: append([]string(nil), CPUFields...)}}}
}
