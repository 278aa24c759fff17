package duckdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/target"
	"github.com/tsbench/tsbench/internal/target/targettest"
)

// The embedded target passes the conformance suite.
func TestConformance(t *testing.T) {
	targettest.Run(t, targettest.Suite{Driver: Driver, Options: target.Options{Database: "conformance", DataDir: t.TempDir()}})
}
