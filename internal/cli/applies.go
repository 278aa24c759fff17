package cli

import (
	"github.com/tsbench/tsbench/internal/config"
)

// notTaken are the settings a workload cannot take, and why. The engine
// gives every workload the run's rate, duration, warm-up, thresholds,
// find-max, repetitions, crash, live outputs and resources; what is left
// here is the workload's own: a setting changed from its default on a run
// of a workload it does not apply to is refused before anything runs
// (exit 2), never silently ignored. A TSBS query file's refusals are
// tsbsQueryRunKeys'.
var notTaken = []struct {
	tpcc bool // the setting a TPC-C run refuses; else one a time series run refuses
	keys []string
	why  string
}{
	{true, []string{"FRESHNESS"}, "the freshness probe times a written series until a reader sees it, beside a time series " +
		"workload; a TPC-C terminal reads what it committed in its own transactions"},
	{true, []string{"QUERY_FILE", "QUERY_ONLY"}, "your own queries run beside a time series workload; TPC-C runs its five transactions"},
	{true, []string{"TSBS_QUERY_FILE"}, "a TSBS query file is a workload of its own; run it apart"},
	{true, []string{"OP_MIN_INTERVAL", "OP_MIN_INTERVAL_RANDOM"}, "a TPC-C terminal is paced by TPCC_THINK_TIME (the specification's " +
		"keying and think times) or all of them by RATE"},
	{true, []string{"RETRIES"}, "a failed transaction is counted under the server's message, not sent again"},
	{false, []string{"TPCC_WAREHOUSES", "TPCC_THINK_TIME", "TPCC_LOAD", "TPCC_TABLES", "TPCC_TABLESPACE", "TPCC_MODE"},
		"it shapes a TPC-C run: add --workload tpcc"},
}

// workloadKeys refuses a setting the run's workload cannot take.
func workloadKeys(cfg *config.Config) error {
	tpcc := cfg.Workload == config.WorkloadTPCC
	for _, n := range notTaken {
		if n.tpcc != tpcc {
			continue
		}
		for _, key := range n.keys {
			if v, ok := cfg.Changed(key); ok {
				workload := "a time series run"
				if tpcc {
					workload = "WORKLOAD = tpcc"
				}
				return usageError("%s = %s: not with %s: %s", key, v, workload, n.why)
			}
		}
	}
	return nil
}
