package duckdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// The embedded target passes the conformance suite.
func TestConformance(t *testing.T) {
	targettest.Run(t, targettest.Suite{Driver: Driver, Options: targets.Options{Database: "conformance", DataDir: t.TempDir()}})
}
