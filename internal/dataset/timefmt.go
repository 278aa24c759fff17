package dataset

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/itchyny/timefmt-go"

	// Timezone names (DATA_TIMEZONE) must resolve on machines without a
	// zoneinfo database, such as minimal containers.
	_ "time/tzdata"
)

// sampleRows is how many rows of a file decide its time format and its
// columns: enough to see every layout a real file mixes in its head, few
// enough to keep in memory.
const sampleRows = 1000

// timeLayout is a text time format: a Go layout and how messages name it.
// twin is the layout that reads the same text with day and month swapped
// (01/02/2006 and 02/01/2006): where both read every value, the order
// cannot be told from the data. named says the layout is tried only on a
// column named as a time (its values could be any number's otherwise).
type timeLayout struct {
	layout, name string
	twin         string
	named        bool
	// custom reads the layouts Go cannot say (quarters, fractional
	// years): made from the sampled values, or nil when they do not fit.
	custom func(values []string) func(string) (int64, error)
}

// integerTimes stands for integer timestamps among the candidates.
const integerTimes = "integer"

// textLayouts are the text formats detection tries, in order: the first
// that reads every sampled value wins. Layouts without seconds' fractions
// still read them: Go accepts a fraction after the seconds field, after a
// point or a comma (23:59:59,5), and before PM. Day-first and month-first
// layouts each have their twin: the rows decide, one day past 12 at least,
// else the import refuses to guess. Go's
// two-digit year (06) pivots as POSIX's %y: 69-99 are 1969-1999, 00-68
// 2000-2068. Numeric elements without a zero (1, 2) read one or two digits.
var textLayouts = []timeLayout{
	{layout: time.RFC3339Nano, name: "RFC 3339 (2006-01-02T15:04:05Z07:00)"},
	{layout: "zoned", name: "a date and time with its zone (2022-01-20 00:00:00-07:00, -0700, Z, UTC)", custom: zonedTimes},
	{layout: "2006-01-02T15:04:05", name: "ISO 8601 without a zone (2006-01-02T15:04:05[.fraction])"},
	{layout: "2006-01-02 15:04:05", name: "2006-01-02 15:04:05[.fraction]"},
	{layout: "2006-01-02T15:04", name: "2006-01-02T15:04"},
	{layout: "2006-01-02 15:04", name: "2006-01-02 15:04"},
	{layout: "2006-01-02", name: "a date (2006-01-02)"},
	{layout: "2006-01", name: "a month (2006-01)"},
	{layout: "2006/1/2 15:04:05", name: "2006/01/02 15:04:05"},
	{layout: "2006/1/2 15:04", name: "2006/01/02 15:04"},
	{layout: "2006/1/2", name: "2006/01/02"},
	{layout: "2.1.2006 15:04:05", name: "day.month.year 31.12.2020 23:59:59", twin: "1.2.2006 15:04:05"},
	{layout: "2.1.2006 15:04", name: "day.month.year 31.12.2020 23:59", twin: "1.2.2006 15:04"},
	{layout: "2.1.2006", name: "day.month.year (31.12.2020)", twin: "1.2.2006"},
	{layout: "1/2/2006 15:04:05", name: "month/day/year 12/31/2020 23:59:59", twin: "2/1/2006 15:04:05"},
	{layout: "1/2/2006 15:04", name: "month/day/year 12/31/2020 23:59", twin: "2/1/2006 15:04"},
	{layout: "2/1/2006 15:04:05", name: "day/month/year 31/12/2020 23:59:59", twin: "1/2/2006 15:04:05"},
	{layout: "2/1/2006 15:04", name: "day/month/year 31/12/2020 23:59", twin: "1/2/2006 15:04"},
	{layout: "1/2/2006 3:04:05 PM", name: "month/day/year 12/31/2020 11:59:59 PM", twin: "2/1/2006 3:04:05 PM"},
	{layout: "1/2/2006 3:04 PM", name: "month/day/year 12/31/2020 11:59 PM", twin: "2/1/2006 3:04 PM"},
	{layout: "2/1/2006 3:04:05 PM", name: "day/month/year 31/12/2020 11:59:59 PM", twin: "1/2/2006 3:04:05 PM"},
	{layout: "2/1/2006 3:04 PM", name: "day/month/year 31/12/2020 11:59 PM", twin: "1/2/2006 3:04 PM"},
	{layout: "2-1-2006 15:04:05", name: "day-month-year 31-12-2020 23:59:59", twin: "1-2-2006 15:04:05"},
	{layout: "2-1-2006 15:04", name: "day-month-year 31-12-2020 23:59", twin: "1-2-2006 15:04"},
	{layout: "2-1-2006", name: "day-month-year (31-12-2020)", twin: "1-2-2006"},
	{layout: "1/2/2006", name: "month/day/year (12/31/2020)", twin: "2/1/2006"},
	{layout: "2/1/2006", name: "day/month/year (31/12/2020)", twin: "1/2/2006"},
	{layout: "1/2/06", name: "month/day/2-digit year (12/31/20)", twin: "2/1/06"},
	{layout: "2/1/06", name: "day/month/2-digit year (31/12/20)", twin: "1/2/06"},
	{layout: "Jan 2 2006", name: "Jan 1 2000"},
	{layout: "Jan 2, 2006", name: "Jan 1, 2000"},
	{layout: "January 2 2006", name: "January 1 2000"},
	{layout: "January 2, 2006", name: "January 1, 2000"},
	{layout: "2-Jan-06", name: "19-Sep-03 (2-digit year)"},
	{layout: "2-Jan-2006", name: "1-Jan-2000"},
	{layout: "2 Jan 2006", name: "1 Jan 2000"},
	{layout: "2 January 2006", name: "1 January 2000"},
	{layout: "January 2006", name: "a month (January 2000)"},
	{layout: "Jan 2006", name: "a month (Jan 2000)"},
	{layout: "Jan-06", name: "a month (Jan-00)"},
	{layout: "2006-Jan", name: "a year and a month name (2000-Jan)"},
	{layout: "2006-January", name: "a year and a month name (2000-January)"},
	{layout: "quarter", name: "a quarter (1974Q1, 1974-Q1, 1974 Q1)", custom: quarterTimes},
	{layout: "iso week", name: "an ISO week (2020-W05, 2020-W05-3)", custom: isoWeeks},
}

// namedLayouts are tried before integers on a column named as a time:
// integers that read as dates (19580329) or months (192607, as the
// Fama-French files write them), and years as decimals (1950.0, 1945.25
// for a quarter).
var namedLayouts = []timeLayout{
	{layout: "20060102", name: "a date as YYYYMMDD (19580329)", named: true},
	{layout: "200601", name: "a month as YYYYMM (192607)", named: true},
	{layout: "decimal year", name: "decimal years, fractions for periods (1950.0, 1945.25)", named: true, custom: decimalYears},
}

// yearLayout reads four-digit integers as years, not as seconds since
// 1970, in a column named year, or time or date (R writes an annual
// series' times as 1871, 1872 ... in a column named time).
var yearLayout = timeLayout{layout: "2006", name: "a year (2006)"}

// wholeYearsLayout reads years in a column named time or date: four
// digits from 1000 to 2999, all of them (tsbench's own files write ms
// such as 3000 there, which no year layout should take).
var wholeYearsLayout = timeLayout{layout: "whole years", name: "a year (2006)", custom: wholeYears}

var (
	// yearNames are the columns whose four-digit integers are years.
	yearNames = []string{"year", "time", "date"}
	// monthNames are columns whose six-digit integers are months
	// (YYYYMM) and eight-digit ones dates, besides those named as times.
	monthNames = []string{"month", "yearmonth", "year_month", "yyyymm", "period"}
)

// timeOptions are the settings that decide how a time column is read.
type timeOptions struct {
	unit   string         // DATA_TIME_UNIT of integers: s, ms, us, ns or "" (by magnitude)
	format *timeLayout    // DATA_TIME_FORMAT translated, or nil (detected)
	loc    *time.Location // DATA_TIMEZONE of times without a zone
	// rows, with DATA_TIME_START and DATA_TIME_STEP, times the rows by
	// their order: the file has no time column.
	rows *rowClock
}

// newTimeOptions checks and translates the import's time settings.
func newTimeOptions(o ImportOptions) (timeOptions, error) {
	to := timeOptions{unit: o.TimeUnit}
	if to.unit == "auto" {
		to.unit = ""
	}
	loc, err := loadZone(o.TimeZone)
	if err != nil {
		return to, err
	}
	to.loc = loc
	if to.rows, err = newRowClock(o); err != nil {
		return to, err
	}
	if o.TimeFormat != "" {
		read, err := strftimeReader(o.TimeFormat, loc)
		if err != nil {
			return to, err
		}
		to.format = &timeLayout{layout: "strftime", name: fmt.Sprintf("DATA_TIME_FORMAT %s", o.TimeFormat),
			custom: func([]string) func(string) (int64, error) { return read }}
	}
	return to, nil
}

// candidates are the formats tried on a column, in order.
func (to timeOptions) candidates(column string) []timeLayout {
	if to.format != nil {
		return []timeLayout{*to.format}
	}
	var out []timeLayout
	integers := timeLayout{layout: integerTimes, name: "integer (s, ms, us or ns since the epoch)"}
	if to.unit != "" {
		// DATA_TIME_UNIT says the file's times are integers: before
		// years and dates as integers.
		out = append(out, integers)
	}
	switch {
	case isNamed(column, []string{"year"}):
		out = append(out, yearLayout)
	case isNamed(column, yearNames):
		out = append(out, wholeYearsLayout)
	}
	if isNamed(column, dateNames) || isNamed(column, monthNames) {
		out = append(out, namedLayouts...)
	}
	if to.unit == "" {
		out = append(out, integers)
	}
	return append(out, textLayouts...)
}

// tried names the candidates for an error message.
func tried(cands []timeLayout) string {
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.name
	}
	return strings.Join(names, "; ")
}

// parserFor is the parser of one candidate layout for column, or false
// when a custom one does not fit the values.
func (to timeOptions) parserFor(column string, c timeLayout, values []string) (timeParser, bool) {
	if c.custom != nil {
		read := c.custom(values)
		return timeParser{unit: "ms", format: c.name, read: read}, read != nil
	}
	if c.layout != integerTimes {
		return timeParser{unit: "ms", layout: c.layout, format: c.name, loc: to.loc}, true
	}
	p := timeParser{unit: to.unit, format: c.name}
	if p.unit != "" {
		return p, true
	}
	// The first value's magnitude decides the unit, unless the column's
	// name gives it. Where neither a key nor the name says the integers
	// are times since the epoch, none may land within a year of it: row
	// numbers, months or years read as seconds would.
	n, _ := strconv.ParseInt(strings.TrimSpace(values[0]), 10, 64)
	switch u := epochUnitOf(column); u {
	case "":
		p.unit, p.guard = unitOf(n), true
	case "auto":
		p.unit = unitOf(n)
	default:
		p.unit = u
	}
	return p, true
}

// epochNames are words in a column's name that say its integers are
// times since the epoch.
var epochNames = []string{"epoch", "unix", "posix"}

// epochUnits are the endings of a column's name that give its integers'
// unit since the epoch (ts_ms, time_s, created_at_us).
var epochUnits = []struct{ suffix, unit string }{
	{"_ms", "ms"}, {"_millis", "ms"}, {"_us", "us"}, {"_micros", "us"}, {"_ns", "ns"}, {"_nanos", "ns"},
	{"_s", "s"}, {"_sec", "s"}, {"_secs", "s"}, {"_seconds", "s"},
}

// epochUnitOf is the unit a column's name gives its integer times since
// the epoch; "auto" when the name says they are such times but not in
// which unit (by magnitude, unguarded); "" when the name says nothing.
func epochUnitOf(column string) string {
	h := strings.ToLower(strings.TrimSpace(column))
	for _, u := range epochUnits {
		if strings.HasSuffix(h, u.suffix) && len(h) > len(u.suffix) {
			return u.unit
		}
	}
	for _, w := range epochNames {
		if strings.Contains(h, w) {
			return "auto"
		}
	}
	return ""
}

// readsAll reports how many of values p reads before the first it cannot.
// Missing cells are not times and stop it too.
func (p *timeParser) readsAll(values []string) int {
	for i, v := range values {
		if p.layout == "" && p.read == nil {
			if _, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err != nil {
				return i
			}
		}
		if _, _, err := p.parse(v); err != nil {
			return i
		}
	}
	return len(values)
}

// detectTime finds the first candidate format that reads every sampled
// value of a column. Without one, it returns the position of the value
// that stopped the candidate that got furthest, and the message. A column
// whose values two layouts read with day and month swapped is reported
// (at 0), naming DATA_TIME_FORMAT.
func (to timeOptions) detectTime(column string, values []string) (timeParser, int, string) {
	if len(values) == 0 {
		p, _ := to.parserFor(column, timeLayout{layout: integerTimes, name: "integer"}, []string{"0"})
		return p, -1, ""
	}
	cands := to.candidates(column)
	best, bestAt, guarded := 0, -1, ""
	for _, c := range cands {
		p, ok := to.parserFor(column, c, values)
		if !ok {
			continue
		}
		n := p.readsAll(values)
		if n < len(values) && p.guard && n >= bestAt {
			if _, _, err := p.parse(values[n]); errors.Is(err, errNearEpoch) {
				// Integers that read as times only in 1970: say so, and
				// which keys read them as such, rather than list every
				// layout they are not.
				best, bestAt, guarded = n, n, err.Error()
				continue
			}
		}
		if n == len(values) {
			if c.twin != "" && to.format == nil {
				twin := timeParser{unit: "ms", layout: c.twin, loc: to.loc}
				if twin.readsAll(values) == len(values) {
					return timeParser{}, 0, fmt.Sprintf("times such as %q read both as day/month and as month/day in every row: "+
						"give the order as DATA_TIME_FORMAT (e.g. %%d/%%m/%%Y or %%m/%%d/%%Y)", values[0])
				}
			}
			return p, -1, ""
		}
		if n > bestAt {
			best, bestAt, guarded = n, n, ""
		}
	}
	if guarded != "" {
		return timeParser{}, best, guarded
	}
	hint := ""
	if to.format == nil {
		hint = ", or give its format as DATA_TIME_FORMAT (strftime, e.g. %b %d %Y), or DATA_TIME_COLUMN when the time spans columns (year,quarter)"
	}
	return timeParser{}, best, fmt.Sprintf("%q is not a timestamp: tried %s%s", values[best], tried(cands), hint)
}

// loadZone reads DATA_TIMEZONE: an IANA name, or a fixed offset such as
// +05:30, -0800 or UTC+2. Empty is UTC.
func loadZone(name string) (*time.Location, error) {
	n := strings.TrimSpace(name)
	switch strings.ToUpper(n) {
	case "", "UTC", "Z", "GMT":
		return time.UTC, nil
	}
	if secs, ok := fixedOffset(n); ok {
		return time.FixedZone(n, secs), nil
	}
	loc, err := time.LoadLocation(n)
	if err != nil {
		return nil, fmt.Errorf("DATA_TIMEZONE %q: not an IANA zone name (Europe/Paris) nor an offset (+05:30): %w", name, err)
	}
	return loc, nil
}

// fixedOffset reads [UTC|GMT]±H[H][[:]MM] as seconds east of UTC.
func fixedOffset(s string) (int, bool) {
	u := strings.ToUpper(s)
	u = strings.TrimPrefix(strings.TrimPrefix(u, "UTC"), "GMT")
	if len(u) < 2 || (u[0] != '+' && u[0] != '-') {
		return 0, false
	}
	sign, rest := 1, u[1:]
	if u[0] == '-' {
		sign = -1
	}
	hh, mm := rest, "0"
	if i := strings.IndexByte(rest, ':'); i >= 0 {
		hh, mm = rest[:i], rest[i+1:]
	} else if len(rest) > 2 {
		hh, mm = rest[:len(rest)-2], rest[len(rest)-2:]
	}
	h, err1 := strconv.Atoi(hh)
	m, err2 := strconv.Atoi(mm)
	if err1 != nil || err2 != nil || len(hh) > 2 || h > 14 || m > 59 {
		return 0, false
	}
	return sign * (h*3600 + m*60), true
}

// strftimeReader reads times in a strftime format (DATA_TIME_FORMAT) with
// itchyny/timefmt-go, in loc where a time has no zone. The format is tried
// on a time it formats itself first, so that a directive the library does
// not know is refused by name before any row is read.
func strftimeReader(format string, loc *time.Location) (func(string) (int64, error), error) {
	probe := time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)
	if _, err := timefmt.Parse(timefmt.Format(probe, format), format); err != nil {
		return nil, fmt.Errorf("DATA_TIME_FORMAT %q: %w (strftime directives: %%Y %%y %%m %%d %%e %%j %%H %%I %%M %%S %%f %%p %%b %%B %%a %%A %%z %%Z %%F %%T %%R %%D %%s %%%%)", format, err)
	}
	// A fraction of a second is optional, as files write it only where
	// there is one (10:00:00.5 then 10:00:01).
	whole := strings.NewReplacer(".%f", "", ",%f", "").Replace(format)
	return func(v string) (int64, error) {
		t, err := timefmt.ParseInLocation(v, format, loc)
		if err != nil && whole != format {
			t, err = timefmt.ParseInLocation(v, whole, loc)
		}
		if err != nil {
			return 0, fmt.Errorf("%q is not a time in DATA_TIME_FORMAT %s: %w", v, format, err)
		}
		return t.UnixMilli(), nil
	}, nil
}
