package runner

import (
	"context"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/freshness"
)

// prepareFreshness opens the run's freshness probe (FRESHNESS); nil when
// the run has none. Only the first worker of a scaled-out run probes: one
// probe is enough, and more would write one series together.
func (r *Runner) prepareFreshness(ctx context.Context) (*freshness.Session, error) {
	cfg := r.cfg
	if !cfg.Freshness || r.Barrier != nil && cfg.WorkerIndex != 0 {
		return nil, nil
	}
	return freshness.Open(ctx, r.driver.Name, r.open, r.hostList().opts[0], FreshnessSettings(cfg))
}

// FreshnessSettings are the probe's settings of the run's configuration.
func FreshnessSettings(cfg *config.Config) freshness.Settings {
	return freshness.Settings{Rate: cfg.FreshnessRate, Poll: cfg.FreshnessPoll, Wait: cfg.FreshnessWait,
		Timeout:     max(cfg.WriteTimeout, cfg.ReadTimeout, 10*time.Second),
		GroupPrefix: cfg.GroupPrefix, DevicePrefix: cfg.DevicePrefix, SensorPrefix: cfg.SensorPrefix}
}
