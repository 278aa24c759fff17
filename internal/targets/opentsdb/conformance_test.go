package opentsdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// The target passes the conformance suite against the real OpenTSDB started
// by scripts/services/opentsdb.sh on HBase; TEXT is declared unsupported and
// the suite checks that Setup refuses it.
func TestConformance(t *testing.T) {
	targettest.RequireServer(t, "opentsdb", "127.0.0.1:4242")
	targettest.Run(t, targettest.Suite{Driver: Driver, Options: targets.Options{Database: "tsbench_conformance"}})
}
