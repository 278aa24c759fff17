package workload

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/config"
)

func TestCheckThresholdOperations(t *testing.T) {
	cfg := config.Default()
	if err := config.Set(cfg, "OPERATION_PROPORTION", "1:0:0:0:0:0:0:0:0:0:0"); err != nil {
		t.Fatal(err)
	}
	cfg.Thresholds = []string{"errors==0", "INGESTION.p99<5ms"}
	if err := CheckThresholdOperations(cfg); err != nil {
		t.Errorf("an operation the mix runs: %v", err)
	}
	cfg.Thresholds = append(cfg.Thresholds, "TIME_RANGE.p99<5ms")
	err := CheckThresholdOperations(cfg)
	if err == nil || !strings.Contains(err.Error(), `threshold "TIME_RANGE.p99<5ms": OPERATION_PROPORTION = 1:0:0:0:0:0:0:0:0:0:0 gives TIME_RANGE weight 0`) {
		t.Errorf("an operation it never runs: %v", err)
	}
}
