package dataset

import (
	"slices"
	"strings"
	"testing"
)

// A file with only a row order takes its times from DATA_TIME_START and
// DATA_TIME_STEP: each series' k-th row at start + k steps.
func TestRowOrderTimes(t *testing.T) {
	airquality := `"","Ozone","Temp","Month","Day"` + "\n" + `"1",41,67,5,1` + "\n" + `"2",NA,72,5,2` + "\n" + `"3",12,74,5,3` + "\n"
	cases := []struct {
		name, file, content string
		start, step         string
		want                []string // device sensor time value, in the dataset's order
	}{
		{"R's data set of months and days without a year, daily", "aq.csv", airquality, "1973-05-01", "1d",
			[]string{"aq Ozone 105062400000 41", "aq Temp 105062400000 67", "aq Month 105062400000 5", "aq Day 105062400000 1",
				"aq Temp 105148800000 72", "aq Month 105148800000 5", "aq Day 105148800000 2",
				"aq Ozone 105235200000 12", "aq Temp 105235200000 74", "aq Month 105235200000 5", "aq Day 105235200000 3"}},
		{"each device counts its own rows", "w.csv", "city,temp\nOslo,1\nLima,20\nOslo,2\nLima,21\n", "2020-01-01T00:00:00Z", "1h",
			[]string{"Lima temp 1577836800000 20", "Lima temp 1577840400000 21", "Oslo temp 1577836800000 1", "Oslo temp 1577840400000 2"}},
		{"a long file counts each device's sensor", "l.csv", "device,sensor,value\nd,a,1\nd,b,2\nd,a,3\nd,b,4\n", "2020-01-01", "500ms",
			[]string{"d a 1577836800000 1", "d b 1577836800000 2", "d a 1577836800500 3", "d b 1577836800500 4"}},
		{"calendar months", "m.csv", "v\n1\n2\n3\n", "2020-01-15", "1mo",
			[]string{"m v 1579046400000 1", "m v 1581724800000 2", "m v 1584230400000 3"}},
		{"in DATA_TIMEZONE", "z.csv", "v\n1\n2\n", "2020-01-01 00:00", "1w",
			[]string{"z v 1577833200000 1", "z v 1578438000000 2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			o := ImportOptions{TimeStart: c.start, TimeStep: c.step}
			if c.file == "z.csv" {
				o.TimeZone = "+01:00"
			}
			if _, err := Import(writeTempFile(t, c.file, c.content), dir, o); err != nil {
				t.Fatal(err)
			}
			if got := points(t, dir); !slices.Equal(got, c.want) {
				t.Fatalf("%q\nwant %q", got, c.want)
			}
		})
	}
}

// Row-order keys that cannot be used are refused by name.
func TestRowOrderTimesRefused(t *testing.T) {
	cases := []struct {
		o    ImportOptions
		want string
	}{
		{ImportOptions{TimeStart: "2020-01-01"}, `DATA_TIME_START "2020-01-01" and DATA_TIME_STEP "": give both`},
		{ImportOptions{TimeStep: "1d"}, "give both"},
		{ImportOptions{TimeStart: "soon", TimeStep: "1d"}, `DATA_TIME_START "soon" is not a time`},
		{ImportOptions{TimeStart: "2020-01-01", TimeStep: "fortnightly"}, `DATA_TIME_STEP "fortnightly" is not a step`},
		{ImportOptions{TimeStart: "2020-01-01", TimeStep: "100us"}, `DATA_TIME_STEP "100us" is not a step: want a duration of at least 1ms`},
		{ImportOptions{TimeStart: "2020-01-01", TimeStep: "0d"}, `DATA_TIME_STEP "0d" is not a step`},
		{ImportOptions{TimeStart: "2020-01-31", TimeStep: "1mo"}, "a step of months needs a start on a day from 1 to 28"},
		{ImportOptions{TimeStart: "2020-01-01", TimeStep: "1d", TimeColumn: "v"}, `DATA_TIME_COLUMN "v" with DATA_TIME_START`},
	}
	for _, c := range cases {
		_, err := Import(writeTempFile(t, "x.csv", "v\n1\n"), t.TempDir(), c.o)
		if !IsInputError(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an InputError with %q", c.o, err, c.want)
		}
	}
}
