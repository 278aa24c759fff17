package cli

import (
	"strings"

	"github.com/tsbench/tsbench/internal/config"
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
