package dataset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// More names of CSV columns, for files whose columns are found by name
// and by content (lower case).
var (
	// dateNames are time columns by name, preferred among the columns
	// whose values read as times.
	dateNames = []string{"time", "timestamp", "ts", "t", "date", "datetime", "date_time", "time_stamp", "year"}
	// placeNames are device columns by name beyond deviceNames: what real
	// files key their series by.
	placeNames = []string{"location", "symbol", "ticker", "source", "city", "station", "site", "region", "country", "hostname", "node"}
)

// deviceSep joins the values of several device columns into a name.
const deviceSep = "_"

// namedLayout is a file's layout before its columns are found, with the
// device and sensor columns DATA_DEVICE_COLUMNS and DATA_SENSOR_COLUMNS
// name (CSV and Parquet alike).
func namedLayout(file string, header []string, o ImportOptions) (l *csvLayout, devices, sensors []int, err error) {
	l = &csvLayout{header: header, time: -1, device: -1, sensor: -1, value: -1}
	if len(o.DeviceColumns) == 1 && strings.EqualFold(o.DeviceColumns[0], "none") && findColumn(header, o.DeviceColumns) < 0 {
		// DATA_DEVICE_COLUMNS=none: no device column, none looked for.
		l.oneDevice = true
	} else if devices, err = columnsNamed(file, header, o.DeviceColumns, "DATA_DEVICE_COLUMNS"); err != nil {
		return nil, nil, nil, err
	}
	if sensors, err = columnsNamed(file, header, o.SensorColumns, "DATA_SENSOR_COLUMNS"); err != nil {
		return nil, nil, nil, err
	}
	return l, devices, sensors, nil
}

// layoutOf finds a CSV file's columns, by name and by content (the
// sample), and the format of its times. DATA_TIME_COLUMN,
// DATA_DEVICE_COLUMNS and DATA_SENSOR_COLUMNS override what is found.
func layoutOf(file string, header []string, sample []sampled, o ImportOptions, to timeOptions, ms *markerSet) (*csvLayout, error) {
	l, devices, sensors, err := namedLayout(file, header, o)
	if err != nil {
		return nil, err
	}
	l.ignored = rowIndexes(header, sample)
	skip := append(append(append([]int{}, devices...), sensors...), l.ignored...)
	if to.rows != nil {
		l.time, l.clock = -1, to.rows // no time column: the row order
	} else if err := l.findTime(file, sample, o.TimeColumn, skip, to); err != nil {
		return nil, err
	}
	taken := append(append([]int{l.time}, l.timeParts...), sensors...)
	taken = append(taken, l.ignored...)
	if sensor, value := findColumn(header, sensorNames), findColumn(header, valueNames); len(sensors) == 0 && sensor >= 0 && value >= 0 {
		// A long file's sensor names repeat too: they are not devices.
		taken = append(taken, sensor, value)
	}
	if len(devices) == 0 && !l.oneDevice {
		devices, l.byContent = findDevices(header, sample, taken, repeats(l.timeValues(sample)), to, ms)
	}
	l.devices, l.tags = devices, len(devices) > 1
	if len(devices) > 0 {
		l.device = devices[0]
	} else {
		// No device column: the file is one device, named after it.
		l.deviceName = stem(file)
	}
	if len(sensors) == 0 && l.isLong(header) {
		return l, nil
	}
	return l, l.wideSensors(file, sensors)
}

// columnsNamed finds the columns a key names; an unknown name is an
// input error listing the file's columns.
func columnsNamed(file string, header, names []string, key string) ([]int, error) {
	var out []int
	for _, n := range names {
		i := findColumn(header, []string{n})
		if i < 0 {
			return nil, &InputError{File: file, Line: 1, Msg: fmt.Sprintf("%s names column %q, which the file does not have; it has %s",
				key, n, strings.Join(header, ", "))}
		}
		out = append(out, i)
	}
	return out, nil
}

// findTime finds the time column and its format: the named one, else the
// one whose values read as times. Preferred in turn: a column named as a
// time (dateNames) of text times; any column of text times; a column
// named as a time that reads as nothing (its error says what it holds);
// a column named as a time or as times since the epoch of integers; the
// first column, of integers since the epoch; a column named as a time
// of integers that would be times in 1970, or whose first rows read as
// times and a later one not (their errors say why). Integers are taken as such
// only where they do not land in 1970 or a name or key says they are
// (timeParser.guard). Without any, the file has no usable time: an error
// names the columns considered and the keys that give one.
func (l *csvLayout) findTime(file string, sample []sampled, named string, skip []int, to timeOptions) error {
	if named != "" {
		cols, err := columnsNamed(file, l.header, SplitColumns(named), "DATA_TIME_COLUMN")
		if err != nil {
			return err
		}
		l.spanTime(cols)
		return l.detectTime(file, sample, to)
	}
	if l.findSpan(sample, skip, to) {
		return nil
	}
	found, considered, nearEpoch := l.timeCandidates(sample, skip, to)
	for _, i := range found {
		if i >= 0 {
			l.time = i
			return l.detectTime(file, sample, to)
		}
	}
	return l.noTime(file, considered, nearEpoch)
}

// The kinds of candidate time column, in the order findTime prefers them.
const (
	timeNamedText    = iota // named as a time, of text times
	timeText                // of text times
	timeNamedFails          // named as a time, reads as nothing
	timeNamedInt            // named as a time or an epoch unit, of integers
	timeFirstInt            // the first column, of integers
	timeNamedGuarded        // named as a time, of integers that would be times in 1970
	timePartFails           // times in its first rows, then not
	timeKinds
)

// timeCandidates is findTime's look at each column but those in skip: the
// first column of each kind (-1: none), the columns considered (quoted)
// and what the first unnamed column of integers near 1970 holds.
func (l *csvLayout) timeCandidates(sample []sampled, skip []int, to timeOptions) (found [timeKinds]int, considered []string, nearEpoch string) {
	for k := range found {
		found[k] = -1
	}
	leftmost := true
	for i, h := range l.header {
		if slices.Contains(skip, i) {
			continue
		}
		considered = append(considered, strconv.Quote(h))
		p, at, msg := to.detectTime(h, columnValues(sample, i))
		byName := isNamed(h, dateNames)
		guarded := at >= 0 && strings.HasSuffix(msg, errNearEpoch.Error())
		kind := -1
		switch epoch := p.layout == "" && p.read == nil; {
		case guarded && byName:
			kind = timeNamedGuarded // its error names the keys that read it
		case guarded:
			if nearEpoch == "" {
				nearEpoch = fmt.Sprintf("column %q: %s", h, strings.TrimSuffix(msg, ": "+errNearEpoch.Error()))
			}
		case at >= 0 && byName:
			kind = timeNamedFails
		case at > 0:
			kind = timePartFails // times in its first rows, then not
		case at == 0:
		case !epoch && byName:
			kind = timeNamedText
		case !epoch:
			kind = timeText
		case byName || epochUnitOf(h) != "":
			kind = timeNamedInt
		case leftmost:
			kind = timeFirstInt
		}
		if kind >= 0 && found[kind] < 0 {
			found[kind] = i
		}
		leftmost = false
	}
	return found, considered, nearEpoch
}

// noTime is the error of a file without a usable time column: the
// columns considered, those left out as row numbers, the integers that
// would have been times in 1970, and the keys that give a time.
func (l *csvLayout) noTime(file string, considered []string, nearEpoch string) error {
	var b strings.Builder
	b.WriteString("no time column: none of ")
	b.WriteString(strings.Join(considered, ", "))
	b.WriteString(" reads as times")
	for _, i := range l.ignored {
		fmt.Fprintf(&b, "; column %d (%q) counts the rows, never a time", i+1, l.header[i])
	}
	if nearEpoch != "" {
		b.WriteString("; " + nearEpoch + ", never taken as a time by inference")
	}
	b.WriteString(". Name the time with DATA_TIME_COLUMN (COL, or the columns it spans: year,month) and its layout with " +
		"DATA_TIME_FORMAT (strftime; %s for seconds since 1970) or DATA_TIME_UNIT (integers since 1970: s, ms, us, ns), " +
		"or give a file with only a row order its times as DATA_TIME_START (its first row's) and DATA_TIME_STEP (between rows)")
	return &InputError{File: file, Line: 1, Msg: b.String()}
}

// timeSpans are the times that span columns, found by the columns' names:
// a year and a quarter (macroeconomic series), a year, a month and a day,
// a year and a month, a date and a time of day.
var timeSpans = [][][]string{
	{{"year"}, quarterNames},
	{{"year"}, {"month"}, {"day"}},
	{{"year"}, {"month"}},
	{{"date"}, timeOfDayNames},
}

var (
	quarterNames   = []string{"quarter", "qtr"}
	timeOfDayNames = []string{"time", "time_of_day", "hour"}
)

// findSpan finds a time that spans columns: the first of timeSpans whose
// columns the file has (none of them skipped) and whose joined values
// read as times, else a date and a time of day whose names pair them
// (dateTimePair). It sets the time columns and parser.
func (l *csvLayout) findSpan(sample []sampled, skip []int, to timeOptions) bool {
	for _, span := range timeSpans {
		var cols []int
		for _, names := range span {
			i := findColumn(l.header, names)
			if i < 0 || slices.Contains(skip, i) {
				break
			}
			cols = append(cols, i)
		}
		if len(cols) < len(span) {
			continue
		}
		l.spanTime(cols)
		if l.detectTime("", sample, to) == nil {
			return true
		}
		l.timeParts, l.timeSeps = nil, nil
	}
	if cols := dateTimePair(l.header, skip); cols != nil {
		l.spanTime(cols)
		if l.detectTime("", sample, to) == nil {
			return true
		}
		l.timeParts, l.timeSeps = nil, nil
	}
	return false
}

// The words of a date column's name and of a time-of-day column's, in
// the languages of the files that split them (English, German, Spanish).
var (
	dateWords  = []string{"date", "datum", "fecha"}
	clockWords = []string{"time", "zeit", "uhrzeit", "hora"}
)

// dateTimePair finds a date column and a time-of-day column whose names
// say they go together: the same name but for the word date in one and
// time in the other (Date and Time, date_UTC and time_UTC, "Datum (MEZ)"
// and "Zeit (MEZ)"). None when no two columns (not skipped) are so named.
func dateTimePair(header []string, skip []int) []int {
	for i, h := range header {
		rest, ok := cutWord(h, dateWords)
		if !ok || slices.Contains(skip, i) {
			continue
		}
		for j, g := range header {
			if other, ok := cutWord(g, clockWords); ok && other == rest && j != i && !slices.Contains(skip, j) {
				return []int{i, j}
			}
		}
	}
	return nil
}

// cutWord is a column's name in lower case with its first word among
// words replaced by "*" (a word: a run of letters); false when it has
// none of them.
func cutWord(h string, words []string) (string, bool) {
	n := strings.ToLower(strings.TrimSpace(h))
	for i := 0; i < len(n); {
		if !isLetter(n[i]) {
			i++
			continue
		}
		j := i
		for j < len(n) && isLetter(n[j]) {
			j++
		}
		if slices.Contains(words, n[i:j]) {
			return n[:i] + "*" + n[j:], true
		}
		i = j
	}
	return "", false
}

// hasWord reports whether a column's name has one of words.
func hasWord(h string, words []string) bool {
	_, ok := cutWord(h, words)
	return ok
}

func isLetter(b byte) bool { return 'a' <= b && b <= 'z' }

// spanTime makes cols the time's columns: the first, then the parts,
// joined so that a layout reads them (1959 and 1 as 1959Q1, 1959 and 3 as
// 1959-03, a date and a time of day with a space).
func (l *csvLayout) spanTime(cols []int) {
	l.time, l.timeParts, l.timeSeps = cols[0], cols[1:], nil
	for _, i := range l.timeParts {
		sep := "-"
		switch h := l.header[i]; {
		case isNamed(h, quarterNames):
			sep = "Q"
		case isNamed(h, timeOfDayNames), hasWord(h, clockWords):
			sep = " "
		}
		l.timeSeps = append(l.timeSeps, sep)
	}
}

func isNamed(h string, names []string) bool { return findColumn([]string{h}, names) == 0 }

// findDevices finds the device columns among those not taken: the ones
// named as devices, else (by content: true) the text columns (other than
// times) that key series: constant over the sample (a file sorted by
// series shows one), or repeating while the times repeat too (several
// series share times). Text that varies along unique times is a TEXT
// sensor (the weather of a one-city file). Integers are never keys by
// content: a quarter or a month beside a year repeats per time as station
// numbers do. A column whose sampled cells are all missing-value markers
// or empty names nothing, whatever its name: five columns of "--" once
// named a device "--_--_--_--_--".
func findDevices(header []string, sample []sampled, taken []int, timesRepeat bool, to timeOptions, ms *markerSet) ([]int, bool) {
	var named, keys []int
	for i, h := range header {
		if slices.Contains(taken, i) {
			continue
		}
		values := columnValues(sample, i)
		if !slices.ContainsFunc(values, func(v string) bool { return !ms.isAny(v) }) {
			continue
		}
		if isNamed(h, deviceNames) || isNamed(h, placeNames) {
			named = append(named, i)
			continue
		}
		if distinct, ok := textDistinct(values, ms); ok && (distinct == 1 || (timesRepeat && distinct < len(values))) {
			if _, at, _ := to.detectTime(h, values); at >= 0 {
				keys = append(keys, i)
			}
		}
	}
	if len(named) > 0 {
		return named, false
	}
	return keys, len(keys) > 0
}

// textDistinct counts the distinct values, when all are text (not
// numbers or booleans, none missing: empty or a marker).
func textDistinct(values []string, ms *markerSet) (int, bool) {
	if len(values) == 0 {
		return 0, false
	}
	seen := map[string]bool{}
	for _, v := range values {
		v = strings.TrimSpace(v)
		if ms.isAny(v) || kindOf(v) != kindText {
			return 0, false // a missing value is a sensor's, never a tag's
		}
		seen[v] = true
	}
	return len(seen), true
}

// repeats reports whether some value occurs twice.
func repeats(values []string) bool {
	seen := make(map[string]bool, len(values))
	for _, v := range values {
		if seen[v] {
			return true
		}
		seen[v] = true
	}
	return false
}

// isLong reports whether the file is long (a point a line): columns named
// as a sensor and a value, besides the time and the device columns, and
// nothing else. It sets the sensor and value columns.
func (l *csvLayout) isLong(header []string) bool {
	sensor, value := findColumn(header, sensorNames), findColumn(header, valueNames)
	if sensor < 0 || value < 0 || l.isTime(sensor) || l.isTime(value) ||
		slices.Contains(l.devices, sensor) || slices.Contains(l.devices, value) {
		return false
	}
	timeCols := 1 + len(l.timeParts)
	if l.clock != nil {
		timeCols = 0
	}
	if len(header) != timeCols+len(l.ignored)+len(l.devices)+2 {
		return false
	}
	l.kind, l.sensor, l.value = layoutLong, sensor, value
	return true
}

// wideSensors sets a wide file's sensor columns: the ones named, else all
// but the time and the device columns.
func (l *csvLayout) wideSensors(file string, named []int) error {
	l.kind = layoutWide
	cols := named
	if len(cols) == 0 {
		for i := range l.header {
			if !l.isTime(i) && !slices.Contains(l.devices, i) && !slices.Contains(l.ignored, i) {
				cols = append(cols, i)
			}
		}
	}
	for _, i := range cols {
		name := strings.TrimSpace(l.header[i])
		if name == "" {
			return &InputError{File: file, Line: 1, Column: fmt.Sprint(i + 1), Msg: "a sensor column without a name"}
		}
		if l.isTime(i) || slices.Contains(l.devices, i) {
			return &InputError{File: file, Line: 1, Column: name, Msg: "DATA_SENSOR_COLUMNS names the time or a device column"}
		}
		l.sensors = append(l.sensors, name)
		l.sensorCols = append(l.sensorCols, i)
	}
	if len(l.sensors) == 0 {
		return &InputError{File: file, Line: 1, Msg: "no sensor columns: want time, device, sensor, value (long) or time, device, then one column per sensor (wide)"}
	}
	return nil
}

// deviceOf is a record's device: its device columns' values joined, or
// the file's name; and its tags when several columns make it.
func (l *csvLayout) deviceOf(c *csvFile, rec []string, line int64) (string, error) {
	if len(l.devices) == 0 {
		return l.deviceName, nil
	}
	parts := make([]string, len(l.devices))
	for j, i := range l.devices {
		if parts[j] = strings.TrimSpace(rec[i]); parts[j] == "" {
			return "", inputErr(c, line, l.header[i], "empty device name")
		}
	}
	return strings.Join(parts, deviceSep), nil
}

// tagsOf are a record's device tags: each device column's name and value,
// when several columns make the device.
func (l *csvLayout) tagsOf(rec []string) []ts.Tag {
	if !l.tags {
		return nil
	}
	out := make([]ts.Tag, len(l.devices))
	for j, i := range l.devices {
		out[j] = ts.Tag{Key: strings.TrimSpace(l.header[i]), Value: strings.TrimSpace(rec[i])}
	}
	return out
}

// rowIndexNames are the headers a row-number column has: none (R's
// write.csv, pandas' to_csv), or pandas' name for it read back.
var rowIndexNames = []string{"", "unnamed: 0"}

// rowIndexes are the columns of row numbers: an unnamed column counting
// 1, 2, 3 ... (or 0, 1, 2 ...) down the sample. They are no measurement
// and never a time (epoch seconds in 1970); the import leaves them out
// and says so.
func rowIndexes(header []string, sample []sampled) []int {
	var out []int
	for i, h := range header {
		if !isNamed(h, rowIndexNames) || len(sample) < 2 {
			continue
		}
		values := columnValues(sample, i)
		first, err := strconv.ParseInt(strings.TrimSpace(values[0]), 10, 64)
		if err != nil || first > 1 || first < 0 {
			continue
		}
		counts := true
		for k, v := range values {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil || n != first+int64(k) {
				counts = false
				break
			}
		}
		if counts {
			out = append(out, i)
		}
	}
	return out
}
