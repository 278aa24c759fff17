package run

// A scenario's analytics phase: its queries over the data earlier phases
// wrote, on the target's own SQL or on Apache Spark, printed beside the
// published times. A phase the configuration cannot run is bad input
// (badinput); other errors are failures.

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/tsbench/tsbench/internal/analytics"
	"github.com/tsbench/tsbench/internal/analytics/spark"
	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/connect"
	"github.com/tsbench/tsbench/internal/datadir"
	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/scenario"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/workload"
)

// AnalyticsResult is what an analytics phase did.
type AnalyticsResult struct {
	Phase      string              `json:"phase"`
	Repetition int                 `json:"repetition"`
	Rows       int64               `json:"rows"`   // events analysed
	Engine     string              `json:"engine"` // sql or spark
	Outcomes   []analytics.Outcome `json:"queries"`
}

// Failed reports whether any query failed or answered wrong.
func (a AnalyticsResult) Failed() bool {
	for _, o := range a.Outcomes {
		if o.Error != "" {
			return true
		}
	}
	return false
}

// sparkStartAllowance is added to the analytics deadline for Spark: its
// JVM and session take 15-20 s to start before the first query.
const sparkStartAllowance = 2 * time.Minute

// AnalyticsPhase runs a phase's analytics queries on the data earlier phases wrote
// and prints their times, under label, beside the published ones.
func AnalyticsPhase(cfg *config.Config, p scenario.Phase, label string, stdout io.Writer) (AnalyticsResult, error) {
	res := AnalyticsResult{Phase: p.Name}
	if cfg.OperationOrder == workload.OrderRandom {
		// The analytics read every device's rows [0, rows): one count for
		// all devices, which random draws do not give.
		return res, badinput.Errorf("OPERATION_ORDER = random: the analytics phase needs every device to hold the same rows; set OPERATION_ORDER = spread")
	}
	d, err := targets.Lookup(cfg.Target)
	if err != nil {
		return res, badinput.Wrap(err)
	}
	dataDir := datadir.Or(cfg.DataDir)
	timeout := cfg.ReadTimeout * time.Duration(max(1, p.AnalyticsRuns)*len(p.Analytics))
	if cfg.AnalyticsEngine == "spark" {
		timeout += sparkStartAllowance
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	conn, err := d.Open(ctx, connect.Options(cfg, d, dataDir))
	if err != nil {
		return res, fmt.Errorf("%s: connect: %w", d.Name, err)
	}
	defer conn.Close()
	schema := workload.Schema(cfg)
	if b, ok := conn.(targets.Binder); ok {
		if err := b.Bind(ctx, schema); err != nil {
			return res, fmt.Errorf("%s: prepare: %w", d.Name, err)
		}
	}
	g, err := gen.New(schema, workload.GenOptions(cfg))
	if err != nil {
		return res, badinput.Wrap(err)
	}
	rowsPerDevice := workload.NewPlan(cfg.Weights(), cfg.Loop).Counts()[workload.Write] * int64(cfg.BatchSize)
	res.Rows = rowsPerDevice * int64(len(schema.Devices))
	engine := "the target's own SQL"
	if cfg.AnalyticsEngine == "spark" {
		eng := spark.Engine{Master: cfg.SparkMaster}
		master := cfg.SparkMaster
		if master == "" {
			master = spark.DefaultMaster
		}
		engine = "Apache Spark (master " + master + ", over JDBC)"
		var err error
		res.Outcomes, err = eng.Run(ctx, d.Name, connect.Options(cfg, d, dataDir), g, rowsPerDevice, p.Analytics, max(1, p.AnalyticsRuns))
		if err != nil && len(res.Outcomes) == 0 {
			return res, err
		}
		if err != nil {
			fmt.Fprintf(stdout, "tsbench: spark: %v\n", err)
		}
	} else {
		res.Outcomes = analytics.Run(ctx, conn, g, rowsPerDevice, p.Analytics, max(1, p.AnalyticsRuns))
	}
	res.Engine = cfg.AnalyticsEngine
	fmt.Fprintf(stdout, "==================== %s ====================\n", label)
	fmt.Fprintf(stdout, "Analytics over %d events (%d devices x %d rows), target %s, run by %s\n", res.Rows, len(schema.Devices),
		rowsPerDevice, d.Name, engine)
	printAnalytics(stdout, res, p)
	return res, nil
}

// printAnalytics prints each query's times beside the published ones, and
// what went wrong.
func printAnalytics(stdout io.Writer, res AnalyticsResult, p scenario.Phase) {
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "QUERY\tKIND\tRUNS\tMEAN S\tMIN S\tMAX S\tEVENTS/S\tRESULT ROWS\tANSWER\tPUBLISHED S")
	for _, o := range res.Outcomes {
		st := scenario.Summarise(o.Seconds)
		rate := 0.0
		if st.Mean > 0 {
			rate = float64(res.Rows) / st.Mean
		}
		pub := p.AnalyticsPublished[o.Name]
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.4f\t%.4f\t%.4f\t%.0f\t%d\t%s\t%s\n", o.Name, o.Kind, o.Runs, st.Mean, st.Min, st.Max,
			rate, o.Rows, answer(o), publishedSeconds(pub))
	}
	tw.Flush()
	for _, o := range res.Outcomes {
		if o.Error != "" {
			fmt.Fprintf(stdout, "  %s: %s\n", o.Name, o.Error)
		}
		if pub := p.AnalyticsPublished[o.Name]; pub.Note != "" {
			fmt.Fprintf(stdout, "  %s published: %s\n", o.Name, pub.Note)
		}
	}
}

func answer(o analytics.Outcome) string {
	switch {
	case o.Unsupported:
		return "unsupported by target"
	case o.Error != "":
		return "WRONG or failed"
	case o.Checked:
		return "checked"
	}
	return "-"
}

func publishedSeconds(f scenario.Figure) string {
	if f.Seconds == 0 {
		return "-"
	}
	return fmt.Sprintf("%g", f.Seconds)
}
