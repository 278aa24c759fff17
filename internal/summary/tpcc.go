package summary

// A TPC-C run's own figures.

// TPCC is a TPC-C run's own figures.
type TPCC struct {
	Warehouses int    `json:"warehouses"`
	Terminals  int    `json:"terminals"`
	ThinkTimes bool   `json:"think_times"`
	Tables     string `json:"tables"` // logged, or unlogged (PostgreSQL)
	Tablespace string `json:"tablespace,omitempty"`
	// Mode is TPCC_MODE: how the statements went (batched, interactive,
	// procedures); empty in runs stored before it was kept.
	Mode string `json:"mode,omitempty"`
	// TpmC is New-Order transactions completed per minute of the measured
	// phase (those rolled back by design included, as the specification
	// counts them); TpmTotal counts all five types.
	TpmC        float64 `json:"tpmc"`
	TpmTotal    float64 `json:"tpm_total"`
	ServerCores int     `json:"server_cores,omitempty"`
	TpmCPerCore float64 `json:"tpmc_per_core,omitempty"`
	// Rollbacks are New-Orders rolled back by design (1 % name an unused
	// item); failed transactions are in the matrices' failure columns.
	Rollbacks       int64       `json:"new_order_rollbacks"`
	DeliverySkipped int64       `json:"delivery_districts_skipped"`
	Reconnects      int64       `json:"reconnects,omitempty"`
	WarmupTx        int64       `json:"warmup_transactions,omitempty"`
	Load            TPCCLoad    `json:"load"`
	Consistency     []TPCCCheck `json:"consistency"`
	// ConsistencyBy names who checked the consistency conditions when not
	// this run: a worker process other than 0 leaves them to worker 0,
	// which checks them once every worker has ended ("worker 0").
	ConsistencyBy string `json:"consistency_checked_by,omitempty"`
	// NewOrders holds the New-Orders the terminals saw committed against
	// the orders the server holds after the run.
	NewOrders *TPCCNewOrders `json:"new_orders,omitempty"`
	// Sweep is a scenario's tpmC by number of connections, attached to
	// each of its runs for the report.
	Sweep []SweepPoint `json:"sweep,omitempty"`
}

// TPCCNewOrders checks that every New-Order the server acknowledged is
// still there after the run, district by district: a district's orders
// must have grown by its committed New-Orders, and by at most its in-doubt
// ones (whose commit's answer was lost) more.
type TPCCNewOrders struct {
	Committed int64 `json:"committed"` // acknowledged, warm-up included
	Found     int64 `json:"found"`
	InDoubt   int64 `json:"in_doubt"`
	// Lost are acknowledged New-Orders the server does not hold: its
	// loss. Unexplained are orders beyond every acknowledged and in-doubt
	// one.
	Lost        int64 `json:"lost"`
	Unexplained int64 `json:"unexplained,omitempty"`
	// Districts lists (the first of) those where the counts disagree.
	Districts []TPCCDistrictOrders `json:"districts,omitempty"`
}

// TPCCDistrictOrders is one district's New-Orders against its orders.
type TPCCDistrictOrders struct {
	Warehouse int   `json:"w_id"`
	District  int   `json:"d_id"`
	Committed int64 `json:"committed"`
	InDoubt   int64 `json:"in_doubt"`
	Grew      int64 `json:"orders_grew_by"`
}

// TPCCLoad is the initial population of a TPC-C run.
type TPCCLoad struct {
	Loaded  bool    `json:"loaded"` // false: an earlier complete load was reused
	Seconds float64 `json:"seconds,omitempty"`
	Rows    int64   `json:"rows,omitempty"`
}

// TPCCCheck is one consistency condition (TPC-C clause 3.3.2) checked
// after the run, and how many rows break it.
type TPCCCheck struct {
	Number     int    `json:"number"`
	Condition  string `json:"condition"`
	Violations int64  `json:"violations"`
	OK         bool   `json:"ok"`
	Error      string `json:"error,omitempty"`
}

// NewOrderRow is the operation row of TPC-C's New-Order transactions,
// whose count per minute is tpmC.
const NewOrderRow = "NEW_ORDER"

// SetRates sets tpmC, tpmTotal and tpmC per server core from s's measured
// transactions and its measured phase.
func (t *TPCC) SetRates(s *Summary) {
	minutes := s.Elapsed / 60
	if minutes <= 0 {
		return
	}
	var all int64
	for _, o := range s.Operations {
		all += o.OKOperations
	}
	if no := s.Op(NewOrderRow); no != nil {
		t.TpmC = float64(no.OKOperations) / minutes
	}
	t.TpmTotal = float64(all) / minutes
	if t.ServerCores > 0 {
		t.TpmCPerCore = t.TpmC / float64(t.ServerCores)
	}
}

// Consistent reports whether every consistency condition held.
func (t *TPCC) Consistent() bool {
	for _, c := range t.Consistency {
		if !c.OK {
			return false
		}
	}
	if n := t.NewOrders; n != nil && (n.Lost > 0 || n.Unexplained > 0) {
		return false
	}
	return len(t.Consistency) > 0 || t.ConsistencyBy != ""
}

// SweepPoint is one step of a connections sweep.
type SweepPoint struct {
	Label       string  `json:"label"` // the scenario phase
	Connections int     `json:"connections"`
	TpmC        float64 `json:"tpmc"`
	P90MS       float64 `json:"p90_ms"` // 90th percentile over all transaction types
}
