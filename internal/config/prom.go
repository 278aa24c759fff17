package config

import (
	"fmt"
	"math"
	"time"
)

// MaxPromSpan bounds PROM_SCRAPES x PROM_SCRAPE_INTERVAL: the samples end a
// minute before the run starts, and Prometheus' head (Mimir's and Thanos
// Receive's too) refuses a sample more than about an hour older than the
// newest it holds.
const MaxPromSpan = 49 * time.Minute

// checkProm checks the prometheus workload's keys against each other, with
// internal/promshape's rules (Config.Validate), so that a bad shape is
// refused naming its key before anything runs.
func checkProm(c *Config) error {
	if c.Workload != WorkloadPrometheus {
		return nil
	}
	iv := c.PromScrapeInterval
	switch {
	case iv <= 0 || iv%time.Millisecond != 0:
		return conflict(c, "PROM_SCRAPE_INTERVAL", iv, "a positive whole number of milliseconds, such as 10s or 500ms", "")
	case len(c.FindMax) == 0 && c.PromTime != "now" &&
		(time.Duration(c.PromScrapes)*iv > MaxPromSpan || time.Duration(c.PromScrapes) > MaxPromSpan):
		// (a find-max step writes as many scrapes as it takes, checked
		// then; a real-time run's samples are the newest as they come)
		return conflict(c, "PROM_SCRAPES", c.PromScrapes,
			fmt.Sprintf("an integer in [1, %d] (%v / PROM_SCRAPE_INTERVAL %v)", int64(MaxPromSpan/iv), MaxPromSpan, iv),
			"the stores refuse samples about an hour older than the newest they hold")
	case c.PromChurnShare > 0 && math.Round(c.PromChurnShare*float64(c.PromTargets)) < 1:
		return conflict(c, "PROM_CHURN_SHARE", c.PromChurnShare,
			fmt.Sprintf("0 or at least %v (half a target of PROM_TARGETS %d)", 0.5/float64(c.PromTargets), c.PromTargets),
			"a smaller share replaces no target")
	case c.PromSpikeEvery > 0 && math.Round(c.PromSpikeShare*float64(c.PromTargets)) <= math.Round(c.PromChurnShare*float64(c.PromTargets)):
		return conflict(c, "PROM_SPIKE_SHARE", c.PromSpikeShare,
			fmt.Sprintf("a share replacing more of PROM_TARGETS %d than PROM_CHURN_SHARE %v (at most 1)", c.PromTargets, c.PromChurnShare),
			"a spike replaces more targets than a churn boundary")
	case c.PromSpikeEvery == 0 && c.PromSpikeShare > 0:
		return conflict(c, "PROM_SPIKE_SHARE", c.PromSpikeShare, "0 unless PROM_SPIKE_EVERY is set", "it is the share of a spike")
	case c.Workers > 1 && !c.StartAt.IsZero():
		return conflict(c, "START_AT", c.StartAt.Format(time.RFC3339), "unset with WORKLOAD = prometheus and WORKERS (the results store's barrier)",
			"worker 0 asks the read load once every worker has written its targets, which the workers tell each other in the results store")
	case c.Clients > c.PromTargets:
		return conflict(c, "CLIENT_NUMBER", c.Clients, fmt.Sprintf("an integer in [1, %d] (PROM_TARGETS)", c.PromTargets),
			"each client writes the scrapes of its own targets")
	}
	return nil
}
