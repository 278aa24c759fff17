package workload

import (
	"fmt"
	"strings"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/threshold"
)

// CheckThresholdOperations refuses a threshold on an operation the mix
// never runs: it could only fail, and only after the whole run.
func CheckThresholdOperations(cfg *config.Config) error {
	for _, e := range cfg.Thresholds {
		th, err := threshold.Syntax(e)
		if err != nil || th.Operation == "" {
			continue
		}
		for i := 0; i < NumOps; i++ {
			if Op(i).String() == th.Operation && cfg.Proportion[i] == 0 {
				return fmt.Errorf("threshold %q: OPERATION_PROPORTION = %s gives %s weight 0, so the run has none to check",
					e, strings.Trim(strings.Join(strings.Fields(fmt.Sprint(cfg.Proportion)), ":"), "[]"), th.Operation)
			}
		}
	}
	return nil
}
