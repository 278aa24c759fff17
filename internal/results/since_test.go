package results

import (
	"strings"
	"testing"
	"time"
)

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	cases := map[string]time.Time{
		"24h":                  now.Add(-24 * time.Hour),
		"90m":                  now.Add(-90 * time.Minute),
		"7d":                   now.Add(-7 * 24 * time.Hour),
		"2w":                   now.Add(-14 * 24 * time.Hour),
		"1.5d":                 now.Add(-36 * time.Hour),
		"2026-03-01T08:00:00Z": time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC),
		"2026-03-01":           time.Date(2026, 3, 1, 0, 0, 0, 0, time.Local),
	}
	for in, want := range cases {
		got, err := ParseSince(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "d", "yesterday", "7x"} {
		if _, err := ParseSince(bad, now); err == nil {
			t.Errorf("ParseSince(%q) accepted", bad)
		}
	}
}

// FuzzParse: --since takes any text to a time or an error, never a
// panic; a duration back from now never lands in the future.
func FuzzParseSince(f *testing.F) {
	for _, s := range []string{"90m", "24h", "7d", "2w", "1.5d", "2026-11-22", "2026-11-22T10:00:00Z", "d", ".w", "-3d", "1e300w", "-24h"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		got, err := ParseSince(v, now)
		if err != nil {
			return
		}
		if got.After(now) && !looksAbsolute(v) {
			t.Fatalf("ParseSince(%q) = %v, after now", v, got)
		}
	})
}

// looksAbsolute says v may name a date, which may be in the future: every
// layout Parse takes starts with a digit and has a '-'. A leading '-'
// is a negative duration ("-24h"), which is not a time back from now.
func looksAbsolute(v string) bool {
	v = strings.TrimSpace(v)
	return v != "" && v[0] >= '0' && v[0] <= '9' && strings.Contains(v, "-")
}
