package cli

import (
	"strings"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/target"
	"github.com/tsbench/tsbench/internal/tsbs"
)

// tsbsWorkload makes --workload tsbs-cpu-only (tsbs-devops, tsbs-iot) run
// the scenario of that name: TSBS's use cases are multi-phase runs.
func tsbsWorkload(f *runFlags, flags []*keyFlag) {
	for _, k := range flags {
		if k.name == "workload" && strings.HasPrefix(strings.ToLower(k.value), "tsbs-") && f.scenario == "" {
			f.scenario = strings.ToLower(k.value)
			k.value = config.WorkloadTimeSeries
		}
	}
}

// tsbsSparse refuses a TSBS use case with missing values (iot) on a target
// that cannot leave a cell empty: it would store values never generated.
func tsbsSparse(cfg *config.Config, d *target.Driver) error {
	if tsbs.Missing(cfg) > 0 && !d.Caps.Sparse {
		return usageError("TSBS_USE_CASE = %q: its data has missing values, which target %s cannot write (no sparse batches); "+
			"allowed: a target that takes them (see 'tsbench targets'), or tsbs-cpu-only, tsbs-devops", cfg.TSBSUseCase, d.Name)
	}
	return nil
}
