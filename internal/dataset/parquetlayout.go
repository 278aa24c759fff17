//go:build parquet

package dataset

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// timeNames are a Parquet file's time columns by name (lower case).
var timeNames = []string{"time", "timestamp", "ts", "t"}

// parquetLayout finds a Parquet file's columns as CSV's are found, with
// its types deciding what names cannot: a column typed as a timestamp
// (TIMESTAMP of any unit, zoned or not, INT96, DATE) is the time whatever
// its name (pandas writes a zoned DatetimeIndex as a TIMESTAMP(MICROS)
// column named as the user named it); else a column named as a time.
// DATA_TIME_COLUMN, DATA_DEVICE_COLUMNS, DATA_SENSOR_COLUMNS and
// DATA_TIME_START override, as for CSV. Long: a time, device, sensor and
// value column by name, nothing else.
func parquetLayout(file string, columns []pqColumn, header []string, o ImportOptions, to timeOptions) (*csvLayout, error) {
	l, devices, sensors, err := namedLayout(file, header, o)
	if err != nil {
		return nil, err
	}
	if to.rows != nil {
		l.clock = to.rows
	} else if l.time, err = parquetTime(file, columns, header, o.TimeColumn, append(slices.Clone(devices), sensors...)); err != nil {
		return nil, err
	}
	if len(devices) == 0 && !l.oneDevice {
		if d := findColumn(header, deviceNames); d >= 0 && d != l.time && !slices.Contains(sensors, d) {
			devices = []int{d}
		}
	}
	l.devices, l.tags = devices, len(devices) > 1
	if len(devices) > 0 {
		l.device = devices[0]
	} else {
		l.deviceName = stem(file) // no device column: the file is one device, named after it
	}
	sensor, value := findColumn(header, sensorNames), findColumn(header, valueNames)
	if len(sensors) == 0 && len(devices) == 1 && l.time >= 0 && sensor >= 0 && value >= 0 && len(header) == 4 &&
		!slices.Contains([]int{l.time, l.device}, sensor) && !slices.Contains([]int{l.time, l.device}, value) {
		l.kind, l.sensor, l.value = layoutLong, sensor, value
		return l, nil
	}
	l.kind = layoutWide
	if err := l.parquetSensors(file, sensors); err != nil {
		return nil, err
	}
	return l, nil
}

// parquetSensors sets a wide file's sensor columns: those
// DATA_SENSOR_COLUMNS names (sensors), else every column but the time and
// the devices. CSV's wideSensors does the same for a header line, which a
// Parquet file has not: its errors name no line.
func (l *csvLayout) parquetSensors(file string, sensors []int) error {
	cols := sensors
	if len(cols) == 0 {
		for i := range l.header {
			if i != l.time && !slices.Contains(l.devices, i) {
				cols = append(cols, i)
			}
		}
	}
	for _, i := range cols {
		name := strings.TrimSpace(l.header[i])
		if name == "" {
			return &InputError{File: file, Line: 1, Column: fmt.Sprint(i + 1), Msg: "a sensor column without a name"}
		}
		if i == l.time || slices.Contains(l.devices, i) {
			return &InputError{File: file, Column: name, Msg: "DATA_SENSOR_COLUMNS names the time or a device column"}
		}
		l.sensors = append(l.sensors, name)
		l.sensorCols = append(l.sensorCols, i)
	}
	if len(l.sensors) == 0 {
		return &InputError{File: file, Msg: "no sensor columns: want time, device, sensor, value (long) or time, device, then one column per sensor (wide)"}
	}
	return nil
}

// isTimestamp reports whether a column's type says it holds instants.
func (c *pqColumn) isTimestamp() bool {
	return c.src == pqTimestamp || c.src == pqInt96 || c.src == pqDate
}

// parquetTime finds the time column: the one DATA_TIME_COLUMN names; else
// the one typed as a timestamp (TIMESTAMP or INT96, else DATE; of several,
// the one named as a time, or the user says which); else one named as a
// time. skip are the columns the keys made devices or sensors.
func parquetTime(file string, columns []pqColumn, header []string, named string, skip []int) (int, error) {
	if named != "" {
		cols, err := columnsNamed(file, header, SplitColumns(named), "DATA_TIME_COLUMN")
		if err != nil {
			return -1, err
		}
		if len(cols) > 1 {
			return -1, &InputError{File: file, Msg: fmt.Sprintf("DATA_TIME_COLUMN %q names %d columns: a Parquet file's time is one column", named, len(cols))}
		}
		return cols[0], nil
	}
	// Instants first (TIMESTAMP, INT96), then days (DATE).
	var typed []int
	for _, days := range []bool{false, true} {
		for i := range columns {
			if columns[i].isTimestamp() && (columns[i].src == pqDate) == days && !slices.Contains(skip, i) {
				typed = append(typed, i)
			}
		}
		if len(typed) > 0 {
			break
		}
	}
	if len(typed) > 1 {
		// One of them named as the time says which.
		var named []int
		for _, i := range typed {
			if isNamed(header[i], timeNames) {
				named = append(named, i)
			}
		}
		if len(named) == 1 {
			typed = named
		}
	}
	switch {
	case len(typed) == 1:
		return typed[0], nil
	case len(typed) > 1:
		names := make([]string, len(typed))
		for k, i := range typed {
			names[k] = fmt.Sprintf("%s (%s)", header[i], columns[i].desc)
		}
		return -1, &InputError{File: file, Msg: fmt.Sprintf("several timestamp columns: %s; name the time with DATA_TIME_COLUMN (the others are measured)",
			strings.Join(names, ", "))}
	}
	for _, names := range [][]string{timeNames, dateNames} {
		if i := findColumn(header, names); i >= 0 && !slices.Contains(skip, i) {
			return i, nil
		}
	}
	return -1, &InputError{File: file, Column: "time",
		Msg: fmt.Sprintf("no time column: want a TIMESTAMP column, or one named %s or %s (any case); the file has %s. "+
			"Name it with DATA_TIME_COLUMN, or give a file with only a row order its times as DATA_TIME_START and DATA_TIME_STEP",
			strings.Join(timeNames[:len(timeNames)-1], ", "), timeNames[len(timeNames)-1], strings.Join(header, ", "))}
}

// detectTime reads the first rows' times of a time column that is not
// typed as one (integers, text) and finds their format as CSV's are found:
// DATA_TIME_FORMAT, DATA_TIME_UNIT and DATA_TIMEZONE apply, and integers
// are not taken as times in 1970 unless a name or key says so.
func (im *parquetImport) detectTime(f *pqFile) error {
	l := im.layout
	c := &f.columns[l.time]
	r := f.rows()
	defer r.close()
	var values []string
	var rows []int64
	for len(values) < sampleRows {
		ok, err := r.next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if v := r.values[l.time]; !v.IsNull() {
			values = append(values, c.text(v))
			rows = append(rows, r.row)
		}
	}
	p, at, msg := im.to.detectTime(c.name, values)
	if at >= 0 {
		return f.errAt(rows[at], c.name, msg)
	}
	im.time = p
	return nil
}

// describeTime says how the time is read, for an inspection.
func (im *parquetImport) describeTime() string {
	l := im.layout
	switch {
	case l.clock != nil:
		return l.clock.text
	case im.columns[l.time].isTimestamp():
		c := &im.columns[l.time]
		if c.local {
			return c.desc + ", wall-clock times in " + im.to.loc.String()
		}
		return c.desc
	}
	return im.time.describe()
}

// deviceOf is the current row's device: its device columns' values
// joined (and kept as tags when there are several), or the file's name.
func (im *parquetImport) deviceOf(f *pqFile, r *pqRows, l *csvLayout, last string) (string, []ts.Tag, error) {
	switch len(l.devices) {
	case 0:
		return l.deviceName, nil, nil
	case 1:
		d, err := im.name(f, r, l.device, "device", last)
		return d, nil, err
	}
	parts := make([]string, len(l.devices))
	tags := make([]ts.Tag, len(l.devices))
	for j, i := range l.devices {
		p, err := im.name(f, r, i, "device", "")
		if err != nil {
			return "", nil, err
		}
		parts[j], tags[j] = p, ts.Tag{Key: strings.TrimSpace(l.header[i]), Value: p}
	}
	return strings.Join(parts, deviceSep), tags, nil
}
