package dataset

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Every time format is detected from a one-device wide file and read into
// the right milliseconds.
func TestTimeFormats(t *testing.T) {
	utc := func(s string) int64 {
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm.UnixMilli()
	}
	cases := []struct {
		name, column, first, second string
		o                           ImportOptions
		want                        int64 // the first row's time
		step                        int64
	}{
		{"seconds", "time", "1262304000", "1262304060", ImportOptions{}, utc("2010-01-01T00:00:00Z"), 60_000},
		{"milliseconds", "time", "1262304000000", "1262304000500", ImportOptions{}, utc("2010-01-01T00:00:00Z"), 500},
		{"microseconds", "time", "1262304000000000", "1262304000001000", ImportOptions{}, utc("2010-01-01T00:00:00Z"), 1},
		{"nanoseconds", "time", "1262304000000000000", "1262304000002000000", ImportOptions{}, utc("2010-01-01T00:00:00Z"), 2},
		{"declared unit", "time", "5", "6", ImportOptions{TimeUnit: "ms"}, 5, 1},
		{"RFC 3339 with a zone", "time", "2010-01-01T01:00:00+01:00", "2010-01-01T01:00:01+01:00", ImportOptions{}, utc("2010-01-01T00:00:00Z"), 1000},
		{"pandas' zoned times: a space, an offset with a colon", "date", "2022-01-20 00:00:00-07:00", "2022-01-21 00:00:00-07:00", ImportOptions{}, utc("2022-01-20T07:00:00Z"), 86_400_000},
		{"an offset without a colon, a fraction", "time", "2022-01-20 00:00:00.250-0700", "2022-01-20 00:00:00.500-0700", ImportOptions{}, utc("2022-01-20T07:00:00.25Z"), 250},
		{"an offset of hours alone (PostgreSQL)", "time", "2022-01-20 00:00:00+05", "2022-01-20 01:00:00+05", ImportOptions{}, utc("2022-01-19T19:00:00Z"), 3_600_000},
		{"Z after a space-separated time", "time", "2022-01-20 07:00:00Z", "2022-01-20 07:00:01Z", ImportOptions{}, utc("2022-01-20T07:00:00Z"), 1000},
		{"UTC after a space", "time", "2022-01-20 07:00:00 UTC", "2022-01-20 07:01:00 UTC", ImportOptions{}, utc("2022-01-20T07:00:00Z"), 60_000},
		{"T and an offset without a colon", "time", "2022-01-20T00:00-0700", "2022-01-20T00:30-0700", ImportOptions{}, utc("2022-01-20T07:00:00Z"), 1_800_000},
		{"each row keeps its own offset across summer time", "time", "2022-03-13 01:00:00-07:00", "2022-03-13 03:00:00-06:00", ImportOptions{}, utc("2022-03-13T08:00:00Z"), 3_600_000},
		{"DATA_TIMEZONE leaves offsets as written", "time", "2022-01-20 00:00:00-07:00", "2022-01-20 00:00:01-07:00", ImportOptions{TimeZone: "Europe/Paris"}, utc("2022-01-20T07:00:00Z"), 1000},
		{"ISO 8601 without a zone", "time", "2010-01-01T01:00:00", "2010-01-01T02:00:00", ImportOptions{}, utc("2010-01-01T01:00:00Z"), 3_600_000},
		{"ISO 8601 with a fraction", "time", "2010-01-01T01:00:00.250", "2010-01-01T01:00:00.500", ImportOptions{}, utc("2010-01-01T01:00:00.25Z"), 250},
		{"a date", "date", "2012-01-01", "2012-01-02", ImportOptions{}, utc("2012-01-01T00:00:00Z"), 86_400_000},
		{"date and time with a space", "time", "2012-01-01 10:00:00", "2012-01-01 10:00:01.5", ImportOptions{}, utc("2012-01-01T10:00:00Z"), 1500},
		{"a month", "month", "1958-03", "1958-04", ImportOptions{}, utc("1958-03-01T00:00:00Z"), 31 * 86_400_000},
		{"a year", "year", "2001", "2002", ImportOptions{}, utc("2001-01-01T00:00:00Z"), 365 * 86_400_000},
		{"month abbreviation, day, year", "date", "Jan 1 2000", "Feb 1 2000", ImportOptions{}, utc("2000-01-01T00:00:00Z"), 31 * 86_400_000},
		{"day-Mon-yy, newest first", "Date", "19-Sep-03", "18-Sep-03", ImportOptions{}, utc("2003-09-18T00:00:00Z"), 86_400_000},
		{"two-digit year before the POSIX pivot", "Date", "1-Jan-69", "1-Jan-68", ImportOptions{}, utc("1969-01-01T00:00:00Z"), 99*365*86_400_000 + 24*86_400_000},
		{"day-Mon-yyyy", "date", "1-Jan-2000", "2-Jan-2000", ImportOptions{}, utc("2000-01-01T00:00:00Z"), 86_400_000},
		{"month name and year", "date", "January 2000", "February 2000", ImportOptions{}, utc("2000-01-01T00:00:00Z"), 31 * 86_400_000},
		{"slashes with a time of day", "date", "2010/01/01 00:00:00", "2010/01/01 01:00:00", ImportOptions{}, utc("2010-01-01T00:00:00Z"), 3_600_000},
		{"day.month.year, the day past 12", "date", "31.12.2020", "01.01.2021", ImportOptions{}, utc("2020-12-31T00:00:00Z"), 86_400_000},
		{"month/day/year, the day past 12", "date", "12/31/2020", "1/1/2021", ImportOptions{}, utc("2020-12-31T00:00:00Z"), 86_400_000},
		{"day/month/year, the day past 12", "date", "31/12/2020", "1/1/2021", ImportOptions{}, utc("2020-12-31T00:00:00Z"), 86_400_000},
		{"day/month/year with a time of day", "date", "31/12/2020 23:59:59", "01/01/2021 00:00:00", ImportOptions{}, utc("2020-12-31T23:59:59Z"), 1000},
		{"day/month/year, hours and minutes", "date", "31/12/2020 23:59", "01/01/2021 00:00", ImportOptions{}, utc("2020-12-31T23:59:00Z"), 60_000},
		{"day/month/year, a fraction after a comma", "time", `"31/12/2020 23:59:59,5"`, "01/01/2021 00:00:00", ImportOptions{}, utc("2020-12-31T23:59:59.5Z"), 500},
		{"day.month.year, hours and minutes", "Datum", "31.12.2020 23:59", "01.01.2021 00:00", ImportOptions{}, utc("2020-12-31T23:59:00Z"), 60_000},
		{"day.month.year with seconds and a fraction", "date", "31.12.2020 23:59:59.250", "01.01.2021 00:00:00", ImportOptions{}, utc("2020-12-31T23:59:59.25Z"), 750},
		{"month/day/year with AM/PM", "Date", "12/31/2020 11:59:59 PM", "1/1/2021 12:00:00 AM", ImportOptions{}, utc("2020-12-31T23:59:59Z"), 1000},
		{"month/day/year, AM/PM after a fraction", "Date", "12/31/2020 11:59:59.5 PM", "1/1/2021 12:00:00 AM", ImportOptions{}, utc("2020-12-31T23:59:59.5Z"), 500},
		{"month/day/year, AM/PM without seconds", "Date", "12/31/2020 11:59 PM", "1/1/2021 12:00 AM", ImportOptions{}, utc("2020-12-31T23:59:00Z"), 60_000},
		{"day/month/year with AM/PM", "Date", "31/12/2020 11:59:59 PM", "1/1/2021 12:00:00 AM", ImportOptions{}, utc("2020-12-31T23:59:59Z"), 1000},
		{"day-month-year with a time of day", "date", "31-12-2020 23:59:59", "01-01-2021 00:00:00", ImportOptions{}, utc("2020-12-31T23:59:59Z"), 1000},
		{"quarters", "period", "1974Q1", "1974Q2", ImportOptions{}, utc("1974-01-01T00:00:00Z"), 90 * 86_400_000},
		{"quarters with a dash", "period", "1974-Q4", "1975-Q1", ImportOptions{}, utc("1974-10-01T00:00:00Z"), 92 * 86_400_000},
		{"quarters with a space", "period", "1974 Q1", "1974 Q2", ImportOptions{}, utc("1974-01-01T00:00:00Z"), 90 * 86_400_000},
		{"YYYYMMDD integers in a date column", "date", "19580329", "19580405", ImportOptions{}, utc("1958-03-29T00:00:00Z"), 7 * 86_400_000},
		{"YYYYMM integers in a Date column (Fama-French)", "Date", "192607", "192608", ImportOptions{}, utc("1926-07-01T00:00:00Z"), 31 * 86_400_000},
		{"YYYYMM integers in a column named month", "month", "202001", "202002", ImportOptions{}, utc("2020-01-01T00:00:00Z"), 31 * 86_400_000},
		{"YYYY-MM months", "period", "2020-01", "2020-02", ImportOptions{}, utc("2020-01-01T00:00:00Z"), 31 * 86_400_000},
		{"ISO weeks", "week", "2020-W05", "2020-W06", ImportOptions{}, utc("2020-01-27T00:00:00Z"), 7 * 86_400_000},
		{"ISO weeks with a day, with and without dashes", "week", "2020-W01-3", "2020W02", ImportOptions{}, utc("2020-01-01T00:00:00Z"), 5 * 86_400_000},
		{"ISO week 53 of a year that has one", "week", "2020-W53", "2021-W01", ImportOptions{}, utc("2020-12-28T00:00:00Z"), 7 * 86_400_000},
		{"four-digit integers in a column named time: R's annual series", "time", "1871", "1872", ImportOptions{}, utc("1871-01-01T00:00:00Z"), 365 * 86_400_000},
		{"whole float years", "year", "1950.0", "1951.0", ImportOptions{}, utc("1950-01-01T00:00:00Z"), 365 * 86_400_000},
		{"fractional years, quarterly", "time", "1945", "1945.25", ImportOptions{}, utc("1945-01-01T00:00:00Z"), 90 * 86_400_000},
		{"fractional years, monthly", "time", "1945.5", "1945.5833333333", ImportOptions{}, utc("1945-07-01T00:00:00Z"), 31 * 86_400_000},
		{"DATA_TIME_FORMAT month name", "date", "Jan 1 2000", "Jan 02 2000", ImportOptions{TimeFormat: "%b %d %Y"}, utc("2000-01-01T00:00:00Z"), 86_400_000},
		{"DATA_TIME_FORMAT slashes", "time", "2000/01/01 00:00", "2000/01/01 00:05", ImportOptions{TimeFormat: "%Y/%m/%d %H:%M"}, utc("2000-01-01T00:00:00Z"), 300_000},
		{"DATA_TIME_FORMAT fraction", "time", "01.01.2000 10:00:00.5", "01.01.2000 10:00:01", ImportOptions{TimeFormat: "%d.%m.%Y %H:%M:%S.%f"}, utc("2000-01-01T10:00:00.5Z"), 500},
		{"DATA_TIMEZONE IANA", "time", "2010-07-01T12:00:00", "2010-07-01T13:00:00", ImportOptions{TimeZone: "Europe/Paris"}, utc("2010-07-01T10:00:00Z"), 3_600_000},
		{"DATA_TIMEZONE offset", "date", "2012-01-01", "2012-01-02", ImportOptions{TimeZone: "+05:30"}, utc("2011-12-31T18:30:00Z"), 86_400_000},
		{"DATA_TIMEZONE leaves zoned times", "time", "2010-01-01T00:00:00Z", "2010-01-01T00:00:01Z", ImportOptions{TimeZone: "-08:00"}, utc("2010-01-01T00:00:00Z"), 1000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			content := c.column + ",v\n" + c.first + ",1\n" + c.second + ",2\n"
			m, err := Import(writeTempFile(t, "one.csv", content), t.TempDir(), c.o)
			if err != nil {
				t.Fatal(err)
			}
			if m.MinTime != c.want || m.MaxTime-m.MinTime != c.step || m.Rows != 2 {
				t.Fatalf("min %d (want %d), step %d (want %d), rows %d", m.MinTime, c.want, m.MaxTime-m.MinTime, c.step, m.Rows)
			}
		})
	}
}

// Day-first dates with a time of day are decided by the rows, as a real
// file's were: months-first reads its first twelve rows, the thirteenth
// (13/01/2019) decides for day-first. Every row is read so, the first
// twelve too.
func TestDayFirstDecidedLate(t *testing.T) {
	var b strings.Builder
	b.WriteString("date,v\n")
	for d := 2; d <= 20; d++ {
		fmt.Fprintf(&b, "%02d/01/2019 00:00:00,%d\n", d, d)
	}
	m, err := Import(writeTempFile(t, "days.csv", b.String()), t.TempDir(), ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	first := time.Date(2019, 1, 2, 0, 0, 0, 0, time.UTC).UnixMilli()
	if m.MinTime != first || m.MaxTime != first+18*86_400_000 || m.Rows != 19 {
		t.Fatalf("%s .. %s, %d rows; want 2019-01-02 .. 2019-01-20, 19 rows", fmtMillis(m.MinTime), fmtMillis(m.MaxTime), m.Rows)
	}
}

// Bad times and bad settings are input errors naming where and what.
func TestTimeFormatErrors(t *testing.T) {
	cases := []struct {
		name, content string
		o             ImportOptions
		want          []string
	}{
		{"no format reads a value", "time,v\n2012-01-01,1\n2012-13-45,2\n", ImportOptions{},
			[]string{"x.csv:3: column time:", `"2012-13-45" is not a timestamp`, "RFC 3339", "a date (2006-01-02)", "DATA_TIME_FORMAT"}},
		{"formats mixed in the sample", "date,v\n2012-01-01,1\n2012-01-01T00:00:00,2\n", ImportOptions{},
			[]string{"x.csv:3: column date:", `"2012-01-01T00:00:00" is not a timestamp`}},
		{"a bad time after the sample", "time,v\n" + strings.Repeat("2012-01-01,1\n", sampleRows) + "soon,2\n", ImportOptions{},
			[]string{"x.csv:1002: column time:", `"soon" is not a timestamp in the file's format, a date (2006-01-02)`}},
		{"a date column that reads as nothing is reported, not passed over for integers", "STATION,DATE,T\nS1,1st of Jan 2000,1\n", ImportOptions{},
			[]string{"x.csv:2: column DATE:", `"1st of Jan 2000" is not a timestamp`}},
		{"day and month cannot be told apart", "date,v\n01/02/2020,1\n03/04/2020,2\n", ImportOptions{},
			[]string{"x.csv:2: column date:", "read both as day/month and as month/day", "DATA_TIME_FORMAT"}},
		{"day and month with a time of day cannot be told apart", "date,v\n01/02/2020 10:00:00,1\n03/04/2020 10:00:00,2\n", ImportOptions{},
			[]string{"x.csv:2: column date:", "read both as day/month and as month/day", "DATA_TIME_FORMAT"}},
		{"no layout reads a day past 12 in both places", "date,v\n13/13/2020 10:00:00,1\n", ImportOptions{},
			[]string{"x.csv:2: column date:", "is not a timestamp", "day/month/year 31/12/2020 23:59:59", "month/day/year 12/31/2020 11:59:59 PM"}},
		{"decimal years off the period", "time,v\n1945.25,1\n1945.3,2\n", ImportOptions{},
			[]string{"column time:", "DATA_TIME_FORMAT"}},
		{"an ISO week a year does not have", "week,v\n2021-W52,1\n2021-W53,2\n", ImportOptions{},
			[]string{"x.csv:3: column week:", `"2021-W53"`}},
		{"DATA_TIME_FORMAT that does not fit", "date,v\nJan 1 2000,1\n", ImportOptions{TimeFormat: "%Y-%m-%d"},
			[]string{"x.csv:2: column date:", `"Jan 1 2000" is not a timestamp: tried DATA_TIME_FORMAT %Y-%m-%d`}},
		{"an unsupported directive", "date,v\nJan 1 2000,1\n", ImportOptions{TimeFormat: "%b %d %Y %Q"},
			[]string{`DATA_TIME_FORMAT "%b %d %Y %Q"`, `"%Q"`}},
		{"an unknown zone", "date,v\n2012-01-01,1\n", ImportOptions{TimeZone: "Mars/Olympus"},
			[]string{`DATA_TIMEZONE "Mars/Olympus"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Import(writeTempFile(t, "x.csv", c.content), t.TempDir(), c.o)
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

// DATA_TIME_FORMAT read by timefmt-go, directive by directive, literals
// as written (Go's layout could not say "Jan" or digits as text).
func TestStrftimeReader(t *testing.T) {
	cases := []struct{ format, text, want string }{
		{"%Y-%m-%d", "2020-3-7", "2020-03-07T00:00:00Z"},
		{"%b %d %Y", "Jan 02 2000", "2000-01-02T00:00:00Z"},
		{"%Y/%m/%d %H:%M", "2000/01/01 00:05", "2000-01-01T00:05:00Z"},
		{"%d.%m.%y %I:%M %p", "31.12.99 3:04 PM", "1999-12-31T15:04:00Z"},
		{"%A, %B %e %Y %T", "Monday, January  3 2000 10:00:00", "2000-01-03T10:00:00Z"},
		{"%F %H:%M:%S.%f %z", "2010-01-01 01:00:00.250 +0100", "2010-01-01T00:00:00.25Z"},
		{"100%% %Y", "100% 2006", "2006-01-01T00:00:00Z"},
		{"%Y Jan", "2000 Jan", "2000-01-01T00:00:00Z"},
	}
	for _, c := range cases {
		read, err := strftimeReader(c.format, time.UTC)
		if err != nil {
			t.Errorf("%s: %v", c.format, err)
			continue
		}
		want, _ := time.Parse(time.RFC3339Nano, c.want)
		if got, err := read(c.text); err != nil || got != want.UnixMilli() {
			t.Errorf("%s on %q: %v %v, want %s", c.format, c.text, time.UnixMilli(got).UTC(), err, c.want)
		}
	}
	if _, err := strftimeReader("%Y %Q", time.UTC); err == nil || !strings.Contains(err.Error(), `"%Q"`) {
		t.Errorf("an unknown directive: %v, want it named", err)
	}
}

// No time lands in 1970 by inference: integers are times since the epoch
// where they fall outside 1970's first year, where the column's name or a
// key says so; else the file is refused, naming the columns and the keys.
func TestNoTimeIn1970ByInference(t *testing.T) {
	airquality := `"","Ozone","Solar.R","Wind","Temp","Month","Day"` + "\n" +
		`"1",41,190,7.4,67,5,1` + "\n" + `"2",36,118,8,72,5,2` + "\n" + `"3",NA,NA,14.3,56,5,3` + "\n"
	cases := []struct {
		name, content string
		o             ImportOptions
		min, max      int64    // read: the first and last time
		refused       []string // else refused, with these in the message
	}{
		{"R's row numbers, months and days without a year", airquality, ImportOptions{}, 0, 0,
			[]string{"x.csv:1: no time column", `column 1 ("") counts the rows, never a time`, `"Temp"`, `column "Ozone": "41" as s since the epoch would be 1970-01-01T00:00:41Z`,
				"DATA_TIME_COLUMN", "DATA_TIME_FORMAT", "DATA_TIME_START", "DATA_TIME_STEP"}},
		{"small integers in a column named time", "time,v\n1,5\n2,6\n", ImportOptions{}, 0, 0,
			[]string{"x.csv:2: column time:", `"1" as s since the epoch would be 1970-01-01T00:00:01Z`, "DATA_TIME_UNIT", "DATA_TIME_FORMAT=%s"}},
		{"DATA_TIME_COLUMN naming small integers", airquality, ImportOptions{TimeColumn: "Temp"}, 0, 0,
			[]string{"x.csv:2: column Temp:", "1970-01-01T00:01:07Z", "DATA_TIME_UNIT"}},
		{"a text first column that reads as no time", "when,v\nsoon,1\nlater,2\n", ImportOptions{}, 0, 0,
			[]string{"no time column", `"when", "v"`}},
		{"DATA_TIME_UNIT asks for them", "time,v\n1,5\n2,6\n", ImportOptions{TimeUnit: "s"}, 1000, 2000, nil},
		{"DATA_TIME_FORMAT %s asks for them", "time,v\n1,5\n2,6\n", ImportOptions{TimeFormat: "%s"}, 1000, 2000, nil},
		{"a name giving the unit", "ts_ms,v\n1000,5\n2000,6\n", ImportOptions{}, 1000, 2000, nil},
		{"a name saying epoch", "epoch,v\n1,5\n2,6\n", ImportOptions{}, 1000, 2000, nil},
		{"plausible seconds in an unnamed first column", "when,v\n1262304000,5\n1262304060,6\n", ImportOptions{}, 1262304000000, 1262304060000, nil},
		{"plausible times before 1970", "time,v\n-86400000,5\n-31536000,6\n", ImportOptions{}, -86400000000, -31536000000, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Import(writeTempFile(t, "x.csv", c.content), t.TempDir(), c.o)
			if c.refused == nil {
				if err != nil || m.MinTime != c.min || m.MaxTime != c.max {
					t.Fatalf("%v: times %d .. %d, want %d .. %d", err, m.MinTime, m.MaxTime, c.min, c.max)
				}
				return
			}
			if !IsInputError(err) {
				t.Fatalf("%v: want an InputError", err)
			}
			for _, w := range c.refused {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v\nwant %q in it", err, w)
				}
			}
		})
	}
}
