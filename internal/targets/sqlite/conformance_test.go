package sqlite

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// TestConformance runs the suite every target passes, against a real SQLite
// file: generated data in order and out of order, Count, and Q1..Q10
// checked against the generator.
func TestConformance(t *testing.T) {
	targettest.Run(t, targettest.Suite{
		Driver:  Driver,
		Options: targets.Options{DataDir: t.TempDir(), Database: "conformance"},
	})
}
