package postgres

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily/sqltest"
	"github.com/tsbench/tsbench/internal/ts"
)

var writePaths = []string{"copy", "insert"}

// Both layouts with both write paths pass the conformance suite against the
// real server started by scripts/services/postgres.sh.
func TestConformance(t *testing.T) {
	sqltest.Conformance(t, server, Driver, targets.Options{Database: "test"},
		map[string][]string{"layout": {"narrow", "wide"}, "write_path": writePaths})
}

// The timescaledb driver's SQL (hypertable, time_bucket) passes the suite
// against the TimescaleDB-enabled PGlite build started by
// scripts/services/timescaledb.sh — a check of correctness, not speed. Both
// layouts, with the insert path: the copy path brings the PGlite server down
// (it exits within the first batches), so copy is checked against
// PostgreSQL only.
func TestConformanceTimescaleDB(t *testing.T) {
	sqltest.Conformance(t, sqltest.Server{Name: "timescaledb", Addr: "127.0.0.1:5434"}, TimescaleDriver,
		targets.Options{}, map[string][]string{"layout": {"narrow", "wide"}})
}

// The analytics queries answer what the generator computes.
func TestAnalytics(t *testing.T) {
	sqltest.Analytics(t, server, "postgres", targets.Options{Database: "tsbench_analytics"})
}

// BenchmarkWritePath compares the write paths on the same data in one run:
// go test -run '^$' -bench WritePath -count 3 ./internal/targets/postgres/
func BenchmarkWritePath(b *testing.B) {
	sqltest.BenchmarkWrite(b, server, Driver, targets.Options{Database: "test"}, map[string][]string{"write_path": writePaths})
}

// BenchmarkWideWritePath is BenchmarkWritePath on layout=wide:
// go test -run '^$' -bench WideWritePath -count 3 ./internal/targets/postgres/
func BenchmarkWideWritePath(b *testing.B) {
	sqltest.BenchmarkWrite(b, server, Driver, targets.Options{Database: "test"},
		map[string][]string{"layout": {"wide"}, "write_path": writePaths})
}

// BenchmarkRowSource is the per-point cost of walking a dense batch for
// COPY and INSERT, without a server: the sparse check must not show here.
func BenchmarkRowSource(b *testing.B) {
	batch := &ts.Batch{Times: make([]int64, 1000)}
	for c := 0; c < 10; c++ {
		batch.Columns = append(batch.Columns, ts.Column{Type: ts.Double, Doubles: make([]float64, 1000)})
	}
	var r rowSource
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r.reset(batch, 1)
		for r.Next() {
			if _, err := r.Values(); err != nil {
				b.Fatal(err)
			}
		}
	}
}
