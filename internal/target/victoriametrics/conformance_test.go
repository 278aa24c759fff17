package victoriametrics

import (
	"context"
	"testing"

	"github.com/tsbench/tsbench/internal/target"
	"github.com/tsbench/tsbench/internal/target/targettest"
)

// The target passes the conformance suite against the real VictoriaMetrics
// server started by scripts/services/victoriametrics.sh; TEXT is declared
// unsupported and the suite checks that Setup refuses it.
func TestConformance(t *testing.T) {
	targettest.RequireServer(t, "victoriametrics", "127.0.0.1:8428")
	targettest.Run(t, targettest.Suite{Driver: Driver, Options: target.Options{Database: "tsbench_conformance"},
		Settle: func(ctx context.Context, conn target.Target) error { return conn.(*Target).flush(ctx) }})
}
