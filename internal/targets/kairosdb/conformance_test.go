package kairosdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// The target passes the conformance suite against the real KairosDB server
// (H2 datastore) started by scripts/services/kairosdb.sh. Writes are visible
// to queries once KairosDB answered 204, so no Settle is needed.
func TestConformance(t *testing.T) {
	targettest.RequireServer(t, "kairosdb", "127.0.0.1:8080")
	targettest.Run(t, targettest.Suite{Driver: Driver, Options: targets.Options{Database: "tsbench_conformance"}})
}
