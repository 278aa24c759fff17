package run

import (
	"fmt"
	"os"

	"github.com/tsbench/tsbench/internal/cluster"
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/runner"
)

// barrierFor is the start barrier of worker cfg.WorkerIndex: START_AT when
// given, else the results store the workers share.
func barrierFor(cfg *config.Config, store *results.Live, runID string) (runner.Barrier, error) {
	if !cfg.StartAt.IsZero() {
		return cluster.StartAt{T: cfg.StartAt}, nil
	}
	if store == nil {
		// These workloads also take START_AT, so the refusal may name it.
		return nil, exit.Usagef("%s or --start-at TIME", noStore(cfg))
	}
	return storeBarrier(cfg, store, runID)
}

// noStore is the refusal of WORKERS without a results store, where they
// meet.
func noStore(cfg *config.Config) string {
	return fmt.Sprintf("WORKERS = %d with --results off: the workers meet in the results store; "+
		"give a store every worker reaches (--results postgres://... or mysql://..., or an SQLite file on one machine)", cfg.Workers)
}

// storeBarrier is the barrier of worker cfg.WorkerIndex in the results
// store the workers share.
func storeBarrier(cfg *config.Config, store *results.Live, runID string) (*cluster.StoreBarrier, error) {
	if store == nil {
		return nil, exit.Usagef("%s", noStore(cfg))
	}
	st, loc := store.Results()
	if st == nil {
		return nil, exit.With(exit.Failure, fmt.Errorf("WORKERS = %d: the results store %s could not be opened, and the workers meet there", cfg.Workers, loc))
	}
	host, _ := os.Hostname()
	return &cluster.StoreBarrier{Store: st, Group: cfg.RunGroup, Index: cfg.WorkerIndex, Workers: cfg.Workers,
		RunID: runID, Hostname: host, Timeout: cfg.BarrierTimeout}, nil
}
