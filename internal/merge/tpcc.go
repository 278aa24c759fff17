package merge

import "github.com/tsbench/tsbench/internal/summary"

// tpccOf adds the workers' TPC-C sections up (runs sorted by worker
// index): terminals and counters are sums; the New-Order checks are sums
// too, each worker's warehouses being its own; the load and the
// consistency conditions are worker 0's, which loaded and which checked
// them once every worker had ended; tpmC is the merged New-Orders over the
// merged measured phase, never a sum of the workers' rates.
func tpccOf(runs []*summary.Summary, out *summary.Summary) *summary.TPCC {
	var t *summary.TPCC
	for _, s := range runs {
		w := s.TPCC
		if w == nil {
			continue
		}
		if t == nil {
			t = &summary.TPCC{Warehouses: w.Warehouses, ThinkTimes: w.ThinkTimes, Tables: w.Tables, Tablespace: w.Tablespace,
				Mode: w.Mode, ServerCores: w.ServerCores, Load: w.Load}
		}
		t.Terminals += w.Terminals
		t.Rollbacks += w.Rollbacks
		t.DeliverySkipped += w.DeliverySkipped
		t.Reconnects += w.Reconnects
		t.WarmupTx += w.WarmupTx
		if len(w.Consistency) > 0 && t.Consistency == nil {
			t.Consistency = w.Consistency
		}
		t.NewOrders = addNewOrders(t.NewOrders, w.NewOrders)
	}
	if t != nil {
		t.SetRates(out)
	}
	return t
}

// addNewOrders adds one worker's New-Order check to the sum so far.
func addNewOrders(sum, w *summary.TPCCNewOrders) *summary.TPCCNewOrders {
	if w == nil {
		return sum
	}
	if sum == nil {
		sum = &summary.TPCCNewOrders{}
	}
	sum.Committed += w.Committed
	sum.Found += w.Found
	sum.InDoubt += w.InDoubt
	sum.Lost += w.Lost
	sum.Unexplained += w.Unexplained
	sum.Districts = append(sum.Districts, w.Districts...)
	return sum
}
