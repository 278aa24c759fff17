package results

// The --since argument of the commands that list stored runs: a duration
// back from now or an absolute date or time.

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseSince reads v: a duration back from now (90m, 24h, 7d, 2w) or an
// absolute date or time (local time unless it names its zone).
func ParseSince(v string, now time.Time) (time.Time, error) {
	v = strings.TrimSpace(v)
	if n, unit := strings.TrimRight(v, "dw"), strings.TrimLeft(v, "0123456789."); (unit == "d" || unit == "w") && n != "" {
		f, err := strconv.ParseFloat(n, 64)
		if err == nil {
			day := 24 * time.Hour
			if unit == "w" {
				day *= 7
			}
			return now.Add(-time.Duration(f * float64(day))), nil
		}
	}
	if d, err := time.ParseDuration(v); err == nil {
		// "-24h" would be a day ahead: a time back from now is never negative.
		if d < 0 {
			return time.Time{}, fmt.Errorf("a duration back from now must not be negative; want e.g. 24h, 7d, 2w")
		}
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, v, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("want a duration (24h, 7d, 2w) or a date or time (2026-03-01, 2026-03-01T12:00:00Z)")
}
