package questdb

import (
	"context"
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// The target passes the conformance suite against the real QuestDB server
// started by scripts/services/questdb.sh.
func TestConformance(t *testing.T) {
	targettest.RequireServer(t, "questdb", "127.0.0.1:8812")
	targettest.Run(t, targettest.Suite{Driver: Driver, Options: targets.Options{Database: "tsbench_conformance"},
		Settle: func(ctx context.Context, conn targets.Target) error {
			q := conn.(*Target)
			q.mu.Lock()
			defer q.mu.Unlock()
			_, err := q.settled(ctx)
			return err
		}})
}
