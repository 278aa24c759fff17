package main

// Real data as it comes: files shaped like public data sets (daily weather
// by city, monthly stock prices by symbol, monthly CO2, hourly climate
// normals, yearly electricity by source, a long file sorted by series),
// written small by the test, replayed by the binary into SQLite with no
// settings: their time formats and columns are detected, their rows
// sorted. The verification must count every point and the query answers
// must check.

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// realFile is a file and what it holds.
type realFile struct {
	name             string
	lines            []string // the header first
	devices, sensors int
	rows             int64
}

func dailyWeather() realFile {
	lines := []string{"date,location,temp_max,temp_min,precipitation"}
	cities := []string{"Seattle", "New York", "Chicago"}
	for day := 0; day < 60; day++ {
		for c, city := range cities {
			d := time.Date(2012, 1, 1+day, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
			lines = append(lines, fmt.Sprintf("%s,%s,%.1f,%.1f,%.1f", d, city, 10+float64(c)+math.Sin(float64(day)), 2+float64(c), float64(day%4)/2))
		}
	}
	return realFile{"seattle-weather.csv", lines, 3, 3, 180}
}

func monthlyStocks() realFile {
	lines := []string{"symbol,date,open,close"}
	for s, sym := range []string{"MSFT", "AMZN", "IBM", "AAPL"} {
		for m := 0; m < 24; m++ {
			lines = append(lines, fmt.Sprintf("%s,%d-%02d-01,%.2f,%.2f", sym, 2000+m/12, 1+m%12, 30+float64(s*10+m), 31+float64(s*10+m)))
		}
	}
	return realFile{"stocks.csv", lines, 4, 2, 96}
}

func monthlyCO2() realFile {
	lines := []string{"date,average,trend"}
	for m := 0; m < 48; m++ {
		lines = append(lines, fmt.Sprintf("%d-%02d-01,%.2f,%.2f", 1958+m/12, 1+m%12, 315+float64(m)/10, 314+float64(m)/10))
	}
	return realFile{"co2-mm-mlo.csv", lines, 1, 2, 48}
}

func hourlyNormals() realFile {
	lines := []string{"STATION,DATE,HLY-TEMP-NORMAL,HLY-DEWP-NORMAL"}
	for _, st := range []string{"USW00094728", "USW00014732"} {
		for h := 0; h < 48; h++ {
			lines = append(lines, fmt.Sprintf("%s,2010-01-%02dT%02d:00:00,%.1f,%.1f", st, 1+h/24, h%24, 35+float64(h%24)/4, 20+float64(h%24)/8))
		}
	}
	return realFile{"normals-hourly.csv", lines, 2, 2, 96}
}

func yearlyElectricity() realFile {
	lines := []string{"source,year,generation"}
	for y := 2001; y <= 2020; y++ {
		for s, src := range []string{"coal", "natural gas", "nuclear", "wind"} {
			lines = append(lines, fmt.Sprintf("%s,%d,%d", src, y, 1000+s*100+y-2001))
		}
	}
	return realFile{"electricity.csv", lines, 4, 1, 80}
}

// longBySeries is a long file, every line of one series, then the next.
func longBySeries() realFile {
	lines := []string{"datetime,city,sensor,value"}
	for _, city := range []string{"Oslo", "Lima"} {
		for _, sensor := range []string{"temp", "humidity", "wind"} {
			for h := 0; h < 30; h++ {
				lines = append(lines, fmt.Sprintf("2015-06-01 %02d:%02d:00,%s,%s,%d.5", h/2, 30*(h%2), city, sensor, h+len(sensor)))
			}
		}
	}
	return realFile{"city-sensors.csv", lines, 2, 3, 60}
}

// realTargets are the targets the real files are replayed into: SQLite,
// embedded, and the PostgreSQL of scripts/services.
var realTargets = []struct {
	name string
	args []string
}{
	{"sqlite", []string{"--target", "sqlite"}},
	{"postgres", []string{"--target", "postgres", "--set", "DB_NAME=tsbench_realdata"}}, // not "test", which other packages reset
}

func TestRealDataReplayed(t *testing.T) {
	for _, tg := range realTargets {
		t.Run(tg.name, func(t *testing.T) {
			requireTargetServer(t, tg.name)
			replayRealFiles(t, tg.args)
		})
	}
}

func replayRealFiles(t *testing.T, targetArgs []string) {
	for _, f := range []realFile{dailyWeather(), monthlyStocks(), monthlyCO2(), hourlyNormals(), yearlyElectricity(), longBySeries()} {
		t.Run(f.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), f.name)
			if err := os.WriteFile(file, []byte(strings.Join(f.lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			// No more clients than devices: each writing client owns one.
			args := append([]string{"--data", file, "--clients", fmt.Sprint(min(2, f.devices))}, targetArgs...)
			s := replayRun(t, t.TempDir(), args...)
			points := f.rows * int64(f.sensors)
			rp, v := s.Replay, s.Verify
			if rp == nil || rp.Devices != f.devices || rp.Sensors != f.sensors || rp.Rows != f.rows || rp.DuplicateRows != 0 {
				t.Fatalf("replay %+v: want %d devices x %d sensors, %d rows", rp, f.devices, f.sensors, f.rows)
			}
			if v == nil || !v.OK || v.StoredPoints != points || v.ExpectedPoints != points {
				t.Fatalf("verify %+v: want %d points stored", v, points)
			}
			if len(v.Queries) == 0 {
				t.Fatalf("no query answer checked: %+v", v)
			}
			for _, q := range v.Queries {
				if !q.OK || q.Error != "" {
					t.Fatalf("query check %+v", q)
				}
			}
		})
	}
}

// What real files get wrong still exits 2, naming the file, line and
// column, before anything is written.
func TestRealDataBadInput(t *testing.T) {
	inParallel(t)
	cases := []struct{ name, content, want string }{
		{"weather.csv", "date,location,temp_max\n2012-01-01,Seattle,12.8\n2012-01-02,Seattle,1,2\n", "weather.csv:3: column 1: wrong number of fields"},
		{"stocks.csv", "symbol,date,open\nIBM,2000-01-01,1\nIBM,2000-02-30,2\n", `stocks.csv:3: column date: "2000-02-30" is not a timestamp`},
		{"normals.csv", "STATION,DATE,T\nS1,1st of Jan 2000,1\n", `normals.csv:2: column DATE: "1st of Jan 2000" is not a timestamp`},
		{"long.csv", "date,city,sensor,value\n2015-01-01,Oslo,temp,1\n2015-01-01,Oslo,wind,2\n2015-01-02,,temp,3\n",
			"long.csv:4: column city: empty device name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), c.name)
			if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			dataDir := t.TempDir()
			r := tsbench(t, nil, "run", "--quiet", "--results", "off", "--data-dir", dataDir, "--data", path, "--target", "sqlite", "--clients", "1")
			if r.code != 2 || !strings.Contains(r.stderr, c.want) {
				t.Fatalf("exit %d, want 2 and %q\n%s", r.code, c.want, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(dataDir, "sqlite")); err == nil {
				t.Fatal("the run wrote to the database although the data was refused")
			}
		})
	}
}

// The column and time keys reach the import from the command line: a file
// whose times read only with DATA_TIME_FORMAT, in DATA_TIMEZONE, keyed by
// two columns joined (DATA_DEVICE_COLUMNS), with a column left out
// (DATA_SENSOR_COLUMNS).
func TestRealDataKeys(t *testing.T) {
	for _, tg := range realTargets {
		t.Run(tg.name, func(t *testing.T) {
			requireTargetServer(t, tg.name)
			replayWithKeys(t, tg.name, tg.args)
		})
	}
}

func replayWithKeys(t *testing.T, name string, targetArgs []string) {
	lines := []string{"when,country,city,temp,note"}
	for day := 0; day < 20; day++ {
		d := time.Date(2000, 1, 1+day, 0, 0, 0, 0, time.UTC).Format("Jan 02 2006")
		for c, place := range []string{"FR,Paris", "DE,Berlin"} {
			lines = append(lines, fmt.Sprintf("%s,%s,%d.5,x", d, place, 10+c+day%3))
		}
	}
	file := filepath.Join(t.TempDir(), "places.csv")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dataDir := t.TempDir()
	args := append([]string{"--data", file, "--clients", "2"}, targetArgs...)
	s := replayRun(t, dataDir, append(args,
		"--set", "DATA_TIME_FORMAT=%b %d %Y", "--set", "DATA_TIMEZONE=+02:00", "--set", "DATA_TIME_COLUMN=when",
		"--set", "DATA_DEVICE_COLUMNS=country,city", "--set", "DATA_SENSOR_COLUMNS=temp")...)
	rp, v := s.Replay, s.Verify
	if rp == nil || rp.Devices != 2 || rp.Sensors != 1 || rp.Rows != 40 {
		t.Fatalf("replay %+v: want 2 devices (country and city joined) x 1 sensor, 40 rows", rp)
	}
	if v == nil || !v.OK || v.StoredPoints != 40 {
		t.Fatalf("verify %+v: want 40 points", v)
	}
	if len(v.Queries) == 0 {
		t.Fatalf("no query answer checked: %+v", v)
	}
	for _, q := range v.Queries {
		if !q.OK || q.Error != "" {
			t.Fatalf("query check %+v", q)
		}
	}
	if name != "sqlite" {
		return
	}
	// Midnight at +02:00 is 22:00 UTC the day before.
	db := openDB(t, filepath.Join(dataDir, "sqlite", "test.db"))
	if got, want := queryInt(t, db, "SELECT min(t) FROM points"), time.Date(1999, 12, 31, 22, 0, 0, 0, time.UTC).UnixMilli(); got != want {
		t.Fatalf("first time %d, want %d", got, want)
	}
}
