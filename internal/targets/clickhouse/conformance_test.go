package clickhouse

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// The target passes the conformance suite against the real ClickHouse 18.16
// server started by scripts/services/clickhouse.sh.
func TestConformance(t *testing.T) {
	targettest.RequireServer(t, "clickhouse", "127.0.0.1:8124")
	targettest.Run(t, targettest.Suite{Driver: Driver, Options: targets.Options{Database: "tsbench_conformance"}})
}
