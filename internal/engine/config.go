package engine

import "github.com/tsbench/tsbench/internal/config"

// ConfigFrom is how cfg drives a run's workers, whatever the workload: its
// clients (CLIENT_NUMBER, this process's share of them with WORKERS), the
// rate, the warm-up, the duration, OP_MIN_INTERVAL, RETRIES and the stall
// settings. A workload sets what is its own: the operations' names, the
// plan's end, and where it differs.
func ConfigFrom(cfg *config.Config) Config {
	first, _ := cfg.ClientRange()
	return Config{Rate: cfg.Rate, Workers: cfg.Clients, FirstWorker: first, Warmup: cfg.Warmup, Duration: cfg.MaxTime,
		MinStep: cfg.OpMinInterval, RandomStep: cfg.OpMinIntervalRand, Seed: uint64(cfg.DataSeed),
		Retries: cfg.Retries, Backoff: cfg.RetryBackoff, MaxBackoff: cfg.RetryMaxBackoff,
		StallMin: cfg.StallMin, StallFraction: cfg.StallFraction}
}
