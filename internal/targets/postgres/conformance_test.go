package postgres

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// Both layouts with both write paths pass the conformance suite against the
// real server started by scripts/services/postgres.sh.
func TestConformance(t *testing.T) {
	targettest.RequireServer(t, "postgres", "127.0.0.1:5433")
	for _, layout := range []string{"narrow", "wide"} {
		for _, path := range []string{"copy", "insert"} {
			t.Run(layout+"/"+path, func(t *testing.T) {
				targettest.Run(t, targettest.Suite{Driver: Driver, Options: targets.Options{Database: "test",
					Extra: map[string]string{"write_path": path, "layout": layout}}})
			})
		}
	}
}

// The timescaledb driver's SQL (hypertable, time_bucket) passes the suite
// against the TimescaleDB-enabled PGlite build started by
// scripts/services/timescaledb.sh — a check of correctness, not speed.
func TestConformanceTimescaleDB(t *testing.T) {
	targettest.RequireServer(t, "timescaledb", "127.0.0.1:5434")
	// Both layouts, with the insert path: the copy path brings the PGlite
	// server down (it exits within the first batches), so copy is checked
	// against PostgreSQL only.
	for _, layout := range []string{"narrow", "wide"} {
		t.Run(layout, func(t *testing.T) {
			targettest.Run(t, targettest.Suite{Driver: TimescaleDriver,
				Options: targets.Options{Extra: map[string]string{"layout": layout}}})
		})
	}
}
