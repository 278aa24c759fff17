package hbase

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// The target passes the conformance suite against the HBase of
// scripts/services/hbase.sh, found through its ZooKeeper; every data type
// and query kind is supported.
func TestConformance(t *testing.T) {
	targettest.Server{Name: "hbase", Addr: "127.0.0.1:2181"}.Conforms(t, Driver, "tsbench_conformance", nil)
}
