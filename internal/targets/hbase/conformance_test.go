package hbase

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// server is the HBase of scripts/services/hbase.sh, found through its
// ZooKeeper.
var server = targettest.Server{Name: "hbase", Addr: "127.0.0.1:2181"}

// The target passes the conformance suite against that HBase; every data
// type and query kind is supported.
func TestConformance(t *testing.T) { server.Conforms(t, Driver, "tsbench_conformance", nil) }
