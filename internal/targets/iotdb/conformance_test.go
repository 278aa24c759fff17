package iotdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// The target passes the conformance suite against the real IoTDB server
// started by scripts/services/iotdb.sh (inside scripts/netns-run, as IoTDB
// binds every interface).
func TestConformance(t *testing.T) {
	targettest.RequireServer(t, "iotdb", "127.0.0.1:6667")
	targettest.Run(t, targettest.Suite{Driver: Driver, Options: targets.Options{Database: "conformance"}})
}
