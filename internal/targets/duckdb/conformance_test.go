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

// Every iot question, each fleet and window, answers what fleet.Answer
// computes from the written points.
func TestFleetQuestions(t *testing.T) {
	targettest.FleetQuestions(t, Driver, targets.Options{DataDir: t.TempDir()})
}

// The same on data with every kind answered, times before 1970, empty
// cells and missing periods (targettest.FleetEdges).
func TestFleetEdges(t *testing.T) {
	targettest.FleetEdges(t, Driver, targets.Options{DataDir: t.TempDir()})
}
