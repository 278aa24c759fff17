package cassandra

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// The target passes the conformance suite against the real Cassandra server
// started by scripts/services/cassandra.sh; Q5, Q7 and Q8 are declared
// unsupported and the suite checks that they say so.
func TestConformance(t *testing.T) {
	targettest.RequireServer(t, "cassandra", "127.0.0.1:9042")
	targettest.Run(t, targettest.Suite{Driver: Driver, Options: targets.Options{Database: "tsbench_conformance"}})
}
