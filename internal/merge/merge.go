// Package merge adds the runs of a scaled-out run's workers up into one run.
// Counts are sums; latency percentiles come from the workers' HDR
// histograms added bucket by bucket (never from averaging percentiles);
// MIN, MAX and AVG stay exact (extremes of the extremes, the operation-
// weighted mean); the per-second series are aligned by wall-clock second.
// A worker whose run is missing or never finished makes the merged run
// incomplete, naming its index: a merged run is never silently short.
package merge

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/sysinfo"
)

// Options say what the merge expects beyond the runs themselves.
type Options struct {
	// Workers is the group's size; 0 takes it from the runs.
	Workers int
	// Registered are indexes known to have started (the barrier's
	// registrations) whether or not a run of theirs is given, so that a
	// worker that died before it measured is named too.
	Registered []int
}

// ErrInput is wrapped by the errors that mean the runs cannot be merged
// (not workers' runs, different groups or targets, an index twice).
var ErrInput = errors.New("cannot merge")

// Runs merges the workers' runs. A run still marked running (its process
// was killed) is named as missing and left out of the counts: what it
// measured before it died is not the share it was given.
func Runs(runs []*summary.Summary, o Options) (*summary.Summary, error) {
	w, err := check(runs, o)
	if err != nil {
		return nil, err
	}
	var done []*summary.Summary
	m := &summary.Merge{Group: w.group, Workers: w.workers}
	for _, s := range runs {
		if s.Status() == summary.StatusRunning {
			m.Problems = append(m.Problems, fmt.Sprintf("worker %d (run %s on %s) did not finish: it is still running, or its process ended while it ran",
				s.Worker.Index, s.RunID, s.Environment.Hostname))
			continue
		}
		done = append(done, s)
	}
	sort.Slice(done, func(i, j int) bool { return done[i].Worker.Index < done[j].Worker.Index })
	m.Missing, m.Problems = missing(done, runs, w.workers, o.Registered, m.Problems)
	if len(done) == 0 {
		return nil, fmt.Errorf("%w: no worker of group %q finished (%s)", ErrInput, w.group, strings.Join(m.Problems, "; "))
	}
	out := mergeRuns(done)
	out.Merge = m
	m.Runs = provenance(done, out.MeasureStarted)
	return out, nil
}

type group struct {
	group   string
	workers int
}

// check refuses runs that are not one group's workers.
func check(runs []*summary.Summary, o Options) (group, error) {
	if len(runs) == 0 {
		return group{}, fmt.Errorf("%w: no runs", ErrInput)
	}
	g := group{workers: o.Workers}
	seen := map[int]string{}
	for _, s := range runs {
		w := s.Worker
		if w == nil {
			return g, fmt.Errorf("%w: run %s is not a worker's run (it was not started with --workers)", ErrInput, s.RunID)
		}
		first := runs[0]
		switch {
		case w.Group != first.Worker.Group:
			return g, fmt.Errorf("%w: run %s is of group %q, run %s of group %q", ErrInput, s.RunID, w.Group, first.RunID, first.Worker.Group)
		case s.Target != first.Target:
			return g, fmt.Errorf("%w: run %s ran %s, run %s ran %s", ErrInput, s.RunID, s.Target, first.RunID, first.Target)
		case w.Workers != first.Worker.Workers:
			return g, fmt.Errorf("%w: run %s was one of %d workers, run %s one of %d", ErrInput, s.RunID, w.Workers, first.RunID, first.Worker.Workers)
		case s.OpenModel != first.OpenModel:
			return g, fmt.Errorf("%w: runs %s and %s differ in model (--rate)", ErrInput, s.RunID, first.RunID)
		}
		if other, dup := seen[w.Index]; dup {
			return g, fmt.Errorf("%w: runs %s and %s are both worker %d of group %q", ErrInput, other, s.RunID, w.Index, w.Group)
		}
		seen[w.Index] = s.RunID
		if err := readable(s); err != nil {
			return g, err
		}
		g.group = w.Group
		if g.workers == 0 {
			g.workers = w.Workers
		}
	}
	return g, nil
}

// readable refuses a run whose histograms cannot be read: its percentiles
// could not be part of the merged ones.
func readable(s *summary.Summary) error {
	for _, o := range s.Operations {
		if o.OKOperations > 0 && o.Histogram == "" {
			return fmt.Errorf("%w: run %s: %s has %d operations but no histogram", ErrInput, s.RunID, o.Name, o.OKOperations)
		}
		for _, h := range []string{o.Histogram, o.ServiceHistogram} {
			if h == "" {
				continue
			}
			if _, err := metrics.Decode(h); err != nil {
				return fmt.Errorf("%w: run %s: %s: %v", ErrInput, s.RunID, o.Name, err)
			}
		}
	}
	return nil
}

// missing lists the indexes 0..n-1 with no finished run, with a reason for
// those not already explained (killed runs are).
func missing(done, all []*summary.Summary, n int, registered []int, problems []string) ([]int, []string) {
	have := map[int]bool{}
	given := map[int]bool{}
	for _, s := range done {
		have[s.Worker.Index] = true
	}
	for _, s := range all {
		given[s.Worker.Index] = true
	}
	var out []int
	for i := 0; i < n; i++ {
		if have[i] {
			continue
		}
		out = append(out, i)
		switch {
		case given[i]:
		case slices.Contains(registered, i):
			problems = append(problems, fmt.Sprintf("worker %d registered at the barrier but left no run (it failed before measuring)", i))
		default:
			problems = append(problems, fmt.Sprintf("worker %d: no run", i))
		}
	}
	return out, problems
}

// mergeRuns adds up finished runs, sorted by worker index.
func mergeRuns(runs []*summary.Summary) *summary.Summary {
	first := runs[0]
	origin, end := span(runs)
	elapsed := end.Sub(origin).Seconds()
	out := &summary.Summary{SchemaVersion: summary.SchemaVersion, Target: first.Target, Scenario: first.Scenario,
		Started: first.Started, MeasureStarted: origin.UTC(), Elapsed: elapsed, StopReason: first.StopReason,
		SchemaSeconds: first.SchemaSeconds, // worker 0 alone created it
		OpenModel:     first.OpenModel, RatePerSecond: first.RatePerSecond, Config: first.Config,
		Environment: first.Environment, DataPath: first.DataPath}
	var hosts []string
	var last *summary.Summary
	for _, s := range runs {
		out.Started = earliest(out.Started, s.Started)
		out.Interrupted = out.Interrupted || s.Interrupted
		out.Reconnects += s.Reconnects
		out.NotSent += s.NotSent
		if out.LatencyClock == "" {
			out.LatencyClock = s.LatencyClock // the workers ran one binary's clients
		}
		for reason, n := range s.Fallbacks {
			if out.Fallbacks == nil {
				out.Fallbacks = map[string]int64{}
			}
			out.Fallbacks[reason] += n
		}
		out.RemoteWrite = addRemoteWrite(out.RemoteWrite, s.RemoteWrite)
		out.Tool.CPUSeconds += s.Tool.CPUSeconds
		out.Tool.MeasuredCPUSeconds += s.Tool.MeasuredCPUSeconds
		out.Tool.PeakRSSBytes = max(out.Tool.PeakRSSBytes, s.Tool.PeakRSSBytes)
		if !slices.Contains(hosts, s.Environment.Hostname) {
			hosts = append(hosts, s.Environment.Hostname)
		}
		if last == nil || runEnd(s).After(runEnd(last)) {
			last = s
		}
	}
	if out.Interrupted {
		out.StopReason = "interrupted"
	}
	out.Environment.Hostname = strings.Join(hosts, ",")
	out.Tool.Version, out.Tool.EmbeddedEngine = first.Tool.Version, first.Tool.EmbeddedEngine
	out.Phases = phases(runs)
	out.Operations = operations(runs, elapsed)
	out.Intervals = intervals(runs, origin)
	out.Stalls = stallsOf(out.Intervals, first)
	out.Freshness = freshnessOf(runs)
	out.Verify = verifySum(runs)
	out.TPCC = tpccOf(runs, out)
	// The server's size as the last worker to finish saw it: after every
	// write of the run.
	out.StorageBytes = last.StorageBytes
	if slices.ContainsFunc(runs, func(s *summary.Summary) bool { return s.Tool.MeasuredCPUSeconds == 0 }) {
		out.Tool.MeasuredCPUSeconds = 0 // a worker without it: the whole processes' CPU, for all
	}
	out.Tool.CPUSecondsPerMillionPoints = sysinfo.CPUPerMillionPoints(out.Tool.OperationsCPU(), out.OKPoints())
	if first.BytesPerPoint > 0 && out.Verify != nil && out.Verify.ExpectedPoints > 0 {
		// Worker 0 emptied the database first: the size is this run's alone.
		out.BytesPerPoint = float64(out.StorageBytes) / float64(out.Verify.ExpectedPoints)
	}
	return out
}

// span is the merged measured phase: from the first worker's start to the
// last worker's end.
func span(runs []*summary.Summary) (origin, end time.Time) {
	for _, s := range runs {
		start := measureStart(s)
		if origin.IsZero() || start.Before(origin) {
			origin = start
		}
		if e := runEnd(s); e.After(end) {
			end = e
		}
	}
	return origin, end
}

// measureStart is when a run began measuring; Started stands in for a run
// of a tsbench that did not record it.
func measureStart(s *summary.Summary) time.Time {
	if !s.MeasureStarted.IsZero() {
		return s.MeasureStarted
	}
	return s.Started
}

func runEnd(s *summary.Summary) time.Time {
	return measureStart(s).Add(time.Duration(s.Elapsed * float64(time.Second)))
}

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// phases keeps worker 0's schema phase (the only one that created it) and
// adds the warm-ups up.
func phases(runs []*summary.Summary) []summary.Phase {
	var out []summary.Phase
	for _, s := range runs {
		for _, p := range s.Phases {
			i := slices.IndexFunc(out, func(q summary.Phase) bool { return q.Name == p.Name })
			if i < 0 {
				out = append(out, p)
				continue
			}
			out[i].Seconds = max(out[i].Seconds, p.Seconds)
			out[i].Operations += p.Operations
			out[i].Points += p.Points
		}
	}
	return out
}

// verifySum is the merged verification from the workers' own counts: each
// counted the devices of its own clients, so the counts add up. The
// command replaces it by one count over all devices when it can reach the
// server.
func verifySum(runs []*summary.Summary) *summary.Verify {
	var v *summary.Verify
	seriesCounted := true // every worker counted its series (the prometheus workload's)
	for _, s := range runs {
		if s.Verify == nil {
			continue
		}
		if v == nil {
			v = &summary.Verify{OK: true, Method: "sum of the workers' own counts"}
		}
		v.ExpectedPoints += s.Verify.ExpectedPoints
		v.StoredPoints += s.Verify.StoredPoints
		v.ExpectedSeries += s.Verify.ExpectedSeries
		v.StoredSeries += s.Verify.StoredSeries
		seriesCounted = seriesCounted && s.Verify.ExpectedSeries > 0
		v.DuplicatePoints += s.Verify.DuplicatePoints
		v.InDoubtPoints += s.Verify.InDoubtPoints
		v.OK = v.OK && s.Verify.OK
		if s.Verify.Error != "" && v.Error == "" {
			v.Error = fmt.Sprintf("worker %d: %s", s.Worker.Index, s.Verify.Error)
		}
		if s.Verify.Skipped != "" && v.Skipped == "" {
			v.Skipped = s.Verify.Skipped
		}
		// The answers each worker checked (the prometheus workload's
		// worker 0 asks the read load of all): none is lost by merging.
		v.Queries = append(v.Queries, s.Verify.Queries...)
	}
	if v != nil && !seriesCounted {
		v.ExpectedSeries, v.StoredSeries = 0, 0 // a part would read as the whole
	}
	return v
}

// provenance lists each merged worker's run.
func provenance(runs []*summary.Summary, origin time.Time) []summary.MergedRun {
	var out []summary.MergedRun
	for _, s := range runs {
		r := summary.MergedRun{Index: s.Worker.Index, RunID: s.RunID, Hostname: s.Environment.Hostname, Status: string(s.Status()),
			Elapsed: s.Elapsed, CPUSeconds: s.Tool.CPUSeconds,
			OffsetMS: float64(measureStart(s).Sub(origin)) / float64(time.Millisecond)}
		for _, o := range s.Operations {
			r.Points += o.OKPoints
			r.Operations += o.OKOperations
		}
		out = append(out, r)
	}
	return out
}

// operations merges the matrices' rows by name, in first-seen order.
func operations(runs []*summary.Summary, elapsed float64) []summary.Operation {
	var names []string
	for _, s := range runs {
		for _, o := range s.Operations {
			if !slices.Contains(names, o.Name) {
				names = append(names, o.Name)
			}
		}
	}
	var out []summary.Operation
	for _, name := range names {
		var rows []*summary.Operation
		for _, s := range runs {
			if o := s.Op(name); o != nil {
				rows = append(rows, o)
			}
		}
		out = append(out, operation(name, rows, elapsed))
	}
	return out
}

func operation(name string, rows []*summary.Operation, elapsed float64) summary.Operation {
	out := summary.Operation{Name: name}
	latency := latencyAcc{hist: metrics.NewHistogram()}
	service := latencyAcc{hist: metrics.NewHistogram()}
	wait := latencyAcc{hist: metrics.NewHistogram()}
	var failures metrics.FailureTally
	for _, o := range rows {
		out.OKOperations += o.OKOperations
		out.OKPoints += o.OKPoints
		out.FailOperations += o.FailOperations
		out.FailPoints += o.FailPoints
		out.Unsupported += o.Unsupported
		out.Retries += o.Retries
		out.SlowestThreadMS = max(out.SlowestThreadMS, o.SlowestThreadMS)
		latency.add(o.Histogram, o.LatencyMS, o.OKOperations)
		if o.ServiceMS != nil {
			service.add(o.ServiceHistogram, *o.ServiceMS, o.OKOperations)
		}
		if o.ClientWaitMS != nil {
			wait.add(o.ClientWaitHistogram, *o.ClientWaitMS, waitCount(o.ClientWaitHistogram))
		}
		for _, f := range o.Failures {
			failures.Add(f.Class, f.Cause, f.Example, f.Operations, f.Points)
		}
	}
	if elapsed > 0 {
		out.Throughput = float64(out.OKPoints) / elapsed
	}
	out.LatencyMS = latency.percentiles()
	out.Histogram = metrics.Encode(latency.hist)
	if service.n > 0 {
		l := service.percentiles()
		out.ServiceMS = &l
		out.ServiceHistogram = metrics.Encode(service.hist)
	}
	if wait.n > 0 {
		l := wait.percentiles()
		out.ClientWaitMS = &l
		out.ClientWaitHistogram = metrics.Encode(wait.hist)
	}
	out.Failures = failures.Failures()
	return out
}

// waitCount is the number of client waits an encoded histogram holds (the
// answers stamped at their arrival: not every ok operation's).
func waitCount(encoded string) int64 {
	h, err := metrics.Decode(encoded)
	if err != nil {
		return 0
	}
	return h.TotalCount()
}

// latencyAcc adds latency rows up: histograms bucket by bucket, the sum of
// latencies (mean times count) and the extremes.
type latencyAcc struct {
	hist         *hdrhistogram.Histogram
	n            int64
	sumMS        float64
	minMS, maxMS float64
	seenExtremes bool
}

func (a *latencyAcc) add(encoded string, l summary.Latency, n int64) {
	if n == 0 {
		return
	}
	if h, err := metrics.Decode(encoded); err == nil {
		a.hist.Merge(h) // same geometry: nothing is dropped
	}
	a.n += n
	a.sumMS += l.Avg * float64(n)
	if !a.seenExtremes {
		a.minMS, a.maxMS, a.seenExtremes = l.Min, l.Max, true
	}
	a.minMS, a.maxMS = math.Min(a.minMS, l.Min), math.Max(a.maxMS, l.Max)
}

func (a *latencyAcc) percentiles() summary.Latency {
	if a.n == 0 {
		return summary.Latency{}
	}
	return metrics.Percentiles(a.hist, a.n, int64(a.sumMS*1e6), int64(a.minMS*1e6), int64(a.maxMS*1e6))
}

// intervals aligns the workers' per-second series by wall-clock second:
// an interval goes to the second (from the merged start) in which it
// began; counts add up and histograms merge, and the percentiles of each
// merged second come from its merged histogram.
func intervals(runs []*summary.Summary, origin time.Time) []summary.Interval {
	type acc struct {
		seconds float64
		ops     []string
		byName  map[string]*summary.IntervalOp
		hists   map[string]*hdrhistogram.Histogram
	}
	var bins []*acc
	for _, s := range runs {
		base := measureStart(s)
		for _, iv := range s.Intervals {
			at := base.Add(time.Duration(iv.Start * float64(time.Second))).Sub(origin)
			i := max(0, int(at/time.Second))
			for len(bins) <= i {
				bins = append(bins, &acc{byName: map[string]*summary.IntervalOp{}, hists: map[string]*hdrhistogram.Histogram{}})
			}
			b := bins[i]
			b.seconds = max(b.seconds, iv.Seconds)
			for _, o := range iv.Ops {
				m := b.byName[o.Name]
				if m == nil {
					m = &summary.IntervalOp{Name: o.Name}
					b.byName[o.Name] = m
					b.ops = append(b.ops, o.Name)
				}
				m.OKOps += o.OKOps
				m.OKPoints += o.OKPoints
				m.FailOps += o.FailOps
				if o.Histogram == "" {
					continue
				}
				if h, err := metrics.Decode(o.Histogram); err == nil {
					if b.hists[o.Name] == nil {
						b.hists[o.Name] = metrics.NewHistogram()
					}
					b.hists[o.Name].Merge(h)
				}
			}
		}
	}
	out := make([]summary.Interval, 0, len(bins))
	for i, b := range bins {
		iv := summary.Interval{Start: float64(i), Seconds: b.seconds}
		for _, name := range b.ops {
			o := *b.byName[name]
			if h := b.hists[name]; h != nil && h.TotalCount() > 0 {
				o.P50MS = float64(h.ValueAtQuantile(50)) / 1000
				o.P99MS = float64(h.ValueAtQuantile(99)) / 1000
				o.MaxMS = float64(h.Max()) / 1000
				o.Histogram = metrics.Encode(h)
			}
			iv.Ops = append(iv.Ops, o)
		}
		out = append(out, iv)
	}
	return out
}

// stallsOf lists the merged run's stalls with the stall keys its first
// worker ran with (every worker reads the same configuration), or the
// defaults when its stored configuration cannot be read back.
func stallsOf(ivs []summary.Interval, first *summary.Summary) []summary.Stall {
	cfg, err := config.FromMap(first.Config, "run "+first.RunID)
	if err != nil {
		cfg = config.Default()
	}
	return metrics.Stalls(ivs, cfg.StallMin, cfg.StallFraction)
}

// freshnessOf is the freshness probe's account: the first worker's, the
// only one that probes.
func freshnessOf(runs []*summary.Summary) *summary.Freshness {
	for _, s := range runs {
		if s.Freshness != nil {
			return s.Freshness
		}
	}
	return nil
}

// addRemoteWrite adds a worker's remote write figures to the merged ones
// (the workers write one protocol).
func addRemoteWrite(to, rw *summary.RemoteWrite) *summary.RemoteWrite {
	if rw == nil {
		return to
	}
	if to == nil {
		to = &summary.RemoteWrite{Version: rw.Version}
	}
	to.Requests += rw.Requests
	to.Samples += rw.Samples
	to.Bytes += rw.Bytes
	to.ActiveSeries += rw.ActiveSeries // the workers write apart targets
	to.NewSeriesPerMinute += rw.NewSeriesPerMinute
	if to.Samples > 0 {
		to.BytesPerSample = float64(to.Bytes) / float64(to.Samples)
	}
	return to
}
