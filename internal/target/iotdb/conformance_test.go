package iotdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/target"
	"github.com/tsbench/tsbench/internal/target/targettest"
)

// The target passes the conformance suite against the real IoTDB server
// started by scripts/services/iotdb.sh (inside scripts/netns-run, as IoTDB
// binds every interface).
func TestConformance(t *testing.T) {
	targettest.RequireServer(t, "iotdb", "127.0.0.1:6667")
	targettest.Run(t, targettest.Suite{Driver: Driver, Options: target.Options{Database: "conformance"}})
}

// Count over many series runs as several statements (one count over
// 30,000 series exhausts the DataNode's query memory); with a bound of one
// series per statement every device is counted on its own, and the sums
// must still be exact.
func TestConformanceCountInChunks(t *testing.T) {
	targettest.RequireServer(t, "iotdb", "127.0.0.1:6667")
	saved := countSeriesPerQuery
	countSeriesPerQuery = 1
	defer func() { countSeriesPerQuery = saved }()
	targettest.Run(t, targettest.Suite{Driver: Driver, Options: target.Options{Database: "conformance_chunks"}})
}
