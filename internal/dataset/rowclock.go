package dataset

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// rowClock gives the rows of a file that has only a row order their
// times (DATA_TIME_START and DATA_TIME_STEP): each series' k-th row is at
// start + k steps. A series is a device (a wide file's rows) or a device
// and sensor (a long file's points), so that a file listing its devices
// one after the other, or in turn, gives each the same times.
type rowClock struct {
	start  time.Time
	step   time.Duration // a fixed step, or 0 with months
	months int           // a step of calendar months (1mo, 3mo, 1y)
	text   string        // how messages name it
	next   map[string]int64
}

// newRowClock reads DATA_TIME_START and DATA_TIME_STEP: both or neither
// (nil).
func newRowClock(o ImportOptions) (*rowClock, error) {
	if o.TimeStart == "" && o.TimeStep == "" {
		return nil, nil
	}
	if o.TimeStart == "" || o.TimeStep == "" {
		return nil, fmt.Errorf("DATA_TIME_START %q and DATA_TIME_STEP %q: give both, the first row's time and the step between rows, or neither", o.TimeStart, o.TimeStep)
	}
	if o.TimeColumn != "" {
		return nil, fmt.Errorf("DATA_TIME_COLUMN %q with DATA_TIME_START: the times come from a column or from the row order, not both", o.TimeColumn)
	}
	start, err := parseKeyTime("DATA_TIME_START", o.TimeStart, o.TimeZone)
	if err != nil {
		return nil, err
	}
	c := &rowClock{start: start, next: map[string]int64{}}
	if c.step, c.months, err = parseStep(o.TimeStep); err != nil {
		return nil, err
	}
	if c.months > 0 && start.Day() > 28 {
		// Go's calendar would carry January 31st + 1 month into March.
		return nil, fmt.Errorf("DATA_TIME_START %q with DATA_TIME_STEP %s: a step of months needs a start on a day from 1 to 28, which every month has", o.TimeStart, o.TimeStep)
	}
	c.text = fmt.Sprintf("the row order: a series' k-th row at DATA_TIME_START %s + k DATA_TIME_STEP %s",
		start.UTC().Format(time.RFC3339Nano), strings.TrimSpace(o.TimeStep))
	return c, nil
}

// at is the time of the next row of series, in ms since the epoch.
func (c *rowClock) at(series string) int64 {
	k := c.next[series]
	c.next[series] = k + 1
	if c.months > 0 {
		return c.start.AddDate(0, int(k)*c.months, 0).UnixMilli()
	}
	return c.start.Add(time.Duration(k) * c.step).UnixMilli()
}

// parseStep reads DATA_TIME_STEP: a Go duration (1s, 15m, 1h30m), days
// or weeks (1d, 2w), or calendar months or years (1mo, 3mo, 1y), at
// least a millisecond (tsbench's unit).
func parseStep(text string) (time.Duration, int, error) {
	t := strings.TrimSpace(text)
	bad := func() (time.Duration, int, error) {
		return 0, 0, fmt.Errorf("DATA_TIME_STEP %q is not a step: want a duration of at least 1ms (500ms, 1s, 15m, 1h), days or weeks (1d, 2w), or months or years (1mo, 3mo, 1y)", text)
	}
	for _, u := range []struct {
		suffix       string
		days, months int
	}{{"mo", 0, 1}, {"y", 0, 12}, {"w", 7, 0}, {"d", 1, 0}} {
		num, ok := strings.CutSuffix(t, u.suffix)
		if !ok {
			continue
		}
		n, err := strconv.Atoi(num)
		if err != nil || n <= 0 {
			return bad()
		}
		if u.months > 0 {
			return 0, n * u.months, nil
		}
		return time.Duration(n*u.days) * 24 * time.Hour, 0, nil
	}
	d, err := time.ParseDuration(t)
	if err != nil || d < time.Millisecond || d%time.Millisecond != 0 {
		return bad()
	}
	return d, 0, nil
}

// parseKeyTime reads a key's time: RFC 3339, or a Go layout CSV times
// may have (2024-05-01 12:00:00, 2024-05-01) in DATA_TIMEZONE.
func parseKeyTime(key, text, zone string) (time.Time, error) {
	loc, err := loadZone(zone)
	if err != nil {
		return time.Time{}, err
	}
	for _, l := range textLayouts {
		if l.custom != nil {
			continue
		}
		if t, err := time.ParseInLocation(l.layout, strings.TrimSpace(text), loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%s %q is not a time: want RFC 3339 (2024-05-01T12:00:00Z), 2024-05-01 12:00:00 or 2024-05-01 (in DATA_TIMEZONE)", key, text)
}
