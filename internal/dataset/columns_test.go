package dataset

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/ts"
)

// Real files' columns, found by name and content, or named by the keys.
func TestCSVColumns(t *testing.T) {
	day := func(s string) int64 {
		tm, err := time.Parse("2006-01-02", s)
		if err != nil {
			t.Fatal(err)
		}
		return tm.UnixMilli()
	}
	cases := []struct {
		name, file, content string
		o                   ImportOptions
		format              string
		devices             []string // sorted
		tags                []ts.Tag // the first device's
		sensors             []string
		rows, minTime       int64
	}{
		{name: "daily weather by city", file: "weather.csv",
			content: "date,location,temp_max,temp_min\n2012-01-01,Seattle,12.8,5\n2012-01-01,New York,5.1,-1.2\n" +
				"2012-01-02,Seattle,10.6,2.8\n2012-01-02,New York,7,0.5\n",
			format: "csv-wide", devices: []string{"New York", "Seattle"}, sensors: []string{"temp_max", "temp_min"}, rows: 4, minTime: day("2012-01-01")},
		{name: "one city's weather: text along unique dates is a sensor", file: "seattle-weather.csv",
			content: "date,precipitation,temp_max,temp_min,wind,weather\n2012-01-01,0.0,12.8,5.0,4.7,drizzle\n" +
				"2012-01-02,10.9,10.6,2.8,4.5,rain\n2012-01-03,0.8,11.7,7.2,2.3,rain\n",
			format: "csv-wide", devices: []string{"seattle-weather"}, sensors: []string{"precipitation", "temp_max", "temp_min", "wind", "weather"},
			rows: 3, minTime: day("2012-01-01")},
		{name: "a series key by content, the sample holding one series", file: "one.csv",
			// The first series outlasts the sample; the file holds two.
			content: "grid,date,load\n" + seriesRows("north-east", sampleRows+1) + seriesRows("south-west", 2),
			format:  "csv-wide", devices: []string{"north-east", "south-west"}, sensors: []string{"load"}, rows: sampleRows + 3, minTime: day("2012-01-01")},
		{name: "monthly stock prices by symbol", file: "stocks.csv",
			content: "symbol,date,open,close\nAAPL,2000-01-01,25.5,25.9\nAAPL,2000-02-01,26,27.1\nMSFT,2000-01-01,39.8,39.6\nMSFT,2000-02-01,36,35.4\n",
			format:  "csv-wide", devices: []string{"AAPL", "MSFT"}, sensors: []string{"open", "close"}, rows: 4, minTime: day("2000-01-01")},
		{name: "yearly electricity by source", file: "electricity.csv",
			content: "source,year,generation\ncoal,2001,1903\ngas,2001,639\ncoal,2002,1933\ngas,2002,691\n",
			format:  "csv-wide", devices: []string{"coal", "gas"}, sensors: []string{"generation"}, rows: 4, minTime: day("2001-01-01")},
		{name: "hourly climate normals by station", file: "normals.csv",
			content: "STATION,DATE,HLY-TEMP-NORMAL\nUSW00094728,2010-01-01T01:00:00,35.6\nUSW00094728,2010-01-01T02:00:00,35.1\n",
			format:  "csv-wide", devices: []string{"USW00094728"}, sensors: []string{"HLY-TEMP-NORMAL"}, rows: 2, minTime: day("2010-01-01") + 3_600_000},
		{name: "monthly CO2, one series", file: "co2.csv",
			content: "month,average\n1958-03,315.7\n1958-04,317.45\n",
			format:  "csv-wide", devices: []string{"co2"}, sensors: []string{"average"}, rows: 2, minTime: day("1958-03-01")},
		{name: "device and time by content alone", file: "plants.csv",
			content: "power,recorded,plant\n5,2012-01-01 00:00:00,north\n6,2012-01-01 00:00:00,south\n7,2012-01-01 01:00:00,north\n",
			format:  "csv-wide", devices: []string{"north", "south"}, sensors: []string{"power"}, rows: 3, minTime: day("2012-01-01")},
		{name: "long, device by content", file: "long.csv",
			content: "date,plant,sensor,value\n2012-01-01,north,t,1\n2012-01-01,north,h,2\n2012-01-01,south,t,3\n2012-01-01,south,h,4\n",
			format:  "csv-long", devices: []string{"north", "south"}, sensors: []string{"h", "t"}, rows: 2, minTime: day("2012-01-01")},
		{name: "DATA_DEVICE_COLUMNS joins and tags", file: "cities.csv",
			content: "date,city,country,temp\n2012-01-01,Paris,FR,3\n2012-01-01,Paris,US,10\n",
			o:       ImportOptions{DeviceColumns: []string{"city", "country"}},
			format:  "csv-wide", devices: []string{"Paris_FR", "Paris_US"}, tags: []ts.Tag{{Key: "city", Value: "Paris"}, {Key: "country", Value: "FR"}},
			sensors: []string{"temp"}, rows: 2, minTime: day("2012-01-01")},
		{name: "DATA_SENSOR_COLUMNS leaves the others out", file: "weather2.csv",
			content: "date,location,temp_max,temp_min,weather\n2012-01-01,Seattle,12.8,5,rain\n",
			o:       ImportOptions{SensorColumns: []string{"temp_max"}},
			format:  "csv-wide", devices: []string{"Seattle"}, sensors: []string{"temp_max"}, rows: 1, minTime: day("2012-01-01")},
		{name: "DATA_TIME_COLUMN picks among times", file: "trips.csv",
			content: "start,end,km\n2012-01-01,2012-01-03,5\n2012-01-02,2012-01-05,7\n",
			o:       ImportOptions{TimeColumn: "end"},
			format:  "csv-wide", devices: []string{"trips"}, sensors: []string{"start", "km"}, rows: 2, minTime: day("2012-01-03")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Import(writeTempFile(t, c.file, c.content), t.TempDir(), c.o)
			if err != nil {
				t.Fatal(err)
			}
			var devs, sensors []string
			for _, d := range m.Devices {
				devs = append(devs, d.Name)
			}
			slices.Sort(devs)
			for _, s := range m.Sensors {
				sensors = append(sensors, s.Name)
			}
			if m.Format != c.format || !slices.Equal(devs, c.devices) || !slices.Equal(sensors, c.sensors) || m.Rows != c.rows || m.MinTime != c.minTime {
				t.Fatalf("got %s devices %q sensors %q rows %d min %d", m.Format, devs, sensors, m.Rows, m.MinTime)
			}
			if !slices.Equal(m.Devices[0].Tags, c.tags) {
				t.Fatalf("tags %v, want %v", m.Devices[0].Tags, c.tags)
			}
		})
	}
}

// seriesRows are n daily rows of a grid,date,load file's series from
// 2012-01-01.
func seriesRows(grid string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s,%s,%d\n", grid, time.Date(2012, 1, 1+i, 0, 0, 0, 0, time.UTC).Format("2006-01-02"), i)
	}
	return b.String()
}

// Column keys naming what the file lacks are input errors listing its columns.
func TestCSVColumnKeyErrors(t *testing.T) {
	content := "date,location,temp\n2012-01-01,Oslo,1\n"
	cases := []struct {
		o    ImportOptions
		want string
	}{
		{ImportOptions{TimeColumn: "when"}, `DATA_TIME_COLUMN names column "when", which the file does not have; it has date, location, temp`},
		{ImportOptions{DeviceColumns: []string{"city"}}, `DATA_DEVICE_COLUMNS names column "city"`},
		{ImportOptions{SensorColumns: []string{"temp", "rain"}}, `DATA_SENSOR_COLUMNS names column "rain"`},
		{ImportOptions{TimeColumn: "location"}, `x.csv:2: column location: "Oslo" is not a timestamp`},
	}
	for _, c := range cases {
		_, err := Import(writeTempFile(t, "x.csv", content), t.TempDir(), c.o)
		if !IsInputError(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an InputError with %q", c.o, err, c.want)
		}
	}
}

// A column is a device key when its values name series: never one of
// missing-value markers; a key found by content that holds one value in
// every row could as well be a TEXT sensor, and the count depends on the
// choice: the import stops, an inspection says why, until a key says.
func TestDeviceKeys(t *testing.T) {
	const status = "date,status,v\n2020-01-01,ok,1\n2020-01-02,ok,2\n"
	cases := []struct {
		name, content string
		o             ImportOptions
		devices       []string // sorted; none: refused
		points        int
		refused       []string
	}{
		{"one text value throughout: refused", status, ImportOptions{}, nil, 0,
			[]string{`column "status" holds one value in every row ("ok")`, "DATA_DEVICE_COLUMNS=status takes it as the device", "DATA_DEVICE_COLUMNS=none measures it"}},
		{"DATA_DEVICE_COLUMNS takes it", status, ImportOptions{DeviceColumns: []string{"status"}}, []string{"ok"}, 2, nil},
		{"DATA_DEVICE_COLUMNS=none measures it", status, ImportOptions{DeviceColumns: []string{"none"}}, []string{"x"}, 4, nil},
		{"a named column of markers is no device", "date,station,v\n2020-01-01,--,1\n2020-01-02,--,2\n", ImportOptions{}, []string{"x"}, 2, nil},
		{"five columns of -- are no device", "date,a,b,c,d,e,v\n2020-01-01,--,--,--,--,--,1\n2020-01-02,--,--,--,--,--,2\n",
			ImportOptions{}, []string{"x"}, 2, nil},
		// A quarter beside a year repeats per time as station numbers
		// would: the rows collide, which a run refuses, naming the keys.
		{"integers are no key by content", "year,period,v\n2000,1,5\n2000,2,6\n2001,1,7\n2001,2,8\n",
			ImportOptions{}, []string{"x"}, 8, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := writeTempFile(t, "x.csv", c.content)
			m, err := Import(src, t.TempDir(), c.o)
			if c.devices == nil {
				if !IsInputError(err) {
					t.Fatalf("%v, want an InputError", err)
				}
				for _, w := range c.refused {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%v\nwant %q in it", err, w)
					}
				}
				in, err := Inspect(src, c.o)
				if err != nil || in.Replayable || !strings.Contains(in.Problem, c.refused[0]) || !strings.Contains(in.Table(), "Replayable   no: "+c.refused[0]) {
					t.Fatalf("inspect: %v, replayable %v, problem %q", err, in.Replayable, in.Problem)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var devs []string
			for _, d := range m.Devices {
				devs = append(devs, d.Name)
			}
			slices.Sort(devs)
			if !slices.Equal(devs, c.devices) || m.Points() != int64(c.points) {
				t.Fatalf("devices %q, %d points; want %q, %d", devs, m.Points(), c.devices, c.points)
			}
		})
	}
}

// A date and a time of day in two columns whose names pair them are read
// as one time.
func TestDateTimeColumns(t *testing.T) {
	cases := []struct{ name, content, column string }{
		{"date and time", "date,time,v\n2020-12-31,23:59:00,1\n2021-01-01,00:00:00,2\n", "date,time"},
		{"Date and Time, day first", "Date;Time;v\n31.12.2020;23:59;1\n01.01.2021;00:00;2\n", "Date,Time"},
		{"date_UTC and time_UTC", "date_UTC;time_UTC;vf\n2020-12-31;23:59:00;7,35e-07\n2021-01-01;00:00:00;7,4e-07\n", "date_UTC,time_UTC"},
		{"named with a zone in brackets", "Time (UTC),Date (UTC),v\n23:59:00,12/31/2020,1\n00:00:00,01/01/2021,2\n", "Date (UTC),Time (UTC)"},
		{"German names", "Datum;Zeit;Temperatur\n31.12.2020;23:59:00;3,5\n01.01.2021;00:00:00;3\n", "Datum,Zeit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := Inspect(writeTempFile(t, "x.csv", c.content), ImportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if in.Time.Column != c.column || in.MinTime != "2020-12-31T23:59:00Z" || in.MaxTime != "2021-01-01T00:00:00Z" || len(in.Sensors) != 1 {
				t.Fatalf("time %q: %s .. %s, sensors %+v", in.Time.Column, in.MinTime, in.MaxTime, in.Sensors)
			}
		})
	}
}
