package duckdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// Every iot question, each fleet and window, answers what fleet.Answer
// computes from the written points.
func TestFleetQuestions(t *testing.T) {
	targettest.FleetQuestions(t, Driver, targets.Options{DataDir: t.TempDir()})
}
