package replay

import (
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/workload"
)

// One pass writes every row: at least ceil(rows / BATCH_SIZE) write
// steps, whatever share of LOOP the writes have.
func TestOnePass(t *testing.T) {
	for _, prop := range []string{"1:0:0:0:0:0:0:0:0:0:0", "1:1:1:1:1:1:1:1:1:1:1", "3:1:0:0:0:0:0:0:0:0:0"} {
		cfg := config.Default()
		if err := config.Set(cfg, "OPERATION_PROPORTION", prop); err != nil {
			t.Fatal(err)
		}
		cfg.BatchSize = 10
		loop := onePass(cfg, 95)
		if got := workload.NewPlan(cfg.Proportion[:], loop).Counts()[workload.Write]; got < 10 {
			t.Errorf("%s: LOOP %d gives %d write steps, want 10", prop, loop, got)
		}
	}
	cfg := config.Default()
	if Repeats(cfg) {
		t.Error("a default LOOP repeats the rows")
	}
}
