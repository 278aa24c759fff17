package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/summary"
)

// writeTPCC prints a TPC-C run's own figures under its matrices: tpmC,
// tpmTotal, per core, the transaction latency matrix in the columns
// TPC-C results quote, and the consistency conditions.
func writeTPCC(b *strings.Builder, s *summary.Summary) {
	t := s.TPCC
	if t == nil {
		return
	}
	b.WriteString(banner("TPC-C", 120) + "\n")
	think := "off (transactions back to back)"
	if t.ThinkTimes {
		think = "on (keying and think times of clause 5.2.5)"
	}
	tables := t.Tables
	if t.Tablespace != "" {
		tables += " in tablespace " + t.Tablespace
	}
	fmt.Fprintf(b, "Warehouses %d, terminals %d, think times %s, tables %s\n", t.Warehouses, t.Terminals, think, tables)
	if t.Load.Loaded {
		fmt.Fprintf(b, "Loaded %s rows in %.1f s before the run\n", grouped(t.Load.Rows), t.Load.Seconds)
	} else {
		b.WriteString("Reused the complete load already in the database (TPCC_LOAD=auto)\n")
	}
	fmt.Fprintf(b, "tpmC (New-Orders per minute): %s   tpmTotal: %s", grouped(int64(t.TpmC+0.5)), grouped(int64(t.TpmTotal+0.5)))
	if t.ServerCores > 0 {
		fmt.Fprintf(b, "   tpmC per server core: %s (%d cores)", grouped(int64(t.TpmCPerCore+0.5)), t.ServerCores)
	}
	b.WriteString("\n")
	var failed int64
	for _, o := range s.Operations {
		failed += o.FailOperations
	}
	fmt.Fprintf(b, "New-Order rollbacks by design: %d; failed transactions: %d; Delivery districts without a new order: %d",
		t.Rollbacks, failed, t.DeliverySkipped)
	if t.Reconnects > 0 {
		fmt.Fprintf(b, "; connections re-opened: %d", t.Reconnects)
	}
	b.WriteString("\n")
	b.WriteString(row("Transaction (ms)", []string{"COUNT", "SHARE", "AVG", "P50", "P90", "P99", "MAX"}, 12) + "\n")
	var total int64
	for _, o := range s.Operations {
		total += o.OKOperations
	}
	for _, o := range s.Operations {
		share := 0.0
		if total > 0 {
			share = 100 * float64(o.OKOperations) / float64(total)
		}
		l := o.LatencyMS
		b.WriteString(row(o.Name, []string{grouped(o.OKOperations), fmt.Sprintf("%.1f%%", share), f2(l.Avg), f2(l.P50),
			f2(l.P90), f2(l.P99), f2(l.Max)}, 12) + "\n")
	}
	writeConsistency(b, t)
}

// writeConsistency says whether the consistency conditions hold and every
// acknowledged New-Order is in its district: a TPC-C run's verification.
func writeConsistency(b *strings.Builder, t *summary.TPCC) {
	state := "all hold"
	switch {
	case t.ConsistencyBy != "" && len(t.Consistency) == 0:
		state = "checked by " + t.ConsistencyBy + " once every worker had ended (tsbench merge shows them)"
	case !t.Consistent():
		state = "VIOLATED"
	}
	fmt.Fprintf(b, "Consistency conditions (clause 3.3.2), checked after the run: %s\n", state)
	for _, c := range t.Consistency {
		mark := "ok"
		switch {
		case c.Error != "":
			mark = "ERROR " + c.Error
		case !c.OK:
			mark = fmt.Sprintf("VIOLATED by %d rows", c.Violations)
		}
		fmt.Fprintf(b, "  %2d  %-70s %s\n", c.Number, c.Condition, mark)
	}
	writeNewOrders(b, t.NewOrders)
}

// writeNewOrders says whether every New-Order the server acknowledged is
// in its district after the run.
func writeNewOrders(b *strings.Builder, n *summary.TPCCNewOrders) {
	if n == nil {
		return
	}
	fmt.Fprintf(b, "New-Orders acknowledged (warm-up included): %s, found in their districts after the run: %s",
		grouped(n.Committed), grouped(n.Found))
	if n.InDoubt > 0 {
		fmt.Fprintf(b, "; %s in doubt (the commit's answer lost)", grouped(n.InDoubt))
	}
	switch {
	case n.Lost > 0:
		fmt.Fprintf(b, "; LOST: %s acknowledged New-Orders the server does not hold (the server's loss)", grouped(n.Lost))
	case n.Unexplained > 0:
		fmt.Fprintf(b, "; %s orders more than were acknowledged or in doubt", grouped(n.Unexplained))
	default:
		b.WriteString(": none lost")
	}
	b.WriteString("\n")
	for _, d := range n.Districts {
		fmt.Fprintf(b, "  warehouse %d district %d: %s acknowledged, %s in doubt, its orders grew by %s\n",
			d.Warehouse, d.District, grouped(d.Committed), grouped(d.InDoubt), grouped(d.Grew))
	}
}

// grouped writes n with thousands separators.
func grouped(n int64) string { return GroupThousands(strconv.FormatInt(n, 10)) }
