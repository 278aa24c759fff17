package dataset

// Prometheus text exposition and OpenMetrics files: what an exporter's
// /metrics answers (curl host:9100/metrics > node.prom), one sample a line,
//
//	# HELP http_requests_total Requests served.
//	# TYPE http_requests_total counter
//	http_requests_total{code="200",method="get"} 1027 1700000000000
//
// read with github.com/prometheus/common/expfmt. Series are named as the
// JSON-line exports' are (prometheus.go): the sample's metric name is the
// sensor (DOUBLE unless DATA_TYPES says otherwise), its labels the device.
// Each exposed line is its own series, as in the text: a summary's
// quantile lines (their quantile label part of the device), _sum and
// _count, a histogram's _bucket lines (le) likewise.
//
// A sample's timestamp is ms since the epoch (OpenMetrics: seconds, with
// a fraction; DATA_TIME_UNIT overrides for integers). A sample without
// one was scraped at the file's time: DATA_TIME, else the file's
// modification time, and the import says so in a note. Several scrapes
// concatenated into one file (a series seen again, or # EOF between
// them) are a series over time: scrape n without timestamps lands n
// seconds after the file's time. NaN (a staleness marker) and ±Inf are
// missing values: no point.

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

// expositionFormat names the dataset format of an exposition import.
const expositionFormat = "prometheus-text"

// scrapeStep is how far apart the scrapes of a file without timestamps
// are placed: the file does not say, and a series needs distinct times.
const scrapeStep = time.Second

// expSample is one sample line, parsed.
type expSample struct {
	name    string
	labels  map[string]string // without __name__
	value   float64
	text    string // the value as written
	ts      string // the timestamp as written; "" when none
	exposed bool   // a sample, not a comment
}

// expParser parses sample lines through one expfmt.TextParser, which is
// reused: it keeps its buffers between calls.
type expParser struct {
	p   expfmt.TextParser
	buf []byte
}

// parse reads one line into s: a comment (s.exposed false) or a sample.
// An error carries its 1-based column (0: the line as a whole).
func (ep *expParser) parse(line []byte, s *expSample) *lpError {
	*s = expSample{}
	t := bytes.TrimSpace(line)
	if len(t) == 0 || t[0] == '#' {
		return nil
	}
	series, rest := splitSeries(t)
	fields := bytes.Fields(rest)
	if len(fields) == 0 || fields[0][0] == '#' {
		return &lpError{len(line) + 1, "no value: want metric{label=\"value\",...} value [timestamp]"}
	}
	s.text = string(fields[0])
	if len(fields) > 1 && fields[1][0] != '#' { // # starts an OpenMetrics exemplar
		s.ts = string(fields[1])
		if len(fields) > 2 && fields[2][0] != '#' {
			return &lpError{bytes.Index(line, fields[2]) + 1, "text after the timestamp"}
		}
		if _, err := strconv.ParseFloat(s.ts, 64); err != nil {
			return &lpError{bytes.Index(line, fields[1]) + 1, fmt.Sprintf("timestamp %q is not a number", s.ts)}
		}
	}
	// expfmt reads the series and the value; the timestamp is left out,
	// as OpenMetrics writes it in seconds with a fraction, which expfmt
	// (Prometheus' text format: integer ms) would refuse.
	ep.buf = append(append(append(append(ep.buf[:0], series...), ' '), fields[0]...), '\n')
	families, err := ep.p.TextToMetricFamilies(bytes.NewReader(ep.buf))
	if err != nil {
		msg := err.Error()
		if pe := (expfmt.ParseError{}); errors.As(err, &pe) {
			msg = pe.Msg
		}
		return &lpError{0, "not Prometheus text exposition: " + msg}
	}
	return s.fill(families)
}

// fill takes the one sample of a line from what expfmt made of it.
func (s *expSample) fill(families map[string]*dto.MetricFamily) *lpError {
	for name, mf := range families {
		if len(mf.GetMetric()) != 1 {
			break
		}
		m := mf.GetMetric()[0]
		s.name, s.value, s.exposed = name, m.GetUntyped().GetValue(), true
		s.labels = make(map[string]string, len(m.GetLabel()))
		for _, l := range m.GetLabel() {
			s.labels[l.GetName()] = l.GetValue()
		}
		return nil
	}
	return &lpError{0, "not one sample: want metric{label=\"value\",...} value [timestamp]"}
}

// splitSeries cuts a sample line after its series (the metric name and
// the label set, whose quoted values may hold spaces and braces).
func splitSeries(line []byte) (series, rest []byte) {
	inBraces, inQuote := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case inQuote && c == '\\':
			i++
		case c == '"':
			inQuote = !inQuote
		case inQuote:
		case c == '{':
			inBraces = true
		case c == '}':
			inBraces = false
		case (c == ' ' || c == '\t') && !inBraces:
			return line[:i], line[i:]
		}
	}
	return line, nil
}

// expositionComment reports whether a comment line is one that only the
// exposition formats write: # HELP, # TYPE, # UNIT or # EOF.
func expositionComment(t string) bool {
	for _, k := range []string{"# HELP ", "# TYPE ", "# UNIT "} {
		if strings.HasPrefix(t, k) {
			return true
		}
	}
	return t == "# EOF"
}

// isExpositionSample reports whether a line reads as an exposition
// sample: a metric name, labels maybe, a number, a timestamp maybe.
func isExpositionSample(t string) bool {
	var ep expParser
	var s expSample
	return ep.parse([]byte(t), &s) == nil && s.exposed
}

// isExposition reports whether a file's first lines are text exposition
// (rather than a JSON-line export, the other Prometheus format).
func isExposition(name string) bool {
	in, err := openInput(name)
	if err != nil {
		return false
	}
	defer in.Close()
	r := &lpReader{name: name, in: in, br: newLineReader(in), comments: true}
	for range 1000 {
		text, _, err := r.next()
		if err != nil {
			return false
		}
		t := strings.TrimSpace(string(text))
		switch {
		case expositionComment(t):
			return true
		case strings.HasPrefix(t, "#"):
		default:
			return isExpositionSample(t)
		}
	}
	return false
}

// expScan is what the first pass learnt.
type expScan struct {
	promScan                   // labels, sensors and their index, as an export's
	types    map[string]string // # TYPE of each family
	open     bool              // OpenMetrics (# EOF): timestamps in seconds
	samples  int64
	untimed  int64 // samples without a timestamp
	infinite int64 // ±Inf values, left out
}

func scanExposition(files []string, o ImportOptions) (*expScan, error) {
	es := &expScan{promScan: promScan{index: map[string]int{}}, types: map[string]string{}}
	names, labels := map[string]bool{}, map[string]bool{}
	var ep expParser
	var s expSample
	for _, name := range files {
		err := eachRawLine(name, func(text []byte, line int64) error {
			if e := ep.parse(text, &s); e != nil {
				return expErr(name, line, e)
			}
			if !s.exposed {
				es.comment(string(bytes.TrimSpace(text)))
				return nil
			}
			es.samples++
			names[s.name] = true
			for k := range s.labels {
				labels[k] = true
			}
			if s.ts == "" {
				es.untimed++
			}
			if math.IsInf(s.value, 0) {
				es.infinite++
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if es.samples == 0 {
		return nil, &InputError{File: files[0], Msg: `no samples: want lines metric{label="value",...} value [timestamp]`}
	}
	return es, es.pick(files[0], names, labels, o)
}

// comment notes what a comment line says: a family's type, or the end of
// an OpenMetrics exposition.
func (es *expScan) comment(t string) {
	if t == "# EOF" {
		es.open = true
	}
	if f := strings.Fields(t); len(f) == 4 && f[1] == "TYPE" {
		es.types[f[2]] = f[3]
	}
}

func expErr(file string, line int64, e *lpError) *InputError {
	if e.col == 0 {
		return &InputError{File: file, Line: line, Msg: e.msg}
	}
	return lpErr(file, line, e.col, e.msg)
}

// importExposition imports text exposition (and OpenMetrics) files.
func importExposition(files []string, dir string, o ImportOptions) (*Manifest, error) {
	es, err := scanExposition(files, o)
	if err != nil {
		return nil, err
	}
	clock, err := newScrapeClock(files, o)
	if err != nil {
		return nil, err
	}
	tp := timeParser{unit: "ms"}
	if es.open {
		tp.unit = "s"
	}
	if o.TimeUnit != "" && o.TimeUnit != "auto" {
		tp.unit = o.TimeUnit
	}
	o.describe(func(in *Inspection) { es.describe(in, tp, o) })
	format := expositionFormat
	if es.open {
		format = "openmetrics"
	}
	t, err := newTable(dir, strings.Join(files, ","), format, es.sensors, o)
	if err != nil {
		return nil, err
	}
	t.w.m.Notes = append(t.w.m.Notes, es.notes(clock)...)
	im := newSortImport(dir, files, es.sensors, true, o)
	g := &expGather{im: im, es: es, tp: tp, clock: clock}
	return im.fill(t, g.file)
}

// describe says how the import reads the files, for tsbench data inspect.
func (es *expScan) describe(in *Inspection, tp timeParser, o ImportOptions) {
	in.Time.Column, in.Time.Format = "timestamp", "integer, "+tp.unit+" since the epoch"
	switch {
	case es.untimed == es.samples:
		in.Time.Column, in.Time.Format = "(none)", "the scrape's: DATA_TIME, else the file's modification time"
	case es.open:
		in.Time.Format = "seconds since the epoch (OpenMetrics)"
	}
	in.DeviceColumns = es.labels
	if len(o.DeviceColumns) > 0 {
		in.DeviceColumns = o.DeviceColumns
	}
	for _, sn := range es.sensors {
		in.Sensors = append(in.Sensors, SensorFound{Name: sn.Name, Column: "metric " + sn.Name})
	}
}
