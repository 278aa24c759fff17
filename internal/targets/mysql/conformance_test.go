package mysql

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily/sqltest"
)

var writePaths = map[string][]string{"write_path": {"insert", "load"}}

// Both write paths pass the conformance suite against the real MariaDB
// server started by scripts/services/mariadb.sh.
func TestConformance(t *testing.T) {
	sqltest.Conformance(t, server, Driver, targets.Options{Database: "test"}, writePaths)
}

// The analytics queries answer what the generator computes.
func TestAnalytics(t *testing.T) {
	sqltest.Analytics(t, server, "mysql", targets.Options{Database: "tsbench_analytics"})
}

// BenchmarkWritePath compares the write paths on the same data in one run:
// go test -run '^$' -bench WritePath -count 3 ./internal/targets/mysql/
func BenchmarkWritePath(b *testing.B) {
	sqltest.BenchmarkWrite(b, server, Driver, targets.Options{Database: "test"}, writePaths)
}
