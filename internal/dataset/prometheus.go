package dataset

// Prometheus-style JSON-line exports, as VictoriaMetrics' /api/v1/export
// writes them: one series a line,
//
//	{"metric":{"__name__":"temp","city":"Oslo"},"values":[1.5,2],"timestamps":[1700000000000,1700000060000]}
//
// The metric name is the sensor (DOUBLE unless DATA_TYPES says otherwise),
// the other labels the device (several are joined into its name, sorted
// by label, and kept as its tags; DATA_DEVICE_COLUMNS names the labels
// that make it). Timestamps are milliseconds (DATA_TIME_UNIT overrides).
// A series lacking a time its device's other series have, and a null or
// NaN value (Prometheus' staleness marker), is a missing value: sparse
// data, no point.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// promSeries is one line of an export.
type promSeries struct {
	Metric     map[string]string `json:"metric"`
	Values     []json.RawMessage `json:"values"`
	Timestamps []int64           `json:"timestamps"`
}

// parseProm parses one line; an error carries its 1-based column.
func parseProm(line []byte, s *promSeries) *lpError {
	*s = promSeries{Values: s.Values[:0], Timestamps: s.Timestamps[:0]}
	if err := json.Unmarshal(line, s); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return &lpError{int(se.Offset), "not JSON: " + se.Error()}
		case errors.As(err, &te):
			return &lpError{int(te.Offset), fmt.Sprintf("%s is a JSON %s: want %s", te.Field, te.Value, te.Type)}
		}
		return &lpError{1, err.Error()}
	}
	col := func(key string) int { return bytes.Index(line, []byte(`"`+key+`"`)) + 1 }
	switch {
	case s.Metric == nil:
		return &lpError{1, `no "metric": want {"metric":{"__name__":...,labels},"values":[...],"timestamps":[...]}`}
	case s.Metric["__name__"] == "":
		return &lpError{col("metric"), `the metric has no "__name__": it names the sensor`}
	case len(s.Values) != len(s.Timestamps):
		return &lpError{col("values"), fmt.Sprintf("%d values and %d timestamps: want one timestamp per value", len(s.Values), len(s.Timestamps))}
	}
	return nil
}

// promValue reads value i of a series: a finite number (or a string of
// one), else missing.
func promValue(raw json.RawMessage) (string, bool) {
	v := strings.TrimSpace(string(raw))
	if len(v) >= 2 && v[0] == '"' {
		v = v[1 : len(v)-1]
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return "", false
	}
	return v, true
}

// promMissing reports whether a value is missing rather than wrong: null,
// or NaN (as a number's text or a string).
func promMissing(raw json.RawMessage) bool {
	v := strings.TrimSpace(string(raw))
	if len(v) >= 2 && v[0] == '"' {
		v = v[1 : len(v)-1]
	}
	return v == "null" || strings.EqualFold(v, "nan")
}

// promScan is what the first pass learnt.
type promScan struct {
	labels  []string
	sensors []ts.Sensor
	index   map[string]int
}

// pick orders the labels and metric names found (in JSON-line exports and
// text exposition alike) and keeps the sensors DATA_SENSOR_COLUMNS asks
// for; DATA_DEVICE_COLUMNS must name labels the series have.
func (ps *promScan) pick(file string, names, labels map[string]bool, o ImportOptions) error {
	ps.labels = slices.Sorted(maps.Keys(labels))
	sorted := slices.Sorted(maps.Keys(names))
	for _, c := range o.DeviceColumns {
		if !labels[c] {
			return &InputError{File: file, Msg: fmt.Sprintf("DATA_DEVICE_COLUMNS names label %q, which no series has; they have %s", c, strings.Join(ps.labels, ", "))}
		}
	}
	keep := map[string]bool{}
	for _, c := range o.SensorColumns {
		if !names[c] {
			return &InputError{File: file, Msg: fmt.Sprintf("DATA_SENSOR_COLUMNS names metric %q, which the data does not have; it has %s", c, strings.Join(sorted, ", "))}
		}
		keep[c] = true
	}
	for _, n := range sorted {
		if len(keep) == 0 || keep[n] {
			ps.index[n] = len(ps.sensors)
			ps.sensors = append(ps.sensors, o.typedSensor(n, ts.Double))
		}
	}
	return o.checkTypesNamed(file, ps.index, sorted)
}

func scanProm(files []string, o ImportOptions) (*promScan, error) {
	names, labels := map[string]bool{}, map[string]bool{}
	var s promSeries
	lines := 0
	for _, name := range files {
		err := eachParsed(name, parseProm, &s, func(text []byte, line int64) error {
			lines++
			names[s.Metric["__name__"]] = true
			for k := range s.Metric {
				if k != "__name__" {
					labels[k] = true
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if lines == 0 {
		return nil, &InputError{File: files[0], Msg: `no series: want lines {"metric":{"__name__":...},"values":[...],"timestamps":[...]}`}
	}
	ps := &promScan{index: map[string]int{}}
	if err := ps.pick(files[0], names, labels, o); err != nil {
		return nil, err
	}
	return ps, nil
}

// importPrometheus imports JSON-line exports, or text exposition files
// (expfmt.go): DATA_FORMAT=prometheus names either.
func importPrometheus(files []string, dir string, o ImportOptions) (*Manifest, error) {
	if isExposition(files[0]) {
		return importExposition(files, dir, o)
	}
	ps, err := scanProm(files, o)
	if err != nil {
		return nil, err
	}
	unit := o.TimeUnit
	if unit == "" || unit == "auto" {
		unit = "ms"
	}
	o.describe(func(in *Inspection) {
		in.Time.Column, in.Time.Format = "timestamps", "integer, "+unit+" since the epoch"
		in.DeviceColumns = ps.labels
		if len(o.DeviceColumns) > 0 {
			in.DeviceColumns = o.DeviceColumns
		}
		for _, sn := range ps.sensors {
			in.Sensors = append(in.Sensors, SensorFound{Name: sn.Name, Column: "__name__=" + sn.Name})
		}
	})
	t, err := newTable(dir, strings.Join(files, ","), "prometheus", ps.sensors, o)
	if err != nil {
		return nil, err
	}
	im := newSortImport(dir, files, ps.sensors, true, o)
	tp := timeParser{unit: unit}
	return im.fill(t, func(i int, name string) error { return gatherProm(im, ps, tp, i, name) })
}

// gatherProm reads one file's series into the sort, a point per value.
func gatherProm(im *sortImport, ps *promScan, tp timeParser, file int, name string) error {
	var s promSeries
	return eachParsed(name, parseProm, &s, func(text []byte, line int64) error {
		k, ok := ps.index[s.Metric["__name__"]]
		if !ok {
			return nil // left out by DATA_SENSOR_COLUMNS
		}
		device, tags := promDevice(s.Metric, im.o.DeviceColumns, stem(name))
		device = im.intern(device)
		if _, ok := im.tags[device]; !ok {
			im.tags[device] = tags
		}
		valuesCol := bytes.Index(text, []byte(`"values"`)) + 1
		for j, raw := range s.Values {
			v, ok := promValue(raw)
			if !ok && !promMissing(raw) {
				return lpErr(name, line, valuesCol, fmt.Sprintf("series %s of %s: values[%d] is %s: want a finite number, or null or NaN for a missing value",
					ps.sensors[k].Name, device, j, raw))
			}
			if !ok {
				v = absent // no point: the row's cell is empty
			}
			if err := im.checkValue(k, v); v != absent && err != nil {
				return lpErr(name, line, valuesCol, fmt.Sprintf("values[%d]: %v", j, err))
			}
			tm, cut, terr := tp.millis(s.Timestamps[j])
			if terr != nil {
				return lpErr(name, line, bytes.Index(text, []byte(`"timestamps"`))+1, terr.Error())
			}
			rec := sortRecord{device: device, time: tm, cut: cut, file: file, line: line, sensor: k, values: []string{v}}
			if err := im.sorter.add(rec); err != nil {
				return err
			}
		}
		return nil
	})
}

// promDevice names a series' device: its labels' values (but __name__)
// joined, sorted by label or in the order of DATA_DEVICE_COLUMNS; without
// labels, the file's name. Several labels are kept as its tags.
func promDevice(metric map[string]string, named []string, file string) (string, []ts.Tag) {
	keys := named
	if len(keys) == 0 {
		for k := range metric {
			if k != "__name__" {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
	}
	if len(keys) == 0 {
		return file, nil
	}
	parts := make([]string, len(keys))
	tags := make([]ts.Tag, len(keys))
	for i, k := range keys {
		parts[i], tags[i] = metric[k], ts.Tag{Key: k, Value: metric[k]}
	}
	if len(tags) < 2 {
		tags = nil
	}
	return strings.Join(parts, deviceSep), tags
}
