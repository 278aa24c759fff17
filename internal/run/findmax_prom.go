package run

import (
	"fmt"
	"math"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/findmax"
	"github.com/tsbench/tsbench/internal/threshold"
)

// A find-max search of the prometheus workload holds a remote-write rate:
// each step's clients write through its warm-up and measured time, and
// its read load, which follows the writes, is not reached. So its
// objectives name INGESTION (or errors), and each step writes as many
// scrapes as its rate and time take, not PROM_SCRAPES.

// promFindMaxKeys refuses what a prometheus search cannot take.
func promFindMaxKeys(cfg *config.Config) error {
	if v, ok := cfg.Changed("PROM_SCRAPES"); ok {
		return exit.Usagef("PROM_SCRAPES = %s: not with FIND_MAX on WORKLOAD = prometheus: each step writes as many scrapes "+
			"as its rate and time take", v)
	}
	for _, e := range cfg.FindMax {
		th, err := threshold.Syntax(e)
		if err != nil {
			return exit.Usagef("FIND_MAX: %v", err)
		}
		if th.Operation != "" && th.Operation != "INGESTION" {
			return exit.Usagef("FIND_MAX = %s: not with WORKLOAD = prometheus: a step holds a remote-write rate and ends "+
				"before the read load, which follows the writes; allowed: INGESTION objectives, errors", e)
		}
	}
	return nil
}

// promStepScrapes sizes a step at rate (ops/s, a request per scrape and
// client) held c.Warmup and measured for measure: the scrapes each client
// writes, a tenth to spare. A step whose samples would span more than the
// stores take is refused, saying what lets the search go on.
func promStepScrapes(c *config.Config, rate float64, measure time.Duration) error {
	perClient := rate / float64(c.Clients) * (c.Warmup + measure).Seconds()
	need := int(math.Ceil(perClient*1.1)) + 1
	if span := time.Duration(need) * c.PromScrapeInterval; span > config.MaxPromSpan {
		return exit.Usagef("FIND_MAX on WORKLOAD = prometheus: the step at %s ops/s writes %d scrapes per client, %v of samples "+
			"at PROM_SCRAPE_INTERVAL %v, beyond the %v the stores take: lower PROM_SCRAPE_INTERVAL, or raise PROM_TARGETS "+
			"(more samples per request) or CLIENT_NUMBER", findmax.Offered(rate), need, span.Round(time.Second),
			c.PromScrapeInterval, config.MaxPromSpan)
	}
	c.PromScrapes = need
	return nil
}

// promStepNote is the search's first line's addition on a prometheus run.
func promStepNote(cfg *config.Config) string {
	if cfg.Workload != config.WorkloadPrometheus {
		return ""
	}
	return fmt.Sprintf("; remote write of %d targets' scrapes by %d clients, each step as many scrapes as it takes", cfg.PromTargets, cfg.Clients)
}
