package dataset

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Time shapes Go's layouts cannot say: quarters, and years written as
// decimals whose fractions are periods of the year (R's ts objects write
// a quarterly series as 1945, 1945.25, 1945.5, 1945.75).

// quarterText is a quarter: 1974Q1, 1974-Q1, 1974 Q1 (any case).
var quarterText = regexp.MustCompile(`^(\d{4})\s*-?\s*[Qq]([1-4])$`)

// quarterTimes reads quarters as the first instant of the quarter (UTC);
// nil when a value is no quarter.
func quarterTimes(values []string) func(string) (int64, error) {
	for _, v := range values {
		if !quarterText.MatchString(strings.TrimSpace(v)) {
			return nil
		}
	}
	return func(v string) (int64, error) {
		m := quarterText.FindStringSubmatch(strings.TrimSpace(v))
		if m == nil {
			return 0, fmt.Errorf("%q is not a quarter (1974Q1)", v)
		}
		y, _ := strconv.Atoi(m[1])
		q, _ := strconv.Atoi(m[2])
		return time.Date(y, time.Month(3*(q-1)+1), 1, 0, 0, 0, 0, time.UTC).UnixMilli(), nil
	}
}

// yearPeriods are the periods a decimal year may divide the year into:
// those whose parts start on a month (yearly, half-yearly, ... monthly).
var yearPeriods = []int{1, 2, 3, 4, 6, 12}

// decimalYears reads decimal years (1950.0, 1945.25): the period is the
// smallest step between the sampled values, and every value must fall on
// one of its parts; year + k/p is the first instant of month 1 + 12k/p.
// Nil unless some value has a decimal point, every value is a year from
// 1000 to 2999 and the period is one of yearPeriods.
func decimalYears(values []string) func(string) (int64, error) {
	var years []float64
	dot := false
	for _, v := range values {
		v = strings.TrimSpace(v)
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 1000 || f >= 3000 {
			return nil
		}
		dot = dot || strings.Contains(v, ".")
		years = append(years, f)
	}
	if !dot {
		return nil
	}
	p := periodOf(years)
	if p == 0 {
		return nil
	}
	return func(v string) (int64, error) {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a decimal year", v)
		}
		y := math.Floor(f)
		k := math.Round((f - y) * float64(p))
		if math.Abs((f-y)*float64(p)-k) > 1e-6 || y < 1000 || y >= 3000 {
			return 0, fmt.Errorf("%q is not a year nor a 1/%d part of one (the file's period)", v, p)
		}
		return time.Date(int(y), time.Month(1+int(k)*12/p), 1, 0, 0, 0, 0, time.UTC).UnixMilli(), nil
	}
}

// periodOf is the parts per year that the decimal years fall on: the
// inverse of their smallest positive step, when every year is a multiple
// of it; 0 when there is none such.
func periodOf(years []float64) int {
	sorted := slices.Clone(years)
	slices.Sort(sorted)
	step := 1.0
	for i := 1; i < len(sorted); i++ {
		if d := sorted[i] - sorted[i-1]; d > 1e-9 && d < step {
			step = d
		}
	}
	p := int(math.Round(1 / step))
	if !slices.Contains(yearPeriods, p) {
		return 0
	}
	for _, y := range years {
		x := (y - math.Floor(y)) * float64(p)
		if math.Abs(x-math.Round(x)) > 1e-6 {
			return 0
		}
	}
	return p
}

// zonedLayouts are the date and time parts of zoned times as pandas, R and
// spreadsheets write them (the zone cut off first): a space or a T between
// date and time, seconds and their fraction optional.
var zonedLayouts = []string{"2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02T15:04"}

// zonedTimes reads dates and times followed by their own zone: pandas'
// 2022-01-20 00:00:00-07:00, -0700 and PostgreSQL's -07, Z, UTC or GMT
// after a space or not, with or without a fraction of a second. Each
// value keeps its own offset (a file across a change to summer time has
// two). Nil when a value is not such a time.
func zonedTimes(values []string) func(string) (int64, error) {
	for _, v := range values {
		if _, err := readZoned(v); err != nil {
			return nil
		}
	}
	return readZoned
}

// readZoned reads one zoned time (zonedTimes) as ms since the epoch.
func readZoned(v string) (int64, error) {
	v = strings.TrimSpace(v)
	local, offset, ok := splitZone(v)
	if ok {
		for _, layout := range zonedLayouts {
			if t, err := time.ParseInLocation(layout, local, time.FixedZone("", offset)); err == nil {
				return t.UnixMilli(), nil
			}
		}
	}
	return 0, fmt.Errorf("%q is not a date and time with its zone (2022-01-20 00:00:00-07:00)", v)
}

// splitZone cuts the zone off a date and time: a trailing Z, UTC or GMT
// (after a space or not), or an offset ±HH, ±HHMM or ±HH:MM after the
// time of day. It gives the local part and the offset in seconds east.
func splitZone(v string) (string, int, bool) {
	// The time of day starts after the date (10 characters); an offset's
	// sign comes after it, never among the date's dashes.
	if len(v) < 12 {
		return "", 0, false
	}
	for _, z := range []string{"UTC", "GMT", "Z"} {
		if strings.HasSuffix(strings.ToUpper(v), z) {
			return strings.TrimSpace(v[:len(v)-len(z)]), 0, true
		}
	}
	i := strings.LastIndexAny(v, "+-")
	if i <= 10 {
		return "", 0, false
	}
	secs, ok := fixedOffset(v[i:])
	if !ok {
		return "", 0, false
	}
	return strings.TrimSpace(v[:i]), secs, true
}

// isoWeekText is an ISO 8601 week: 2020-W05, 2020W05, with a day of the
// week (1 Monday .. 7 Sunday) or not: 2020-W05-3.
var isoWeekText = regexp.MustCompile(`^(\d{4})-?[Ww](\d{2})(?:-?([1-7]))?$`)

// isoWeeks reads ISO weeks as the first instant of their day (Monday
// without one), UTC; nil when a value is not written as one (a week the
// year lacks is then an error that names it).
func isoWeeks(values []string) func(string) (int64, error) {
	for _, v := range values {
		if !isoWeekText.MatchString(strings.TrimSpace(v)) {
			return nil
		}
	}
	return readISOWeek
}

func readISOWeek(v string) (int64, error) {
	m := isoWeekText.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil {
		return 0, fmt.Errorf("%q is not an ISO week (2020-W05)", v)
	}
	y, _ := strconv.Atoi(m[1])
	w, _ := strconv.Atoi(m[2])
	day := 1
	if m[3] != "" {
		day, _ = strconv.Atoi(m[3])
	}
	// January 4th is in week 1 whatever the year; its week's Monday
	// starts the count.
	jan4 := time.Date(y, 1, 4, 0, 0, 0, 0, time.UTC)
	monday := jan4.AddDate(0, 0, -((int(jan4.Weekday()) + 6) % 7))
	t := monday.AddDate(0, 0, 7*(w-1)+day-1)
	if gy, gw := t.ISOWeek(); gy != y || gw != w {
		return 0, fmt.Errorf("%q: %d has no ISO week %d", v, y, w)
	}
	return t.UnixMilli(), nil
}

// wholeYears reads four-digit integers from 1000 to 2999 as the first
// instant of their year (UTC); nil when a value is not such a year.
func wholeYears(values []string) func(string) (int64, error) {
	for _, v := range values {
		if _, err := readWholeYear(v); err != nil {
			return nil
		}
	}
	return readWholeYear
}

func readWholeYear(v string) (int64, error) {
	v = strings.TrimSpace(v)
	y, err := strconv.Atoi(v)
	if err != nil || len(v) != 4 || y < 1000 || y >= 3000 {
		return 0, fmt.Errorf("%q is not a year from 1000 to 2999", v)
	}
	return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), nil
}
