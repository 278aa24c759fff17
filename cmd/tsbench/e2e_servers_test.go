package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/testenv/fault"
)

// das-events and epics-archiver against the real PostgreSQL, MariaDB and
// HBase servers (scripts/services/): phases move the expected points, the
// analytics answers computed by the database equal the generator's (HBase
// has no analytics support and says so), and a target the study measured
// (MariaDB for the MySQL event store, HBase for the 10-node HBase and as
// Hypertable's stand-in) is compared with its own published figure.
func TestScenariosOnServers(t *testing.T) {
	for _, srv := range []serverCase{
		{"postgres", "PostgreSQL 15", true, nil},
		{"mysql", "10.11", true, map[string]float64{"das-events": 5741}},
		{"hbase", "HBase 2.6", false, map[string]float64{"das-events": 96_230.01591, "epics-archiver": 24_000}},
	} {
		t.Run(srv.target, func(t *testing.T) {
			requireTargetServer(t, srv.target)
			scenariosOn(t, srv)
		})
	}
}

type serverCase struct {
	target, version string
	analytics       bool               // the target answers the analytics queries
	own             map[string]float64 // scenario -> the target's own published rate
}

func scenariosOn(t *testing.T, srv serverCase) {
	cases := []struct {
		name   string
		scale  string
		points map[string]int64
	}{
		{"das-events", "0.002", map[string]int64{"ingest": 20 * 1000 * 2}},
		{"epics-archiver", "0.05", map[string]int64{"insert": 133_360 * 3, "extract": 133_360 * 3}},
	}
	target := srv.target
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			r := tsbench(t, nil, "run", "--scenario", c.name, "--scale", c.scale, "--target", target, "--quiet", "--data-dir", dir)
			if r.code != 0 {
				t.Fatal(failedRun(r))
			}
			if !strings.Contains(r.stdout, "Published vs measured: "+c.name) {
				t.Fatal("no published-vs-measured table")
			}
			res := readScenario(t, dir)
			if own, ok := srv.own[c.name]; ok && (len(res.Rows) == 0 || !res.Rows[0].OwnFigure || res.Rows[0].Published.Rate != own) {
				t.Errorf("%s compared with %+v, want its own published %v", target, res.Rows, own)
			}
			for _, a := range res.Analytics {
				if len(a.Queries) != 5 {
					t.Fatalf("analytics ran %d queries, want 5", len(a.Queries))
				}
				for _, o := range a.Queries {
					if srv.analytics && (!o.Checked || o.Error != "") || !srv.analytics && (!o.Unsupported || o.Error != "") {
						t.Errorf("analytics %s on %s: %+v", o.Name, target, o)
					}
				}
			}
			for _, p := range res.Phases {
				s := readSummary(t, filepath.Join(p.ResultsDir, "summary.json"))
				op := s.Op("INGESTION")
				if p.Phase == "extract" {
					op = s.Op("TIME_RANGE")
				}
				if want := c.points[p.Phase]; op == nil || op.OKPoints != want || op.FailOperations != 0 {
					t.Errorf("phase %s: %+v, want %d points", p.Phase, op, want)
				}
				if !strings.Contains(s.Environment.ServerVersion, srv.version) {
					t.Errorf("server version %q", s.Environment.ServerVersion)
				}
				serverWatched(t, s, serviceOf(t, srv.target))
				if len(s.Published) == 0 || s.Published[0].Published <= 0 || s.Published[0].Measured <= 0 {
					t.Errorf("phase %s: published-vs-measured figures %+v", p.Phase, s.Published)
				}
			}
		})
	}
}

// 'tsbench run --target NAME' works against every server the project's
// scripts start: a mixed workload, verified.
func TestRunOnEveryServer(t *testing.T) {
	// The targets that store numbers only get no TEXT sensor.
	noText := []string{"--set", "INSERT_DATATYPE_PROPORTION=1:1:1:1:1:0"}
	extra := map[string][]string{"victoriametrics": noText, "opentsdb": noText}
	for _, target := range []string{"influxdb", "victoriametrics", "questdb", "iotdb", "postgres", "mysql",
		"clickhouse", "timescaledb", "cassandra", "hbase", "opentsdb", "kairosdb"} {
		t.Run(target, func(t *testing.T) {
			t.Parallel() // each its own server, side by side (go test -parallel)
			requireTargetServer(t, target)
			s, stdout := runVerified(t, append([]string{"--target", target, "--loop", verifiedLoops}, extra[target]...)...)
			if len(s.Operations) != 11 || s.Environment.ServerVersion == "" || s.Failed() {
				t.Fatalf("%d operation rows, server version %q", len(s.Operations), s.Environment.ServerVersion)
			}
			// The generated run's answers were checked against the
			// generator: QUERY_CHECKS (5) of each of the ten kinds.
			if n := len(s.Verify.Queries); n != 50 || s.Verify.Mismatch() || !strings.Contains(stdout, "Query answers: 50 of 50 agree") {
				t.Fatalf("%d query checks, mismatch %v:\n%s", n, s.Verify.Mismatch(), tail(stdout, 12))
			}
		})
	}
}

// serverWatched checks that the run found the database server by the port
// it listens on, that this is the process its service script started, and
// that it was sampled.
func serverWatched(t *testing.T, s *summary.Summary, service string) {
	t.Helper()
	res := s.Resources
	if res == nil || res.Server == nil || !strings.HasPrefix(res.Server.Source, "listening on port ") {
		t.Fatalf("server process not found by the target's port: %+v", res)
	}
	// The process on the port is the service's: the one its script
	// started, or a descendant (a server started through runuser).
	procs, err := fault.Find(t, service).Processes()
	if err != nil || !slices.Contains(procs, int(res.Server.PID)) {
		t.Fatalf("the process listening (%d, %s) is not one of %s's %v (%v)", res.Server.PID, res.Server.Name, service, procs, err)
	}
	for _, smp := range res.Samples {
		if smp.Server == nil || smp.Server.PID != res.Server.PID || smp.Server.RSSBytes == 0 {
			t.Fatalf("sample without the server's figures: %+v", smp)
		}
	}
}
