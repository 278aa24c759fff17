package hbase

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// The target passes the conformance suite against the real HBase server
// started by scripts/services/hbase.sh (ZooKeeper on 127.0.0.1:2181); every
// data type and query kind is supported.
func TestConformance(t *testing.T) {
	targettest.RequireServer(t, "hbase", "127.0.0.1:2181")
	targettest.Run(t, targettest.Suite{Driver: Driver, Options: targets.Options{Database: "tsbench_conformance"}})
}
