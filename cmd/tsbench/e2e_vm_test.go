package main

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// vmReleases are the VictoriaMetrics servers the project's scripts start:
// the current release and Debian's 1.79.
var vmReleases = []struct{ service, port string }{
	{"victoriametrics", "8428"},
	{"victoriametrics-1.79", "8438"},
}

// TestVictoriaMetricsReleases runs tsbench against both releases:
//   - a mixed run of a few seconds in which every query kind returns points
//     (new series are searchable only after the server's flush, and an
//     early empty answer used to be cached for the whole run);
//   - a run whose START_TIME is an hour ago, so that most of its points lie
//     ahead of the wall clock, which verifies every point.
func TestVictoriaMetricsReleases(t *testing.T) {
	testenv.Alone(t)
	for _, vm := range vmReleases {
		t.Run(vm.service, func(t *testing.T) {
			targettest.RequireServer(t, vm.service, "127.0.0.1:"+vm.port)
			t.Run("queries-see-data", func(t *testing.T) {
				s := runVM(t, vm.port, "--devices", "4", "--sensors", "5", "--loop", "1000000", "--duration", "4s",
					"--set", "INSERT_DATATYPE_PROPORTION=1:1:1:1:1:0")
				for _, op := range s.Operations {
					if op.OKPoints == 0 || op.FailOperations != 0 {
						t.Errorf("%s: %d points in %d operations, %d failed", op.Name, op.OKPoints, op.OKOperations, op.FailOperations)
					}
				}
			})
			// The command as a new user types it: the default
			// types, TEXT left out for a store of numbers, with a note;
			// every point verified and every query kind's answers checked
			// with points.
			t.Run("default-types", func(t *testing.T) {
				s := runVM(t, vm.port, "--devices", "4", "--sensors", "5", "--loop", "60")
				if s.Verify.StoredPoints != 60000 || len(s.Verify.Queries) != 50 || s.Verify.Mismatch() {
					t.Fatalf("verify %+v", s.Verify)
				}
				kinds := map[string]int64{}
				for _, q := range s.Verify.Queries {
					kinds[q.Query] += q.Points
				}
				for kind, points := range kinds {
					if points == 0 {
						t.Errorf("%s: the checked answers hold no point", kind)
					}
				}
			})
			t.Run("future-points", func(t *testing.T) {
				hourAgo := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
				s := runVM(t, vm.port, "--set", "START_TIME="+hourAgo, "--devices", "2", "--sensors", "2", "--clients", "2",
					"--loop", "60")
				if want := s.Op("INGESTION").OKPoints; s.Verify.StoredPoints != want {
					t.Fatalf("stored %d of %d points", s.Verify.StoredPoints, want)
				}
				// Q5 and Q8 read up to the data's end, not the clock's.
				for _, q := range s.Verify.Queries {
					if (q.Query == "AGG_VALUE" || q.Query == "LATEST_POINT") && (!q.OK || q.Points == 0) {
						t.Fatalf("%s check %+v", q.Query, q)
					}
				}
			})
		})
	}
}

// runVM runs tsbench against the VictoriaMetrics on port and returns its
// verified summary.
func runVM(t *testing.T, port string, args ...string) *summary.Summary {
	t.Helper()
	s, _ := runVerified(t, append([]string{"--target", "victoriametrics", "--set", "PORT=" + port}, args...)...)
	return s
}

// verifiedLoops is the length of the mixed runs of the default shape that
// runVerified checks on every server: 200 write batches (200,000 points)
// and each query kind 4 times. The answers checked after the run
// (QUERY_CHECKS, 5 of each of the ten kinds) do not depend on it; 60
// loops wrote three times the points for the same checks, and the
// servers' work was most of a CPU-bound CI run's.
const verifiedLoops = "20"

// runVerified runs 'tsbench run ARGS --quiet' into a directory of its own,
// requires exit 0 and a verification that counted stored points, and
// returns the summary and the console output.
func runVerified(t *testing.T, args ...string) (*summary.Summary, string) {
	t.Helper()
	dir := t.TempDir()
	js := filepath.Join(dir, "s.json")
	r := tsbench(t, nil, append([]string{"run", "--quiet", "--data-dir", dir, "--json", js}, args...)...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, tail(r.stdout, 30), r.stderr)
	}
	s := readSummary(t, js)
	if s.Verify == nil || !s.Verify.OK || s.Verify.StoredPoints == 0 {
		t.Fatalf("verify %+v", s.Verify)
	}
	return s, r.stdout
}
