//go:build parquet

package dataset

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// pandasRow is a row as pandas writes a frame with a zoned DatetimeIndex
// reset into a column: TIMESTAMP(MICROS, adjusted to UTC), named as the
// user named it.
type pandasRow struct {
	MeasuredOn int64   `parquet:"measured_on,timestamp(microsecond)"`
	Power      float64 `parquet:"power"`
}

// twoStampsRow has two timestamp columns, neither named as the time.
type twoStampsRow struct {
	MeasuredOn  int64   `parquet:"measured_on,timestamp(microsecond)"`
	InstalledOn int64   `parquet:"installed_on,timestamp(millisecond)"`
	Power       float64 `parquet:"power"`
}

// localRow is a TIMESTAMP not adjusted to UTC: a wall-clock time.
type localRow struct {
	At    int64   `parquet:"at,timestamp(millisecond:local)"`
	Power float64 `parquet:"power"`
}

// placesRow keys its series by two text columns and has a text time.
type placesRow struct {
	When    string  `parquet:"when"`
	Country string  `parquet:"country"`
	City    string  `parquet:"city"`
	Temp    float64 `parquet:"temp"`
	Note    string  `parquet:"note"`
}

// smallTimeRow has integers near the epoch in a column named time.
type smallTimeRow struct {
	Time  int64   `parquet:"time"`
	Value float64 `parquet:"value"`
}

// untimedRow has no time at all: a row order.
type untimedRow struct {
	Power float64 `parquet:"power"`
	Note  string  `parquet:"note"`
}

// A Parquet file's time is the column typed as a timestamp whatever its
// name, and the DATA_ keys read its columns as they read CSV's.
func TestParquetTimeColumnsAndKeys(t *testing.T) {
	// 2022-01-20T00:00:00-07:00 and an hour later, in µs.
	us := time.Date(2022, 1, 20, 7, 0, 0, 0, time.UTC).UnixMicro()
	ms := us / 1000
	cases := []struct {
		name  string
		write func(path string)
		o     ImportOptions
		want  []string // points, "device sensor ms value"
	}{
		{"a zoned timestamp[us] named measured_on is the time", func(p string) {
			writeParquet(t, p, []pandasRow{{us, 1.5}, {us + 3_600_000_000, 2.5}}, 10)
		}, ImportOptions{}, []string{"f power 1642662000000 1.5", "f power 1642665600000 2.5"}},
		{"DATA_TIME_COLUMN names it too", func(p string) {
			writeParquet(t, p, []pandasRow{{us, 1.5}}, 10)
		}, ImportOptions{TimeColumn: "measured_on"}, []string{"f power 1642662000000 1.5"}},
		{"of two timestamp columns, DATA_TIME_COLUMN says which; the other is measured", func(p string) {
			writeParquet(t, p, []twoStampsRow{{us, ms - 1000, 1.5}}, 10)
		}, ImportOptions{TimeColumn: "installed_on"}, []string{"f measured_on 1642661999000 1642662000000000", "f power 1642661999000 1.5"}},
		{"a wall-clock TIMESTAMP in DATA_TIMEZONE", func(p string) {
			writeParquet(t, p, []localRow{{ms, 1.5}}, 10)
		}, ImportOptions{TimeZone: "+02:00"}, []string{"f power 1642654800000 1.5"}},
		{"DATA_DEVICE_COLUMNS, DATA_SENSOR_COLUMNS, DATA_TIME_FORMAT on a text time", func(p string) {
			writeParquet(t, p, []placesRow{{"20.01.2022", "FR", "Paris", 1.5, "x"}, {"20.01.2022", "DE", "Berlin", 2.5, "y"}}, 10)
		}, ImportOptions{TimeColumn: "when", TimeFormat: "%d.%m.%Y", DeviceColumns: []string{"country", "city"}, SensorColumns: []string{"temp"}},
			[]string{"FR_Paris temp 1642636800000 1.5", "DE_Berlin temp 1642636800000 2.5"}},
		{"DATA_MISSING in a TEXT column", func(p string) {
			writeParquet(t, p, []placesRow{{"2022-01-20", "FR", "Paris", 1.5, "-"}, {"2022-01-21", "FR", "Paris", 2.5, "y"}}, 10)
		}, ImportOptions{TimeColumn: "when", DeviceColumns: []string{"country", "city"}, Missing: "-"},
			[]string{"FR_Paris temp 1642636800000 1.5", "FR_Paris temp 1642723200000 2.5", "FR_Paris note 1642723200000 y"}},
		{"DATA_TIME_START and DATA_TIME_STEP time a file without a time", func(p string) {
			writeParquet(t, p, []untimedRow{{1.5, "a"}, {2.5, "b"}}, 10)
		}, ImportOptions{TimeStart: "2022-01-20T00:00:00Z", TimeStep: "15m"},
			[]string{"f power 1642636800000 1.5", "f note 1642636800000 a", "f power 1642637700000 2.5", "f note 1642637700000 b"}},
		{"small integers in a column named time, with DATA_TIME_UNIT", func(p string) {
			writeParquet(t, p, []smallTimeRow{{5, 1}}, 10)
		}, ImportOptions{TimeUnit: "s"}, []string{"f value 5000 1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := filepath.Join(t.TempDir(), "f.parquet")
			c.write(src)
			out := t.TempDir()
			if _, err := Import(src, out, c.o); err != nil {
				t.Fatal(err)
			}
			if got := points(t, out); !slices.Equal(got, c.want) {
				t.Fatalf("%q\nwant %q", got, c.want)
			}
		})
	}
}

// Parquet files whose time cannot be told are refused, naming the
// columns and the key.
func TestParquetTimeRefused(t *testing.T) {
	us := time.Date(2022, 1, 20, 7, 0, 0, 0, time.UTC).UnixMicro()
	cases := []struct {
		name  string
		write func(path string)
		o     ImportOptions
		want  []string
	}{
		{"two timestamp columns, neither named time", func(p string) {
			writeParquet(t, p, []twoStampsRow{{us, us / 1000, 1.5}}, 10)
		}, ImportOptions{}, []string{"several timestamp columns: measured_on (TIMESTAMP(isAdjustedToUTC=true,unit=MICROS)), installed_on", "DATA_TIME_COLUMN"}},
		{"small integers read as seconds would be 1970", func(p string) {
			writeParquet(t, p, []smallTimeRow{{5, 1}}, 10)
		}, ImportOptions{}, []string{"row 1: column time:", `"5" as s since the epoch would be 1970-01-01T00:00:05Z`, "DATA_TIME_UNIT"}},
		{"no time column at all", func(p string) {
			writeParquet(t, p, []untimedRow{{1.5, "a"}}, 10)
		}, ImportOptions{}, []string{"no time column", "power, note", "DATA_TIME_COLUMN", "DATA_TIME_START"}},
		{"DATA_TIME_COLUMN naming two columns", func(p string) {
			writeParquet(t, p, []twoStampsRow{{us, us / 1000, 1.5}}, 10)
		}, ImportOptions{TimeColumn: "measured_on,installed_on"}, []string{`DATA_TIME_COLUMN "measured_on,installed_on" names 2 columns`}},
		{"DATA_DEVICE_COLUMNS naming a column the file lacks", func(p string) {
			writeParquet(t, p, []pandasRow{{us, 1.5}}, 10)
		}, ImportOptions{DeviceColumns: []string{"site"}}, []string{`DATA_DEVICE_COLUMNS names column "site"`, "measured_on, power"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := filepath.Join(t.TempDir(), "f.parquet")
			c.write(src)
			_, err := Import(src, t.TempDir(), c.o)
			if !IsInputError(err) {
				t.Fatalf("%v: want an InputError", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v\nwant %q in it", err, w)
				}
			}
		})
	}
}
