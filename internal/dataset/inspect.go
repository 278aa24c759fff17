package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Inspection is what tsbench finds in a user's data before any run: how
// it reads the file and what the file holds. 'tsbench data inspect'
// prints it.
type Inspection struct {
	Source string `json:"source"`
	// Format is the dataset format the import makes: csv-wide, csv-long,
	// influx, prometheus, parquet, iot-benchmark; or "dataset" for a
	// dataset directory.
	Format string `json:"format"`
	Gzip   bool   `json:"gzip,omitempty"`
	Files  int    `json:"files"`
	Time   struct {
		Column string `json:"column,omitempty"` // the column, or the format's field
		Format string `json:"format,omitempty"` // as detected or given
		Zone   string `json:"zone,omitempty"`   // of times without one
	} `json:"time"`
	// DeviceColumns are the columns (tags, labels) whose values name a
	// device; none: the file is one device.
	DeviceColumns []string      `json:"device_columns"`
	Groups        []string      `json:"groups"`
	Sensors       []SensorFound `json:"sensors"`
	Devices       int           `json:"devices"`
	Rows          int64         `json:"rows"`
	// Points present, and missing: a (device, time) row lacking a sensor
	// (an empty cell, a null, a series without that time).
	Points        int64 `json:"points"`
	Missing       int64 `json:"missing_points"`
	DuplicateRows int64 `json:"duplicate_rows"`
	// DuplicateExample names two lines on one device and time.
	DuplicateExample string `json:"duplicate_example,omitempty"`
	// Clients are the clients a replay uses (the caller fills it in:
	// CLIENT_NUMBER, lowered to the devices unless set).
	Clients    int    `json:"clients,omitempty"`
	MinTime    string `json:"min_time"`
	MaxTime    string `json:"max_time"`
	SpanMillis int64  `json:"span_ms"`
	StepMillis int64  `json:"median_step_ms"`
	// Replayable is false when tsbench cannot replay the data as it is;
	// Problem says why.
	Replayable bool   `json:"replayable"`
	Problem    string `json:"problem,omitempty"`
	// SparseTargets, for sparse data (Missing > 0), are the targets that
	// replay it (target.Capabilities.Sparse); the caller names them.
	SparseTargets []string `json:"sparse_targets,omitempty"`
	// Markers are the missing-value markers met (CSV), by column: read as
	// missing, or kept as a TEXT column's text.
	Markers []MarkerFound `json:"markers,omitempty"`
	Notes   []string      `json:"notes,omitempty"`
	// problem is why the import would stop a run, found while reading
	// on (device columns that the count depends on).
	problem string
}

// SensorFound is one sensor, its type and the column it comes from.
type SensorFound struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Column string `json:"column,omitempty"`
	// Unit is the column's unit, where a row under the names gives it.
	Unit string `json:"unit,omitempty"`
}

// describe lets an importer say how it reads its files, when inspecting.
func (o ImportOptions) describe(fn func(*Inspection)) {
	if o.inspect != nil {
		fn(o.inspect)
	}
}

// Inspect reads src (a file, a directory of files of one format, or a
// dataset directory) as an import would, and says what it found, missing
// values counted. Faults of the
// input are InputErrors naming file, line and column.
func Inspect(src string, o ImportOptions) (*Inspection, error) {
	in := &Inspection{Source: src}
	if IsDataset(src) {
		ds, err := Open(src)
		if err != nil {
			return nil, &InputError{File: src, Msg: err.Error()}
		}
		defer ds.Close()
		in.Format, in.Files, in.Time.Column, in.Time.Format = "dataset ("+ds.Format+")", 1, "time", "integer, ms since the epoch"
		in.DeviceColumns = []string{"device"}
		in.fromManifest(&ds.Manifest)
		return in, nil
	}
	tmp, err := os.MkdirTemp("", "tsbench-inspect-")
	if err != nil {
		return nil, fmt.Errorf("inspect: %w", err)
	}
	defer os.RemoveAll(tmp)
	files, err := inputFiles(src)
	if err != nil {
		return nil, err
	}
	in.Files = len(files)
	for _, f := range files {
		in.Gzip = in.Gzip || isGzip(f)
	}
	o.inspect = in
	m, err := Import(src, filepath.Join(tmp, "dataset"), o)
	if err != nil {
		return nil, err
	}
	in.Format = m.Format
	in.fromManifest(m)
	return in, nil
}

// fromManifest fills in what the dataset holds.
func (in *Inspection) fromManifest(m *Manifest) {
	in.Groups, in.Devices, in.Rows, in.DuplicateRows = m.Groups, len(m.Devices), m.Rows, m.DuplicateRows+m.DroppedDuplicates
	in.DuplicateExample = m.DuplicateExample
	if len(in.Sensors) != len(m.Sensors) {
		in.Sensors = nil
		for _, s := range m.Sensors {
			in.Sensors = append(in.Sensors, SensorFound{Name: s.Name})
		}
	}
	for i, s := range m.Sensors {
		in.Sensors[i].Name, in.Sensors[i].Type = s.Name, s.Type.String()
	}
	in.Points, in.Missing = m.Points(), m.Missing
	in.MinTime, in.MaxTime = fmtMillis(m.MinTime), fmtMillis(m.MaxTime)
	in.SpanMillis, in.StepMillis = m.MaxTime-m.MinTime, m.Step
	in.Notes = m.Notes
	in.Replayable, in.Problem = in.problem == "", in.problem
	if in.DeviceColumns == nil {
		in.DeviceColumns = []string{}
	}
}

// fromCSV is what the CSV importer found.
func (in *Inspection) fromCSV(s *csvScan) {
	l := s.layouts[0]
	in.Time.Column, in.Time.Format = l.timeColumn(), l.tp.describe()
	if l.clock != nil {
		in.Time.Format = l.clock.text
	}
	for _, i := range l.devices {
		in.DeviceColumns = append(in.DeviceColumns, l.header[i])
	}
	for _, sn := range s.sensors {
		col, unit := sn.Name, ""
		if l.kind == layoutLong {
			col = l.header[l.sensor] + "=" + sn.Name + ", " + l.header[l.value]
		} else if i := slices.Index(l.sensors, sn.Name); i >= 0 {
			unit = l.head.unit(l.sensorCols[i])
		}
		in.Sensors = append(in.Sensors, SensorFound{Name: sn.Name, Column: col, Unit: unit})
	}
	in.Markers = s.found.found(s.types)
}

// describe names the format a parser reads, for an inspection.
func (p *timeParser) describe() string {
	if p.read != nil {
		return p.format
	}
	if p.layout == "" {
		return fmt.Sprintf("integer, %s since the epoch", p.unit)
	}
	zone := ""
	if p.loc != nil && !strings.Contains(p.layout, "Z07") && !strings.Contains(p.layout, "-07") {
		zone = ", in " + p.loc.String()
	}
	return p.format + zone
}

// Table writes the inspection as a two-column table.
func (in *Inspection) Table() string {
	var b strings.Builder
	row := func(k, format string, args ...any) { fmt.Fprintf(&b, "%-12s %s\n", k, fmt.Sprintf(format, args...)) }
	format := in.Format
	if in.Gzip {
		format += ", gzip-compressed"
	}
	row("Source", "%s (%d file%s)", in.Source, in.Files, plural(in.Files))
	row("Format", "%s", format)
	tm := in.Time.Column
	if in.Time.Format != "" {
		tm += ": " + in.Time.Format
	}
	row("Time", "%s", tm)
	devs := strings.Join(in.DeviceColumns, ", ")
	if devs == "" {
		devs = "none: one device"
	}
	row("Devices", "%d (by %s)", in.Devices, devs)
	row("Groups", "%d (%s)", len(in.Groups), strings.Join(in.Groups, ", "))
	row("Sensors", "%d", len(in.Sensors))
	for _, s := range in.Sensors {
		var more []string
		if s.Column != "" && s.Column != s.Name {
			more = append(more, "from "+s.Column)
		}
		if s.Unit != "" {
			more = append(more, "unit "+s.Unit)
		}
		col := ""
		if len(more) > 0 {
			col = " (" + strings.Join(more, "; ") + ")"
		}
		fmt.Fprintln(&b, strings.TrimRight(fmt.Sprintf("  %-24s %-8s%s", s.Name, s.Type, col), " "))
	}
	row("Rows", "%d", in.Rows)
	row("Points", "%d present, %d missing", in.Points, in.Missing)
	in.markerRows(row)
	row("Span", "%s .. %s (%s)", in.MinTime, in.MaxTime, fmtSpan(in.SpanMillis))
	row("Median step", "%s", fmtSpan(in.StepMillis))
	if in.DuplicateRows > 0 {
		row("Duplicates", "%d rows repeat a device and time, e.g. %s", in.DuplicateRows, in.DuplicateExample)
	} else {
		row("Duplicates", "none: no two rows share a device and time")
	}
	if in.Clients > 0 {
		row("Clients", "%d (a replay's writing clients own a device each)", in.Clients)
	}
	switch {
	case in.Replayable && in.Missing > 0:
		row("Replayable", "yes, sparse: %d missing value%s, no points (targets that take sparse data: %s)",
			in.Missing, plural(int(min(in.Missing, 2))), strings.Join(in.SparseTargets, ", "))
	case in.Replayable:
		row("Replayable", "yes")
	default:
		row("Replayable", "no: %s", in.Problem)
	}
	for _, n := range in.Notes {
		row("Note", "%s", n)
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// fmtSpan writes a duration in milliseconds in the largest fitting unit.
func fmtSpan(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	switch {
	case ms == 0:
		return "0"
	case ms%(86_400_000) == 0:
		return fmt.Sprintf("%dd", ms/86_400_000)
	}
	return d.String()
}

// markerRows write the markers met: each one's cells read as missing (or
// kept as text), and in which columns, the first few with their counts.
func (in *Inspection) markerRows(row func(k, format string, args ...any)) {
	const shown = 6
	for _, g := range groupMarkers(in.Markers) {
		how := "missing"
		if g.text {
			how = "kept as text (TEXT columns; DATA_MISSING=+MARKER reads it as missing)"
		}
		var cols []string
		for _, f := range in.Markers {
			if f.Marker == g.marker && f.Text == g.text && len(cols) < shown {
				cols = append(cols, fmt.Sprintf("%s x%d", f.Column, f.Cells))
			}
		}
		if n := len(g.columns) - len(cols); n > 0 {
			cols = append(cols, fmt.Sprintf("and %d more columns (--json lists them)", n))
		}
		row("Markers", "%q x%d %s, in %d column%s: %s", g.marker, g.cells, how, len(g.columns), plural(len(g.columns)), strings.Join(cols, ", "))
	}
}
