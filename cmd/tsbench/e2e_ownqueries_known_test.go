package main

// One query file on five targets of four languages (sql, influxql, promql,
// iotdb), over a replayed file whose every value is known here: each
// checked answer is recomputed from the file and must match.

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets/targettest"
)

var (
	knownHosts = []string{"web01.example.com", "db-1", "cache 3"}
	knownStart = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
)

const knownRows = 120 // one a minute per host

// writeKnownFile writes the file: temp = 1000*host + k, load = k mod 7 at
// minute k.
func writeKnownFile(t *testing.T, dir string) string {
	var b strings.Builder
	b.WriteString("time,host,temp,load\n")
	for h, host := range knownHosts {
		for k := range knownRows {
			fmt.Fprintf(&b, "%s,%s,%d,%d\n", knownStart.Add(time.Duration(k)*time.Minute).Format(time.RFC3339), host, h*1000+k, k%7)
		}
	}
	return writeInputFile(t, dir, "known.csv", b.String())
}

// The texts: a device's largest temp, and its sum of load over a random
// 10-minute window ([start, end) in SQL, InfluxQL and IoTDB; PromQL's
// range selector at the window's end takes (end-10m, end]).
const knownQueries = `queries:
  - name: dev_max
    params:
      dev: device
    sql: SELECT max(p.v) FROM points p JOIN series s ON s.id = p.series WHERE s.device = {{dev}} AND s.sensor = 'temp'
    influxql: SELECT max("temp") FROM "g_0" WHERE "device" = {{dev}}
    promql: max_over_time({__name__="temp", device={{dev}}}[1d] @ 1704074340)
    iotdb: SELECT max_value(temp) FROM root.test.g_0.{{dev|ident}}
  - name: window_load
    params:
      dev: device
      w: window 10m
    sql: SELECT sum(p.v) FROM points p JOIN series s ON s.id = p.series WHERE s.device = {{dev}} AND s.sensor = 'load' AND p.t >= {{w.start}} AND p.t < {{w.end}}
    influxql: SELECT sum("load") FROM "g_0" WHERE "device" = {{dev}} AND time >= {{w.start}} AND time < {{w.end}}
    promql: sum_over_time({__name__="load", device={{dev}}}[10m] @ {{w.end}})
    iotdb: SELECT sum(load) FROM root.test.g_0.{{dev|ident}} WHERE time >= {{w.start}} AND time < {{w.end}}
`

func TestOwnQueriesKnownData(t *testing.T) {
	dir := t.TempDir()
	data := writeKnownFile(t, dir)
	q := writeInputFile(t, dir, "q.yaml", knownQueries)
	// The targets on their default servers, then the current releases
	// beside them (PostgreSQL 18, InfluxDB 1.13) on theirs.
	servers := []struct{ name, target, port string }{{"sqlite", "sqlite", ""}, {"postgres", "postgres", ""},
		{"influxdb", "influxdb", ""}, {"victoriametrics", "victoriametrics", ""}, {"iotdb", "iotdb", ""}}
	for _, r := range currentReleases {
		if r.target == "postgres" || r.target == "influxdb" {
			servers = append(servers, struct{ name, target, port string }{r.service, r.target, r.port})
		}
	}
	for _, srv := range servers {
		target := srv.target
		t.Run(srv.name, func(t *testing.T) {
			args := []string{"run", "--target", target, "--data", data, "--queries", q, "--data-dir", t.TempDir(),
				"--quiet", "--set", "QUERY_CHECKS=8", "--batch-size", "2"}
			if srv.port != "" {
				targettest.RequireServer(t, srv.name, "127.0.0.1:"+srv.port)
				args = append(args, "--set", "PORT="+srv.port)
			} else {
				requireTargetServer(t, target)
			}
			out := filepath.Join(t.TempDir(), "out.json")
			r := tsbench(t, nil, append(args, "--json", out)...)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			s := readSummary(t, out)
			for _, name := range []string{"dev_max", "window_load"} {
				if op := s.Op(name); op == nil || op.OKOperations == 0 || op.FailOperations != 0 {
					t.Errorf("%s: %+v", name, op)
				}
			}
			for _, a := range ownQuery(t, s, "dev_max").Answers {
				h := knownHost(t, a.Params["dev"])
				if got := lastNumber(t, a.Sample); a.Error != "" || got != float64(h*1000+knownRows-1) {
					t.Errorf("dev_max of %s: %v (%s), want %d", a.Params["dev"], a.Sample, a.Error, h*1000+knownRows-1)
				}
			}
			for _, a := range ownQuery(t, s, "window_load").Answers {
				want := knownLoad(t, a.Params["w"], target == "victoriametrics")
				if got := lastNumber(t, a.Sample); a.Error != "" || got != want {
					t.Errorf("window_load of %s over %s: %v (%s), want %v", a.Params["dev"], a.Params["w"], a.Sample, a.Error, want)
				}
			}
		})
	}
}

func knownHost(t *testing.T, quoted string) int {
	t.Helper()
	name, err := strconv.Unquote(quoted)
	if err != nil {
		t.Fatalf("device parameter %q", quoted)
	}
	for h, host := range knownHosts {
		if host == name {
			return h
		}
	}
	t.Fatalf("device %q is not in the file", name)
	return 0
}

// knownLoad is the sum of load over a window "start..end": minutes k with
// start <= t < end, or start < t <= end (PromQL's range at end).
func knownLoad(t *testing.T, window string, leftOpen bool) float64 {
	t.Helper()
	a, b, _ := strings.Cut(window, "..")
	start, err1 := time.Parse(time.RFC3339Nano, a)
	end, err2 := time.Parse(time.RFC3339Nano, b)
	if err1 != nil || err2 != nil {
		t.Fatalf("window parameter %q", window)
	}
	var sum float64
	for k := range knownRows {
		at := knownStart.Add(time.Duration(k) * time.Minute)
		in := !at.Before(start) && at.Before(end)
		if leftOpen {
			in = at.After(start) && !at.After(end)
		}
		if in {
			sum += float64(k % 7)
		}
	}
	return sum
}

// lastNumber is the last value of an answer's only row: the aggregate,
// after the time column where the language returns one.
func lastNumber(t *testing.T, sample [][]any) float64 {
	t.Helper()
	if len(sample) != 1 || len(sample[0]) == 0 {
		t.Errorf("want one row, got %v", sample)
		return -1
	}
	f, ok := sample[0][len(sample[0])-1].(float64)
	if !ok {
		t.Errorf("last value of %v is not a number", sample[0])
		return -1
	}
	return f
}
