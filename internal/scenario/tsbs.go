package scenario

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/tsbs"
)

// The tsbs-* scenarios run TSBS's use cases as TSBS does (docs/tsbs.md):
// the load, then each query type alone for TSBS_QUERIES queries, each
// phase with its own matrices; then a mixed phase, tsbench's own, that
// loads the data again with queries between the writes. TSBS's keys
// (TSBS_SCALE, TSBS_LOG_INTERVAL, TSBS_START, TSBS_END, TSBS_QUERIES) are
// turned into tsbench's by tsbs.Apply for every phase. There are no
// published figures: TSBS's own tools give the figures to compare with.
func init() {
	for _, name := range tsbs.Names() {
		u, _ := tsbs.Lookup(name)
		Register(tsbsScenario(u))
	}
}

// TSBSDefaults are TSBS's defaults for its generator's flags, but a scale
// of 10 hosts (TSBS: 1) so that the 8-host query types run, and 100
// queries per type (TSBS: 1000) so that a default run is short.
var TSBSDefaults = map[string]string{
	"TSBS_SCALE": "10", "TSBS_LOG_INTERVAL": "10s", "TSBS_START": "2016-01-01T00:00:00Z",
	"TSBS_END": "2016-01-02T00:00:00Z", "TSBS_QUERIES": "100",
}

func tsbsScenario(u *tsbs.UseCase) *Scenario {
	// WORKLOAD too, so that a phase's configuration says which workload it
	// is (--print-config, the saved run) as --workload named it.
	settings := map[string]string{"TSBS_USE_CASE": u.Name, "WORKLOAD": tsbs.WorkloadPrefix + u.Name}
	for k, v := range TSBSDefaults {
		settings[k] = v
	}
	// TSBS publishes no figures of its own: its tools, run on the same
	// server, give the figures to compare with.
	none := Figure{Unit: "points/s", Remark: "no figure: TSBS's tools on the same server give it (docs/tsbs.md)"}
	phases := []Phase{{Name: tsbs.PhaseLoad, Operation: "INGESTION", Settings: map[string]string{"TSBS_PHASE": tsbs.PhaseLoad},
		Published: none}}
	for _, q := range u.Queries {
		// A query type is measured in queries per second, as TSBS's runner
		// reports it: the points of its answers are no rate of it.
		p := Phase{Name: q.Name, Unsupported: q.Unsupported, Settings: map[string]string{"TSBS_PHASE": q.Name}, Published: none}
		p.Published.Unit = summary.UnitQueries
		if q.Kind != 0 {
			p.Operation = q.Kind.String()
			p.Published.Remark = "TSBS query type as tsbench's " + q.Kind.String() + "; " + none.Remark
		} else {
			p.Published.Remark = "unsupported: " + q.Unsupported
		}
		phases = append(phases, p)
	}
	phases = append(phases, Phase{Name: tsbs.PhaseMixed, Operation: "INGESTION", Published: Figure{Unit: "points/s",
		Remark: "tsbench's own: the load again with GROUP_BY, VALUE_RANGE and LATEST_POINT queries between the writes"},
		Settings: map[string]string{"TSBS_PHASE": tsbs.PhaseMixed, "IS_DELETE_DATA": "true", "CREATE_SCHEMA": "true"}})
	supported := 0
	for _, q := range u.Queries {
		if q.Kind != 0 {
			supported++
		}
	}
	return &Scenario{
		Name: "tsbs-" + u.Name,
		Description: fmt.Sprintf("TSBS's %s use case: load TSBS_SCALE %ss, then each of its %d query types alone "+
			"(%d run, %d unsupported), then a mixed load with queries", u.Name, u.What, len(u.Queries), supported,
			len(u.Queries)-supported),
		Source:   "TSBS (github.com/timescale/tsbs), use case " + u.Name + "; " + u.Mapping,
		Hardware: "none published: compare with TSBS's own tools on the same server (docs/tsbs.md)",
		Settings: settings,
		Phases:   phases,
		Extra:    func(w io.Writer, runs []PhaseRun) []summary.SweepPoint { printTSBS(w, u, runs); return nil },
	}
}

// printTSBS prints one line per TSBS query type: its queries, latency
// (mean, p50, p95, max), answers checked, or why it did not run.
func printTSBS(w io.Writer, u *tsbs.UseCase, runs []PhaseRun) {
	byName := map[string]*summary.Summary{}
	for _, r := range runs {
		byName[r.Phase.Name] = r.Summary // the last repetition's
	}
	fmt.Fprintf(w, "\nTSBS %s query types (latency in ms):\n", u.Name)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "query type\ttsbench kind\tqueries\tfailed\tmean\tp50\tp95\tmax\tanswers checked\t")
	var byTarget []string // the types the target declared unsupported
	for _, q := range u.Queries {
		if q.Kind == 0 {
			fmt.Fprintf(tw, "%s\tunsupported\t\t\t\t\t\t\t(below)\t\n", q.Name)
			continue
		}
		s := byName[q.Name]
		var op *summary.Operation
		if s != nil {
			op = s.Op(q.Kind.String())
		}
		if op == nil {
			fmt.Fprintf(tw, "%s\t%s\tnot run\t\t\t\t\t\t\t\n", q.Name, q.Kind)
			continue
		}
		if op.OKOperations == 0 && op.FailOperations == 0 && op.Unsupported > 0 {
			fmt.Fprintf(tw, "%s\t%s\tunsupported\t\t\t\t\t\t(below)\t\n", q.Name, q.Kind)
			byTarget = append(byTarget, q.Name)
			continue
		}
		l := op.LatencyMS
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%s\t\n", q.Name, q.Kind, op.OKOperations, op.FailOperations,
			l.Avg, l.P50, l.P95, l.Max, checked(s))
	}
	tw.Flush()
	for _, q := range u.Queries {
		if q.Kind == 0 {
			fmt.Fprintf(w, "  %s: unsupported: %s\n", q.Name, q.Unsupported)
		}
	}
	if len(byTarget) > 0 {
		fmt.Fprintf(w, "  unsupported by the target (docs/tsbs.md lists the query types per target): %s\n",
			strings.Join(byTarget, ", "))
	}
}

// checked says how many query answers a phase checked and how many agreed.
func checked(s *summary.Summary) string {
	if s.Verify == nil || len(s.Verify.Queries) == 0 {
		if s.Verify != nil && s.Verify.QueriesSkipped != "" {
			return "none: " + firstWords(s.Verify.QueriesSkipped, 6)
		}
		return "none"
	}
	ok, asked := 0, 0
	for _, q := range s.Verify.Queries {
		if !q.Answered() {
			continue
		}
		asked++
		if q.OK {
			ok++
		}
	}
	if asked == 0 {
		return "none: unsupported"
	}
	return fmt.Sprintf("%d of %d ok", ok, asked)
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		return strings.Join(f[:n], " ") + "..."
	}
	return s
}
