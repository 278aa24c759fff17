package run

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/arrival"
	"github.com/tsbench/tsbench/internal/cluster"
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/connect"
	"github.com/tsbench/tsbench/internal/crash"
	"github.com/tsbench/tsbench/internal/datadir"
	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/freshness"
	"github.com/tsbench/tsbench/internal/promrun"
	"github.com/tsbench/tsbench/internal/promshape"
	"github.com/tsbench/tsbench/internal/remotewrite"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/runner"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"slices"
)

// promStores are the registered targets the workload runs on.
func promStores() []string {
	var names []string
	for _, n := range targets.Names() {
		if d, err := targets.Lookup(n); err == nil && d.Caps.PromStore {
			names = append(names, n)
		}
	}
	return names
}

// promConfig maps the run configuration onto the workload's.
// PROM_PROFILE's value was checked when it was read; an empty one (a
// configuration made in code) is the node profile, the default.
func promConfig(cfg *config.Config) promrun.Config {
	profile, err := promshape.ParseProfile(cfg.PromProfile)
	if err != nil {
		profile = promshape.Node
	}
	hists, err := promshape.ParseHistograms(cfg.PromHistograms)
	if err != nil {
		hists = promshape.Classic
	}
	churn, err := promshape.ParseChurn(cfg.PromChurn)
	if err != nil {
		churn = promshape.ChurnInstance
	}
	return promrun.Config{
		Shape: promshape.Config{Targets: cfg.PromTargets, Interval: cfg.PromScrapeInterval, ChurnShare: cfg.PromChurnShare,
			ChurnPeriod: time.Duration(cfg.PromChurnPeriod) * cfg.PromScrapeInterval,
			SpikeShare:  cfg.PromSpikeShare, SpikeEvery: cfg.PromSpikeEvery, Seed: cfg.DataSeed, Profile: profile,
			Histograms: hists, Churn: churn},
		Scrapes: int64(cfg.PromScrapes), WriteTimeout: cfg.WriteTimeout, ReadTimeout: cfg.ReadTimeout,
		ReadWhileWriting: cfg.PromReads == "while", NoReads: cfg.PromReads == "none", RealTime: cfg.PromTime == "now",
	}
}

// promOptions are the target's options for the workload: remote write,
// 1.0 unless write_path=remote-write-v2 asks for 2.0 (VictoriaMetrics'
// write_path=remote-write: its default is its import API), or a usage
// error for a target that cannot take it. (A store that does not take
// 2.0 refuses remote-write-v2 when it opens, naming the paths it takes.)
func promOptions(cfg *config.Config, d *targets.Driver, dataDir string) (targets.Options, error) {
	if !d.Caps.PromStore {
		return targets.Options{}, exit.Usagef("WORKLOAD = prometheus: target %s does not take Prometheus remote write; "+
			"the workload runs on %s", d.Name, strings.Join(promStores(), ", "))
	}
	opts := connect.Options(cfg, d, dataDir)
	extra := map[string]string{}
	for k, v := range opts.Extra {
		extra[k] = v
	}
	switch w := extra["write_path"]; {
	case w == "" && d.WritePaths[0] != "remote-write" && slices.Contains(d.WritePaths, "remote-write"):
		extra["write_path"] = "remote-write" // VictoriaMetrics' default is its import API
	case w != "" && w != "remote-write" && w != "remote-write-v2" && w != "otlp":
		return targets.Options{}, exit.Usagef("target option write_path = %s: not with WORKLOAD = prometheus, "+
			"which writes remote write (write_path=remote-write, or remote-write-v2 where the store takes 2.0) or OTLP (write_path=otlp)", w)
	}
	opts.Extra = extra
	if cfg.PromHistograms == "native" {
		if why := d.Caps.NoNativeHistograms; why != "" {
			return targets.Options{}, exit.Usagef("PROM_HISTOGRAMS = native: not on target %s: %s; "+
				"allowed here: classic", d.Name, why)
		}
	}
	return opts, nil
}

// openPromStores opens a connection per client.
func openPromStores(ctx context.Context, d *targets.Driver, opts targets.Options, clocks []*arrival.Clock) ([]targets.PromStore, []targets.Target, error) {
	var stores []targets.PromStore
	var opened []targets.Target
	for _, clock := range clocks {
		t, err := d.Open(arrival.WithClock(ctx, clock), opts)
		if err != nil {
			return nil, opened, err
		}
		opened = append(opened, t)
		s, ok := t.(targets.PromStore)
		if !ok {
			return nil, opened, fmt.Errorf("%s: takes no remote write through tsbench", d.Name)
		}
		stores = append(stores, s)
	}
	return stores, opened, nil
}

// promRun is one run of the prometheus workload as the CLI drives it.
type promRun struct {
	cfg            *config.Config
	driver         *targets.Driver
	runID, label   string
	dataDir        string
	out            Outputs
	r              *promrun.Run
	clocks         []*arrival.Clock // each client's arrival clock, by client of this process
	stores         []targets.PromStore
	probe          *freshness.Session    // FRESHNESS, or nil
	crash          *crash.Plan           // CRASH_AT, or nil
	barrier        *cluster.StoreBarrier // a worker process's (WORKERS), or nil
	stdout, stderr io.Writer
}

// runPrometheus writes the prometheus workload's scrapes by remote write,
// evaluates its rules, alerts and dashboards with every answer checked
// against the model, and counts the stored samples, reporting like any
// run.
func runPrometheus(cfg *config.Config, label string, out Outputs, stdout, stderr io.Writer) (*summary.Summary, error) {
	if _, _, off := results.Spec(out.Results, cfg.DataDir); off && cfg.Scaled() {
		// Refused before a server is asked: the workers can meet nowhere
		// else (START_AT is refused on this workload, checkProm).
		return nil, exit.Usagef("%s", noStore(cfg))
	}
	driver, _ := targets.Lookup(cfg.Target)
	p := &promRun{cfg: cfg, driver: driver, runID: NewID(), label: label, dataDir: datadir.Or(cfg.DataDir), out: out,
		stdout: stdout, stderr: stderr}
	opts, err := promOptions(cfg, driver, p.dataDir)
	if err != nil {
		return nil, err
	}
	if p.crash, err = crashPlan(cfg, driver); err != nil {
		return nil, err
	}
	if err := p.plan(time.Now()); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opened, err := p.open(ctx, opts)
	defer func() {
		p.probe.Close()
		for _, t := range opened {
			t.Close()
		}
	}()
	if err != nil {
		return nil, connectError(err, driver)
	}
	s, sess, err := p.measure(ctx, cancel)
	if err != nil {
		return nil, err
	}
	defer sess.close()
	if n, lost := p.r.Resent(), p.r.FailedWrites(); n+lost > 0 {
		fmt.Fprintf(stderr, "tsbench: remote write: %d writes sent again after a recoverable failure, %d requests given up\n", n, lost)
	}
	s.RemoteWrite = p.r.RemoteWrite(p.stores[0].RemoteWriteVersion())
	if ctx.Err() == nil {
		vctx, cancelV := context.WithTimeout(context.Background(), setupTimeout)
		s.Verify = p.r.Verify(vctx, p.stores[0])
		cancelV()
	}
	results.Complete(s, cfg, p.runID, driver, opts.DataDir, Version)
	return s, finishRun(s, cfg, label, p.dataDir, sess.store, sess.live, out, stdout, stderr)
}

// plan makes the run of the workload, its scrapes ending before now. A
// worker process (WORKERS) plans from the instant its group starts, under
// the group's job label, so that the workers write one model between
// them: worker 0 asks the read load once every worker has written, the
// others only write.
func (p *promRun) plan(now time.Time) error {
	c, job := promConfig(p.cfg), "tsbench-"+p.runID
	if p.driver.Language != nil {
		c.Engine = p.driver.Language.Engine
	}
	if p.cfg.Scaled() {
		job = "tsbench-" + p.cfg.RunGroup
		c.WriteOnly = p.cfg.WorkerIndex != 0
		if p.barrier != nil && !c.WriteOnly {
			c.AllWritten = p.barrier.AllWritten
		}
	}
	r, err := promrun.New(promrun.Plan(c, now, job))
	if err != nil {
		return exit.Usagef("WORKLOAD = prometheus: %v", err)
	}
	r.Report = func(s string) { fmt.Fprintln(p.stderr, "tsbench: "+s) }
	p.r = r
	return nil
}

// open opens a store per client of this process, prepares the store
// (unless a worker process other than worker 0), and opens the freshness
// probe (FRESHNESS, worker 0's); it returns the connections opened, to be
// closed however it went.
func (p *promRun) open(ctx context.Context, opts targets.Options) ([]targets.Target, error) {
	setup, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	lo, hi := p.cfg.ClientRange()
	p.clocks = make([]*arrival.Clock, hi-lo)
	for i := range p.clocks {
		p.clocks[i] = &arrival.Clock{} // each client's connections stamp their reads into its own
	}
	stores, opened, err := openPromStores(setup, p.driver, opts, p.clocks)
	if err != nil {
		return opened, err
	}
	p.stores = stores
	if !p.cfg.Scaled() {
		if err := stores[0].Begin(arrival.WithClock(setup, p.clocks[0])); err != nil {
			return opened, err
		}
	}
	if p.cfg.Freshness && p.cfg.WorkerIndex == 0 {
		p.probe, err = freshness.Open(setup, p.driver.Name, p.driver.Open, opts, runner.FreshnessSettings(p.cfg))
	}
	return opened, err
}

// measure runs the workload's workers on the engine, in a session like
// every run's, with the freshness probe and the crash.
func (p *promRun) measure(ctx context.Context, abort func()) (*summary.Summary, *session, error) {
	ec := engine.ConfigFrom(p.cfg)
	ec.Names = promrun.Names
	ec.PlanEnd, ec.EveryName = "queries", true
	if c := p.r.Config(); c.WriteOnly || c.NoReads {
		ec.PlanEnd = "scrapes"
	}
	lo, _ := p.cfg.ClientRange()
	ec.TotalOps = p.r.Operations(lo, len(p.stores), p.cfg.Clients)
	eng := engine.New(ec, engine.Hooks{})
	sess, err := openSession(p.cfg, p.runID, p.label, p.driver, p.out, p.dataDir, eng.Interrupt, abort, p.stdout, p.stderr)
	if err != nil {
		return nil, nil, err
	}
	started := time.Now().UTC()
	share, err := p.meet(ctx, sess, eng)
	if err == nil && share == nil && p.r.Config().RealTime {
		// A real-time run's first scrape is the first after its measured
		// phase begins, not after its setup (worker processes plan from
		// the instant they meet at).
		err = p.plan(time.Now())
	}
	if err != nil {
		sess.drop(p.stderr)
		return nil, nil, err
	}
	p.announce()
	var fresh *summary.Freshness
	eng.Hooks = p.probe.Around(ctx, sess.hooks, func(f *summary.Freshness) { fresh = f })
	eng.Hooks.Crash = p.crash
	workers := p.r.OpenShare(p.stores, lo, p.cfg.Clients)
	handles := eng.Handles(len(workers))
	for i, h := range handles {
		h.Arrivals = p.clocks[i]
	}
	res := eng.Run(ctx, workers, handles)
	sess.measured()
	if p.barrier != nil && p.cfg.WorkerIndex != 0 && !eng.Stopped() && ctx.Err() == nil {
		// Worker 0 asks the read load once every worker has said so.
		if err := p.barrier.Written(ctx); err != nil {
			fmt.Fprintf(p.stderr, "tsbench: warning: %v: worker 0 will not ask its read load\n", err)
		}
	}
	s := &summary.Summary{SchemaVersion: summary.SchemaVersion, Target: p.driver.Name, Started: started,
		OpenModel: ec.Rate > 0, RatePerSecond: ec.Rate, RealTime: p.r.Config().RealTime, Freshness: fresh, Worker: share,
		LatencyClock: arrival.ClockOf(p.clocks)}
	res.Record(s)
	return s, sess, nil
}

// meet has a worker process (WORKERS) meet its group in the results
// store: worker 0 prepares the store before the others go on, every worker
// plans from the instant they all start, and sleeps until it. It returns
// the worker's share, nil for a run of one process.
func (p *promRun) meet(ctx context.Context, sess *session, eng *engine.Engine) (*summary.Worker, error) {
	if !p.cfg.Scaled() {
		return nil, nil
	}
	b, err := storeBarrier(p.cfg, sess.store, p.runID)
	if err != nil {
		return nil, err
	}
	p.barrier = b
	if p.cfg.WorkerIndex == 0 {
		setup, cancel := context.WithTimeout(ctx, time.Minute)
		err = p.stores[0].Begin(arrival.WithClock(setup, p.clocks[0]))
		cancel()
		if err == nil {
			err = b.SchemaReady(ctx)
		}
	} else {
		err = b.WaitSchema(ctx)
	}
	if err != nil {
		return nil, err
	}
	start, err := b.Ready(ctx)
	if err != nil {
		return nil, err
	}
	if err := p.plan(start); err != nil {
		return nil, err
	}
	share := results.WorkerShare(p.cfg)
	share.Barrier, share.StartAt = b.Kind(), start.UTC()
	eng.SleepUntil(start)
	return share, nil
}

// announce says what the run writes and asks.
func (p *promRun) announce() {
	c := p.r.Config()
	reads := fmt.Sprintf("%d queries checked", p.r.Queries())
	switch {
	case c.NoReads:
		reads = "no read load (PROM_READS = none)"
	case c.WriteOnly:
		reads = "worker 0's read load"
	}
	share := ""
	if lo, hi := p.cfg.ClientRange(); p.cfg.Scaled() {
		share = fmt.Sprintf(" (this worker's clients %d..%d of %d)", lo, hi-1, p.cfg.Clients)
	}
	protocol := "remote write " + p.r.RemoteWrite(p.stores[0].RemoteWriteVersion()).Version
	if p.stores[0].RemoteWriteVersion() == remotewrite.OTLP {
		protocol = "OTLP/HTTP metrics"
	}
	when := "from " + time.UnixMilli(c.Shape.Start).UTC().Format(time.RFC3339)
	if c.RealTime {
		when = "in real time " + when
	}
	fmt.Fprintf(p.stderr, "tsbench: run %s: prometheus workload on %s by %s: %d targets x %d series (%s profile)%s, "+
		"%d scrapes every %v %s, churn %v every %d scrapes%s, then %s; job=%q\n", p.runID, p.driver.Name, protocol, c.Shape.Targets,
		p.r.Model().SeriesPerTarget(), c.Shape.Profile, share, c.Scrapes, c.Shape.Interval, when,
		c.Shape.ChurnShare, p.cfg.PromChurnPeriod, spikes(c.Shape), reads, c.Shape.Job)
}

// spikes says the churn's spikes and what a replaced target changes, for
// the run's first line: "" for the default churn.
func spikes(s promshape.Config) string {
	out := ""
	if s.Churn != promshape.ChurnInstance {
		out = " (a new " + s.Churn.String() + ")"
	}
	if s.SpikeEvery > 0 {
		out += fmt.Sprintf(", spikes of %v every %d periods", s.SpikeShare, s.SpikeEvery)
	}
	return out
}
