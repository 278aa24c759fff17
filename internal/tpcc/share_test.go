package tpcc

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// The workers of a split run, together, run every terminal exactly once,
// each terminal in the worker whose warehouses hold its home; their
// warehouse ranges cover the load without overlap. A split that leaves a
// worker no warehouse or no terminal is refused, naming the keys.
func TestShareSplitsByWarehouse(t *testing.T) {
	for _, c := range []struct {
		warehouses, terminals, workers int
		refused                        string // "" when the split is valid
	}{
		{1, 4, 1, ""},
		{2, 4, 2, ""},
		{3, 10, 2, ""},
		{10, 10, 3, ""},
		{5, 2, 2, "worker 1's warehouses 3..5 would have no terminal"},
		{7, 100, 4, ""},
		{1, 4, 2, "TPCC_WAREHOUSES = 1"},
		{10, 3, 2, "worker 1's warehouses 6..10 would have no terminal"},
	} {
		t.Run(fmt.Sprintf("%d warehouses, %d terminals, %d workers", c.warehouses, c.terminals, c.workers), func(t *testing.T) {
			base := Config{Warehouses: c.warehouses, Terminals: c.terminals, Duration: time.Second, Load: LoadAuto}
			err := func() error {
				for k := 0; k < c.workers; k++ {
					cfg := base
					cfg.Share = Share{Index: k, Of: c.workers}
					if err := cfg.Validate(); err != nil {
						return err
					}
				}
				return nil
			}()
			if c.refused != "" {
				if err == nil || !strings.Contains(err.Error(), c.refused) || !strings.Contains(err.Error(), "WORKERS = ") {
					t.Fatalf("error %v, want one naming WORKERS and %q", err, c.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			ran := make([]int, c.terminals)
			next := 1 // the first warehouse no worker has taken yet
			for k := 0; k < c.workers; k++ {
				cfg := base
				cfg.Share = Share{Index: k, Of: c.workers}
				first, last := cfg.WarehouseRange()
				if first != next || last < first {
					t.Fatalf("worker %d: warehouses %d..%d after %d", k, first, last, next-1)
				}
				next = last + 1
				for _, i := range cfg.TerminalIDs() {
					ran[i]++
					if home := i%c.warehouses + 1; home < first || home > last {
						t.Errorf("worker %d (warehouses %d..%d) runs terminal %d, whose home is %d", k, first, last, i, home)
					}
				}
			}
			if next != c.warehouses+1 {
				t.Errorf("the workers' warehouses end at %d of %d", next-1, c.warehouses)
			}
			for i, n := range ran {
				if n != 1 {
					t.Errorf("terminal %d ran %d times", i, n)
				}
			}
		})
	}
}
