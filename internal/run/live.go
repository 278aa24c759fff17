package run

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/monitor"
	"github.com/tsbench/tsbench/internal/output"
	"github.com/tsbench/tsbench/internal/output/dashboard"
	"github.com/tsbench/tsbench/internal/output/spec"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
)

// LiveFlags are the flags that show a run while it runs (internal/output).
type LiveFlags struct {
	Outs      []string // --out KIND=WHERE, added to OUTPUTS
	Required  bool     // --out-required
	Dashboard string   // --dashboard[=ADDR]: the live page's address, "" for none
}

// dashboardLinger is the longest the run's end waits for an open live page
// to load the final report.
const dashboardLinger = 5 * time.Second

// liveRun is one run's exporter and dashboard (either may be nil), or nil
// when the run is not watched.
type liveRun struct {
	exp  *output.Exporter
	dash *dashboard.Server
}

// startLiveHooks starts the live outputs (--out, --dashboard) of a run
// with a per-second hook and a resource recorder (rec may be nil); nil
// when there are none.
func startLiveHooks(onInterval *func(int, summary.Interval), rec *monitor.Recorder, cfg *config.Config, runID, label string,
	d *targets.Driver, f LiveFlags, stderr io.Writer) (*liveRun, error) {
	l := &liveRun{}
	if f.Dashboard != "" {
		dash, err := dashboard.Start(f.Dashboard, runID, d.Name, label)
		if err != nil {
			return nil, exit.Usagef("--dashboard %s: %v", f.Dashboard, err)
		}
		l.dash = dash
		fmt.Fprintf(stderr, "tsbench: dashboard: %s\n", dash.URL())
	}
	var err error
	if l.exp, err = openExporter(cfg, runID, label, d, f, stderr); err != nil {
		if l.dash != nil {
			l.dash.Close()
		}
		return nil, err
	}
	if l.exp == nil && l.dash == nil {
		return nil, nil
	}
	*onInterval = chain(*onInterval, l.interval)
	if rec != nil {
		rec.OnSample = chain(rec.OnSample, l.resources)
	}
	return l, nil
}

// chain is a hook that calls prev (when set), then next.
func chain[T any](prev, next func(int, T)) func(int, T) {
	return func(seq int, v T) {
		if prev != nil {
			prev(seq, v)
		}
		next(seq, v)
	}
}

// interval and resources hand one closed second or one resource sample to
// the exporter and the dashboard, whichever the run has.
func (l *liveRun) interval(seq int, iv summary.Interval) {
	if l.exp != nil {
		l.exp.Interval(seq, iv)
	}
	if l.dash != nil {
		l.dash.Interval(seq, iv)
	}
}

func (l *liveRun) resources(seq int, smp summary.ResourceSample) {
	if l.exp != nil {
		l.exp.Resources(seq, smp)
	}
	if l.dash != nil {
		l.dash.Resources(seq, smp)
	}
}

// openExporter opens OUTPUTS' receivers; nil when there are none.
func openExporter(cfg *config.Config, runID, label string, d *targets.Driver, f LiveFlags, stderr io.Writer) (*output.Exporter, error) {
	if len(cfg.Outputs) == 0 {
		return nil, nil
	}
	var specs []spec.Spec
	for _, o := range cfg.Outputs {
		s, err := spec.Parse(o) // checked when read
		if err != nil {
			return nil, exit.Usagef("OUTPUTS: %v", err)
		}
		specs = append(specs, s)
	}
	labels := output.Labels{RunID: runID, Group: cfg.RunGroup, Worker: strconv.Itoa(cfg.WorkerIndex), Target: d.Name,
		Scenario: label, Phase: "measure"}
	exp, warnings, err := openReceivers(specs, labels, output.Options{Required: f.Required}, Version)
	for _, w := range warnings {
		fmt.Fprintln(stderr, "tsbench: warning:", w)
	}
	if err != nil {
		return nil, exit.With(exit.Failure, err)
	}
	return exp, nil
}

// finish exports what the run did not hand over live, closes the receivers
// and says on stderr what each received; s is nil for a run that failed.
// The error is --out-required's.
func (l *liveRun) finish(s *summary.Summary, stderr io.Writer) error {
	if l == nil {
		return nil
	}
	if l.dash != nil {
		if s == nil {
			l.dash.Close()
		} else if err := l.dash.Finish(s, dashboardLinger); err != nil {
			fmt.Fprintln(stderr, "tsbench: warning:", err)
		}
	}
	reports, err := l.exp.Finish(s)
	for _, r := range reports {
		fmt.Fprintln(stderr, "tsbench: "+r.String())
	}
	if err != nil {
		return exit.With(exit.Failure, err)
	}
	return nil
}
