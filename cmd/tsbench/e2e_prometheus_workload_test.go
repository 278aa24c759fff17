package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/promshape"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/testenv/fault"
)

// promShapeOf is a short prometheus workload: targets scraped every
// second for a minute, a tenth of them replaced every 10 scrapes.
func promShapeOf(targets int) []string {
	return []string{"--workload", "prometheus", "--set", fmt.Sprintf("PROM_TARGETS=%d", targets), "--set", "PROM_SCRAPE_INTERVAL=1s",
		"--set", "PROM_SCRAPES=60", "--set", "PROM_CHURN_SHARE=0.1", "--set", "PROM_CHURN_PERIOD=10", "--clients", "4"}
}

// promWorkloadShape is 20 targets, for the tests of the workload's
// mechanics and write paths (with promSmall); promNodeShape 10 of the default (node)
// profile: its 850 series a target make 510,000 samples, enough to check
// every answer without the four stores' runs taking minutes.
var (
	promWorkloadShape = promShapeOf(20)
	promNodeShape     = promShapeOf(10)
)

// promSmall asks for the small profile: the tests of the workload's
// mechanics (find-max, workers, a crash) need not write 850 series a
// target.
var promSmall = []string{"--set", "PROM_PROFILE=small"}

// promKind is what a run's targets expose: its profile, how its
// histogram is sent, what a replaced target changes, and the churn's
// spikes (PROM_SPIKE_EVERY, PROM_SPIKE_SHARE; none when every is 0).
type promKind struct {
	promshape.Profile
	promshape.Histograms
	promshape.Churn
	spikeEvery int
	spikeShare float64
}

// args are the settings that ask for the kind, beside the profile's.
func (k promKind) args() []string {
	out := []string{"--set", "PROM_HISTOGRAMS=" + k.Histograms.String(), "--set", "PROM_CHURN=" + k.Churn.String()}
	if k.spikeEvery > 0 {
		out = append(out, "--set", fmt.Sprintf("PROM_SPIKE_EVERY=%d", k.spikeEvery),
			"--set", fmt.Sprintf("PROM_SPIKE_SHARE=%v", k.spikeShare))
	}
	return out
}

// replaced is how many targets the 5 churn boundaries of promShapeOf's
// 60 scrapes (every 10) replace: a tenth of the targets each, or the
// spike's share at every spikeEvery-th.
func (k promKind) replaced(targets int64) int64 {
	var n int64
	for p := 1; p <= 5; p++ {
		share := 0.1
		if k.spikeEvery > 0 && p%k.spikeEvery == 0 {
			share = k.spikeShare
		}
		n += int64(math.Round(share * float64(targets)))
	}
	return n
}

var (
	smallProm = promKind{Profile: promshape.Small}
	nodeProm  = promKind{Profile: promshape.Node}
)

// promSamples is the samples targets of the profile write in scrapes,
// the staleness markers left out: from the model, not a figure the tests
// repeat.
func promSamples(t *testing.T, p promKind, targets, scrapes int64) int64 {
	t.Helper()
	m, err := promshape.New(promshape.Config{Targets: 1, Interval: time.Second, Job: "node", Profile: p.Profile,
		Histograms: p.Histograms})
	if err != nil {
		t.Fatal(err)
	}
	return targets * int64(m.SeriesPerTarget()) * scrapes
}

// readLoad counts the workload's queries by kind, and those whose answer
// the engine decides (rates, increase, changes), from the model itself:
// the read load's size is the model's, not a figure the tests repeat.
type readLoad struct{ rules, alerts, dashboards, perEngine int }

func (l readLoad) total() int { return l.rules + l.alerts + l.dashboards }

func promReadLoad(t *testing.T, p promKind) readLoad {
	t.Helper()
	m, err := promshape.New(promshape.Config{Targets: 1, Interval: time.Second, Job: "node", Profile: p.Profile,
		Histograms: p.Histograms})
	if err != nil {
		t.Fatal(err)
	}
	var l readLoad
	for _, q := range m.Queries() {
		switch q.Kind {
		case promshape.Rule:
			l.rules++
		case promshape.Alert:
			l.alerts++
		case promshape.Dashboard:
			l.dashboards++
		}
		if q.PerEngine {
			l.perEngine++
		}
	}
	return l
}

// TestPrometheusWorkload writes the workload by remote write to the four
// stores in turn (--target victoriametrics,prometheus,mimir,thanos, each
// on its service script's ports; Thanos' answers carry its tenant and
// receive labels, left out) and asks its read load: exit 0, on each every
// sample acknowledged stored (10 targets x the node profile's 850 series
// x 60 scrapes; the staleness markers are written but not counted), the
// rules and alerts asked while the writes go on (PROM_READS=while), every RULE, ALERT and
// DASHBOARD operation done without a failure, every one of the
// queries' answers checked equal to the model's, and each store's answers
// the same as VictoriaMetrics', query by query, but for the rates, the
// increase and the changes: those are the same on the stores of
// Prometheus' engine and differ from VictoriaMetrics' by design.
func TestPrometheusWorkload(t *testing.T) {
	inParallel(t)
	stores := []string{"victoriametrics", "prometheus", "mimir", "thanos"}
	for _, target := range stores {
		requireTargetServer(t, target)
	}
	dir := t.TempDir()
	r := tsbench(t, nil, append([]string{"run", "--quiet", "--data-dir", dir, "--json", filepath.Join(dir, "s.json"),
		"--target", strings.Join(stores, ","), "--set", "PROM_READS=while"}, promNodeShape...)...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, tail(r.stdout, 60), r.stderr)
	}
	load := promReadLoad(t, nodeProm)
	if want := fmt.Sprintf("Answers of the workload's queries: %d of %d query-target pairs agree with victoriametrics, %d differ by design",
		3*(load.total()-load.perEngine), 3*load.total(), 3*load.perEngine); !strings.Contains(r.stdout, want) {
		t.Errorf("the stores' answers not compared, or not alike:\n%s", tail(r.stdout, 60))
	}
	if n := strings.Count(r.stdout, "Latency per expression, ms: p50 / p99 / max, answers"); n != len(stores) {
		t.Errorf("%d tables of latency per expression, want one per store", n)
	}
	digests := map[string]string{}
	for _, target := range stores {
		s := readSummary(t, filepath.Join(dir, "s-"+target+".json"))
		checkPrometheusRun(t, target, s, nodeProm, 10)
		for _, q := range s.Verify.Queries {
			key := q.Query + " on the " + cmp.Or(q.Engine, "any") + " engine"
			if d, ok := digests[key]; ok && d != q.Digest {
				t.Errorf("%s on %s: digest %s, the first store's %s", key, target, q.Digest, d)
			}
			digests[key] = q.Digest
		}
	}
	if len(digests) != load.total()+load.perEngine {
		t.Errorf("%d digests, want %d and those of the engine-decided queries on a second engine: %v", len(digests), load.total(), digests)
	}
}

// TestPrometheusWorkloadWritePaths writes the workload by each write path
// beside remote write 1.0 to every store that takes it, and judges each
// store's run as TestPrometheusWorkload's, every sample stored and every
// answer right. The small profile's 41 series a target are of every kind
// a node target's are (gauges, counters, a classic histogram, staleness
// markers), so the paths' encodings are all tried at a tenth of the
// samples:
//   - remote write 2.0 (write_path=remote-write-v2) to Prometheus and
//     Mimir, every request's answer saying it wrote all its samples
//     (X-Prometheus-Remote-Write-Samples-Written);
//   - OTLP/HTTP metrics (write_path=otlp: gauges, monotonic cumulative sums
//     of the _total counters, the classic histogram as an OTLP histogram, a
//     replaced target's points flagged as holding no value) to the four
//     stores, which turn them back into the same series;
//   - native histograms (PROM_HISTOGRAMS=native) by remote write 2.0 to
//     Prometheus and Mimir, whose answers count the histograms written
//     (X-Prometheus-Remote-Write-Histograms-Written), and as OTLP
//     exponential histograms to Prometheus and Thanos: the histogram
//     queries then read them with histogram_quantile, histogram_count and
//     histogram_sum, each answer checked;
//   - the revision churn (PROM_CHURN=revision) with spikes (half the
//     targets at every second boundary) by remote write 1.0 to
//     VictoriaMetrics and Prometheus: a replaced target keeps its instance
//     and its series take a new revision label, every series counted and
//     every answer right.
//
// The bytes sent are reported as the path's.
func TestPrometheusWorkloadWritePaths(t *testing.T) {
	inParallel(t)
	native := promKind{Profile: promshape.Small, Histograms: promshape.Native}
	for _, c := range []struct {
		name, path, by, version, line string
		kind                          promKind
		stores                        []string
	}{
		{"remote-write-v2", "remote-write-v2", "by remote write 2.0", "2.0", "Remote write 2.0: 240 requests acknowledged",
			smallProm, []string{"prometheus", "mimir"}},
		{"otlp", "otlp", "by OTLP/HTTP metrics", "OTLP", "OTLP/HTTP metrics: 240 requests acknowledged",
			smallProm, []string{"victoriametrics", "prometheus", "mimir", "thanos"}},
		{"native histograms 2.0", "remote-write-v2", "by remote write 2.0", "2.0", "Remote write 2.0: 240 requests acknowledged",
			native, []string{"prometheus", "mimir"}},
		{"native histograms otlp", "otlp", "by OTLP/HTTP metrics", "OTLP", "OTLP/HTTP metrics: 240 requests acknowledged",
			native, []string{"prometheus", "thanos"}},
		{"revision churn, spikes", "remote-write", "by remote write 1.0", "1.0", "Remote write 1.0: 240 requests acknowledged",
			promKind{Profile: promshape.Small, Churn: promshape.ChurnRevision, spikeEvery: 2, spikeShare: 0.5},
			[]string{"victoriametrics", "prometheus"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			inParallel(t)
			for _, target := range c.stores {
				requireTargetServer(t, target)
			}
			dir := t.TempDir()
			args := []string{"run", "--quiet", "--data-dir", dir, "--json", filepath.Join(dir, "s.json"),
				"--target", strings.Join(c.stores, ","), "--set", "target.write_path=" + c.path}
			args = append(args, c.kind.args()...)
			r := tsbench(t, nil, append(args, slices.Concat(promWorkloadShape, promSmall)...)...)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s\n%s", r.code, tail(r.stdout, 60), r.stderr)
			}
			for _, target := range c.stores {
				if !strings.Contains(r.stderr, "prometheus workload on "+target+" "+c.by) {
					t.Errorf("%s: the run does not say it writes %s:\n%s", target, c.by, r.stderr)
				}
				s := readSummary(t, filepath.Join(dir, "s-"+target+".json"))
				checkPrometheusRun(t, target, s, c.kind, 20)
				if s.RemoteWrite == nil || s.RemoteWrite.Version != c.version {
					t.Errorf("%s: sent %+v, not reported as %s", target, s.RemoteWrite, c.version)
				}
			}
			if n := strings.Count(r.stdout, c.line); n != len(c.stores) {
				t.Errorf("%d lines %q, want one per store:\n%s", n, c.line, tail(r.stdout, 40))
			}
		})
	}
}

// checkPrometheusRun checks one store's run of promShapeOf(targets) in
// the profile.
func checkPrometheusRun(t *testing.T, target string, s *summary.Summary, profile promKind, targets int64) {
	t.Helper()
	if s.Target != target || s.Verify == nil || !s.Verify.OK {
		t.Fatalf("%s: run on %s, verify %+v", target, s.Target, s.Verify)
	}
	want := promSamples(t, profile, targets, 60)
	if s.Verify.StoredPoints != want || s.Verify.ExpectedPoints != want {
		t.Errorf("%s: stored %d samples, acknowledged %d, want %d", target, s.Verify.StoredPoints, s.Verify.ExpectedPoints, want)
	}
	// The series: a target's each, and a new target's at each of the 5
	// churn boundaries (scrapes 10 to 50), which replace a tenth of the
	// targets (or a spike's share); the store's count of them is the
	// model's.
	replaced := profile.replaced(targets)
	if ws := promSamples(t, profile, targets+replaced, 1); s.Verify.ExpectedSeries != ws || s.Verify.StoredSeries != ws {
		t.Errorf("%s: stored %d series, expected %d, want %d", target, s.Verify.StoredSeries, s.Verify.ExpectedSeries, ws)
	}
	// A minute of scrapes (60, a second apart).
	if rw := s.RemoteWrite; rw == nil || rw.ActiveSeries != promSamples(t, profile, targets, 1) ||
		rw.NewSeriesPerMinute != float64(promSamples(t, profile, replaced, 1)) {
		t.Errorf("%s: series %+v, want %d targets' active and %d replaced ones' new in the minute", target, rw, targets, replaced)
	}
	// The samples sent hold the staleness markers of the replaced targets.
	if rw := s.RemoteWrite; rw == nil || rw.Samples <= want || rw.Requests < 60 || rw.Bytes <= 0 {
		t.Errorf("%s: remote write %+v, want every scrape's request, its samples and bytes", target, rw)
	}
	ops := map[string]int64{}
	for _, op := range s.Operations {
		if op.FailOperations != 0 {
			t.Errorf("%s: %s: %d operations failed", target, op.Name, op.FailOperations)
		}
		ops[op.Name] = op.OKOperations
	}
	// 56 evaluation times (scrapes 4..59) x the rules and the alerts;
	// the dashboards once; a request per scrape and client.
	load := promReadLoad(t, profile)
	done := map[string]int64{"INGESTION": 240, "RULE": 56 * int64(load.rules), "ALERT": 56 * int64(load.alerts),
		"DASHBOARD": int64(load.dashboards)}
	for name, n := range done {
		if ops[name] != n {
			t.Errorf("%s: %s: %d operations done, want %d", target, name, ops[name], n)
		}
	}
	if len(s.Verify.Queries) != load.total() || s.Verify.Mismatch() {
		t.Fatalf("%s: answers checked: %+v", target, s.Verify.Queries)
	}
	for _, q := range s.Verify.Queries {
		if !q.OK || q.Points == 0 || len(q.Digest) != 16 {
			t.Errorf("%s: %s: %+v", target, q.Query, q)
		}
		if l := q.LatencyMS; l == nil || l.Max <= 0 || l.P50 > l.Max {
			t.Errorf("%s: %s: latency %+v, want each expression's", target, q.Query, q.LatencyMS)
		}
	}
}

// TestPrometheusWorkloadFindMax searches VictoriaMetrics' highest
// sustainable remote-write rate: each step writes as many scrapes as its
// rate and time take, the search finds a rate, and the best step's run
// stored every sample it acknowledged, its read load not reached (the
// step ends in the writes), its matrices the workload's rows.
func TestPrometheusWorkloadFindMax(t *testing.T) {
	testenv.Alone(t)
	requireTargetServer(t, "victoriametrics")
	dir := t.TempDir()
	js := filepath.Join(dir, "s.json")
	r := tsbench(t, nil, "run", "--quiet", "--data-dir", dir, "--json", js, "--workload", "prometheus", "--target", "victoriametrics",
		"--set", "PROM_TARGETS=20", "--set", "PROM_SCRAPE_INTERVAL=1s", "--clients", "2", "--find-max", "INGESTION.p99<2s",
		"--set", "FIND_MAX_START=100", "--set", "FIND_MAX_STEPS=2", "--set", "FIND_MAX_SETTLE=1s", "--set", "FIND_MAX_MEASURE=2s",
		"--set", "FIND_MAX_MIN_OPS=100", "--set", "PROM_PROFILE=small")
	if r.code != 0 {
		t.Fatal(failedRun(r))
	}
	s := readSummary(t, js)
	if s.FindMax == nil || !s.FindMax.Found || s.FindMax.Rate < 100 || len(s.FindMax.Steps) != 2 {
		t.Fatalf("search %+v\n%s", s.FindMax, r.stdout)
	}
	ing := s.Op("INGESTION")
	if ing == nil || ing.OKOperations < 150 || ing.FailOperations != 0 || s.Verify == nil || !s.Verify.OK ||
		s.Verify.StoredPoints != s.Verify.ExpectedPoints || s.Verify.StoredPoints < ing.OKPoints {
		t.Errorf("best step: ingestion %+v, verify %+v", ing, s.Verify)
	}
	if rule := s.Op("RULE"); rule == nil || rule.OKOperations != 0 || s.Verify.QueriesSkipped == "" {
		t.Errorf("the read load in a step: %+v, %+v", rule, s.Verify)
	}
	checkContains(t, r.stdout, "Highest sustainable rate: ", "INGESTION p50", "\nRULE ")
}

// TestPrometheusWorkloadWorkers splits the workload between two worker
// processes meeting in a PostgreSQL results store: each writes the
// targets of its two clients and counts their series (half the samples
// each, all of them stored); worker 0 asks the whole read load once both
// have written, every answer the model's and each query's digest the
// same as one process's run of the same shape; 'tsbench merge' adds them
// into one run of every sample and every answer checked.
func TestPrometheusWorkloadWorkers(t *testing.T) {
	requireTargetServer(t, "victoriametrics")
	requireTargetServer(t, "postgres") // the results store
	args := append(append([]string{"--target", "victoriametrics"}, promWorkloadShape...), promSmall...)
	all := promSamples(t, smallProm, 20, 60)
	one := startRun(t, append(args, "--results", "off")...)
	code, single := one.wait(t, 2*time.Minute)
	if code != 0 {
		t.Fatalf("one process: exit %d\n%s", code, one.output())
	}
	digests := map[string]string{}
	for _, q := range single.Verify.Queries {
		digests[q.Query] = q.Digest
	}

	load := promReadLoad(t, smallProm)
	grp := group(t)
	workers := startWorkers(t, grp, 2, nil, args...)
	var acked int64
	for i, w := range workers {
		s := waitShare(t, w, i)
		v := s.Verify
		if !v.OK || v.StoredPoints != v.ExpectedPoints || v.ExpectedPoints < all/4 {
			t.Errorf("worker %d counted its own targets' series: %+v", i, v)
		}
		acked += v.ExpectedPoints
		if ing := s.Op("INGESTION"); ing == nil || ing.OKOperations != 120 || ing.FailOperations != 0 {
			t.Errorf("worker %d: ingestion %+v, want a request per scrape and client", i, ing)
		}
		if i == 1 {
			if len(v.Queries) != 0 || !strings.Contains(v.QueriesSkipped, "worker 0") || s.Op("RULE").OKOperations != 0 {
				t.Errorf("worker 1 asked queries: %+v", v)
			}
			continue
		}
		if len(v.Queries) != load.total() || s.Op("RULE").OKOperations != 56*int64(load.rules) ||
			s.Op("ALERT").OKOperations != 56*int64(load.alerts) {
			t.Fatalf("worker 0's read load: %+v", v.Queries)
		}
		for _, q := range v.Queries {
			if !q.OK || q.Digest != digests[q.Query] {
				t.Errorf("worker 0's %s: %+v; one process's digest %s", q.Query, q, digests[q.Query])
			}
		}
	}
	if acked != all {
		t.Errorf("the workers acknowledged %d samples, want %d", acked, all)
	}
	r, merged := mergeGroup(t, grp)
	if r.code != 0 {
		t.Fatalf("merge: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if v := merged.Verify; v == nil || !v.OK || v.StoredPoints != all || len(v.Queries) != load.total() ||
		v.Method != "sum of the workers' own counts, each over its own targets' series" {
		t.Fatalf("merged verification: %+v", merged.Verify)
	}
	if ing := merged.Op("INGESTION"); ing == nil || ing.OKOperations != 240 {
		t.Errorf("merged ingestion %+v, want 240 requests", ing)
	}
}

// TestPrometheusWorkloadCrash kills Prometheus 1 s into the workload's
// writes (2 s of them at the rate), with the freshness probe beside it: the scrapes whose writes
// failed while it was down are sent again until acknowledged (failed
// operations of the connection class), Prometheus restarts from its
// write-ahead log having lost nothing acknowledged (stored = acknowledged
// = every sample), every answer of the read load is still the model's,
// and the probe saw its points. The run exits 1: operations failed.
func TestPrometheusWorkloadCrash(t *testing.T) {
	testenv.AloneOn(t, "prometheus")
	requireTargetServer(t, "prometheus")
	dir := t.TempDir()
	js := filepath.Join(dir, "s.json")
	restart := "bash " + fault.Find(t, "prometheus").Script() + " resume"
	r := tsbench(t, nil, "run", "--quiet", "--data-dir", dir, "--json", js, "--workload", "prometheus", "--target", "prometheus",
		"--set", "PROM_TARGETS=20", "--set", "PROM_SCRAPE_INTERVAL=1s", "--set", "PROM_SCRAPES=100", "--clients", "4",
		"--rate", "200", "--crash", "1s", "--crash-restart", restart, "--set", "FRESHNESS=true", "--set", "PROM_PROFILE=small")
	if r.code != 1 { // the attempts that failed while the server was down
		t.Fatal(failedRun(r))
	}
	s := readSummary(t, js)
	if s.Crash == nil || s.Crash.Error != "" || s.Crash.BackAfterS <= 0 || s.Crash.NewPID == 0 {
		t.Fatalf("crash %+v", s.Crash)
	}
	if all := promSamples(t, smallProm, 20, 100); s.Verify.StoredPoints != all || s.Verify.ExpectedPoints != all {
		t.Errorf("stored %d, acknowledged %d, want %d", s.Verify.StoredPoints, s.Verify.ExpectedPoints, all)
	}
	if ing := s.Op("INGESTION"); ing == nil || ing.OKOperations != 400 || ing.FailOperations == 0 {
		t.Errorf("ingestion %+v: want 400 acknowledged and the failed attempts while the server was down", ing)
	}
	for _, q := range s.Verify.Queries {
		if !q.OK {
			t.Errorf("%s: %+v", q.Query, q)
		}
	}
	if f := s.Freshness; f == nil || f.Visible == 0 || f.Unseen != 0 {
		t.Errorf("freshness %+v", f)
	}
	checkContains(t, r.stderr, "writes sent again after a recoverable failure, 0 requests given up")
}

// TestPrometheusWorkloadRefusals: what the workload cannot take is refused
// with exit 2 naming it, before anything runs (no server needed).
func TestPrometheusWorkloadRefusals(t *testing.T) {
	inParallel(t)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--target", "influxdb"}, "the workload runs on mimir, prometheus, thanos, victoriametrics"},
		{[]string{"--target", "victoriametrics", "--find-max", "RULE.p99<50ms"}, "FIND_MAX = RULE.p99<50ms: not with WORKLOAD = prometheus"},
		{[]string{"--target", "victoriametrics", "--find-max", "INGESTION.p99<50ms", "--set", "PROM_SCRAPES=10"},
			"PROM_SCRAPES = 10: not with FIND_MAX"},
		{[]string{"--target", "victoriametrics", "--find-max", "INGESTION.p99<50ms", "--set", "PROM_SCRAPE_INTERVAL=1m",
			"--set", "FIND_MAX_START=1000"}, "beyond the 49m0s the stores take: lower PROM_SCRAPE_INTERVAL"},
		{[]string{"--target", "victoriametrics", "--workers", "2", "--group", "g", "--start-at", "2030-01-01T00:00:00Z"},
			"START_AT = \"2030-01-01T00:00:00Z\": worker 0 asks the read load once every worker has written"},
		{[]string{"--target", "victoriametrics", "--set", "PROM_SCRAPES=4000"}, "PROM_SCRAPES"},
		{[]string{"--target", "victoriametrics", "--set", "PROM_CHURN_SHARE=1.5"}, "PROM_CHURN_SHARE"},
		// Remote write 2.0 where the store does not take it, and a write
		// path that is not remote write.
		{[]string{"--target", "victoriametrics", "--set", "target.write_path=remote-write-v2"}, "allowed: import, remote-write"},
		{[]string{"--target", "thanos", "--set", "target.write_path=remote-write-v2"}, "allowed: remote-write"},
		{[]string{"--target", "victoriametrics", "--set", "target.write_path=import"}, "write_path = import: not with WORKLOAD = prometheus"},
		{[]string{"--target", "victoriametrics", "--threshold", "Q1.p99<1s"}, "allowed: INGESTION, RULE, ALERT, DASHBOARD"},
		// Native histograms where the store does not keep them, and a
		// kind that is not one.
		{[]string{"--target", "victoriametrics", "--set", "PROM_HISTOGRAMS=native"},
			"PROM_HISTOGRAMS = native: not on target victoriametrics: VictoriaMetrics turns each native histogram"},
		{[]string{"--target", "prometheus", "--set", "PROM_HISTOGRAMS=exponential"}, "PROM_HISTOGRAMS"},
	}
	for _, c := range cases {
		args := append([]string{"run", "--quiet", "--data-dir", t.TempDir(), "--workload", "prometheus"}, c.args...)
		r := tsbench(t, nil, args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s: exit %d, want 2 naming %q:\n%s", strings.Join(c.args, " "), r.code, c.want, r.stderr)
		}
	}
	// Its generator is not built.
	if r := tsbench(t, nil, "generate", "--workload", "prometheus", "--out", filepath.Join(t.TempDir(), "g")); r.code != 2 ||
		!strings.Contains(r.stderr, "WORKLOAD = prometheus: not built for this workload yet") {
		t.Errorf("generate: exit %d:\n%s", r.code, r.stderr)
	}
	// PROM_* on another workload.
	r := tsbench(t, nil, "run", "--quiet", "--data-dir", filepath.Join(t.TempDir(), "d"), "--target", "victoriametrics",
		"--set", "PROM_TARGETS=5")
	if r.code != 2 || !strings.Contains(r.stderr, "PROM_TARGETS = 5: not with WORKLOAD = timeseries") {
		t.Errorf("PROM_TARGETS on a time series run: exit %d:\n%s", r.code, r.stderr)
	}
}

// TestPrometheusWorkloadCatchesWrongAnswers runs the workload against a
// stand-in for VictoriaMetrics that takes every write and answers every
// query with nothing: each rule's and dashboard's answer is a failed
// operation, and each alert's where the model has it firing (an empty
// answer is right where none fires), the first wrong answer is printed naming the
// operation, query, time, series, want and got, and the run exits 3
// (verification: nothing stored, answers wrong).
func TestPrometheusWorkloadCatchesWrongAnswers(t *testing.T) {
	inParallel(t)
	empty := map[string]string{
		"/api/v1/query":       `{"status":"success","data":{"resultType":"vector","result":[]}}`,
		"/api/v1/query_range": `{"status":"success","data":{"resultType":"matrix","result":[]}}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) //nolint:errcheck
		if a, ok := empty[r.URL.Path]; ok {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, a) //nolint:errcheck
			return
		}
		w.WriteHeader(http.StatusNoContent) // /health, /api/v1/write, /internal/force_flush
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	dir := t.TempDir()
	r := tsbench(t, nil, append([]string{"run", "--quiet", "--data-dir", dir, "--json", filepath.Join(dir, "s.json"),
		"--target", "victoriametrics", "--set", "HOST=" + u.Hostname(), "--set", "PORT=" + u.Port()}, slices.Concat(promWorkloadShape, promSmall)...)...)
	if r.code != 3 {
		t.Fatalf("exit %d, want 3\n%s\n%s", r.code, tail(r.stdout, 30), r.stderr)
	}
	if !strings.Contains(r.stderr, "RULE job:up:sum: wrong answer: job:up:sum at ") || !strings.Contains(r.stderr, "want 20, got none") {
		t.Errorf("no first mismatch printed:\n%s", r.stderr)
	}
	s := readSummary(t, filepath.Join(dir, "s.json"))
	for _, op := range s.Operations {
		wrong := op.Name == "RULE" || op.Name == "DASHBOARD"
		if (wrong && op.OKOperations != 0) || (op.Name != "INGESTION" && op.FailOperations == 0) {
			t.Errorf("%s: %d ok, %d failed", op.Name, op.OKOperations, op.FailOperations)
		}
	}
	if s.Verify == nil || !s.Verify.Mismatch() || s.Verify.StoredPoints != 0 {
		t.Errorf("verify %+v", s.Verify)
	}
}

// TestPrometheusWorkloadCapabilities: the engine's capabilities apply to
// the workload on VictoriaMetrics as to any (a rate kept, a threshold's
// verdict with exit 99, repetitions, a live output), every answer still
// checked; those not built for it are refused (TestPrometheusWorkloadRefusals).
func TestPrometheusWorkloadCapabilities(t *testing.T) {
	testenv.Alone(t)
	requireTargetServer(t, "victoriametrics")
	base := append(append([]string{"--target", "victoriametrics", "--set", "PORT=8428"}, promWorkloadShape...), promSmall...)
	cases := []struct {
		name  string
		args  []string
		code  int
		check func(t *testing.T, r result, s *summary.Summary)
	}{
		{"rate", []string{"--rate", "200"}, 0, func(t *testing.T, r result, s *summary.Summary) {
			var ops int64
			for _, o := range s.Operations {
				ops += o.OKOperations
			}
			if got := float64(ops) / s.Elapsed; !s.OpenModel || got < 0.8*200 || got > 1.1*200 {
				t.Errorf("%.1f operations a second, offered 200 (%d in %.2f s)", got, ops, s.Elapsed)
			}
		}},
		{"threshold", []string{"--threshold", "DASHBOARD.p99<0.001ms"}, 99, func(t *testing.T, r result, s *summary.Summary) {
			if len(s.Thresholds) != 1 || s.Thresholds[0].Passed {
				t.Errorf("thresholds %+v", s.Thresholds)
			}
		}},
		{"repeat", []string{"--repeat", "2"}, 0, func(t *testing.T, r result, s *summary.Summary) {
			requireContains(t, r.stdout, "Repetitions: 2 runs of one configuration")
		}},
		{"live output", []string{"--out", "json=live.ndjson", "--warmup", "1s"}, 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			js := filepath.Join(dir, "s.json")
			args := append(append([]string{"run", "--quiet", "--data-dir", dir, "--json", js}, base...), c.args...)
			r := runBinary(t, dir, 3*time.Minute, nil, args...)
			requireCode(t, r, c.code)
			s := readSummary(t, js)
			if c.name == "repeat" { // the JSON is the repetitions' aggregate
				n, series := promSamples(t, smallProm, 20, 60), promSamples(t, smallProm, 20+5*2, 1)
				requireContains(t, r.stdout, fmt.Sprintf("Verify: stored %d points, expected %d, in %d series, expected %d: OK", n, n, series, series))
			} else if s.Verify == nil || !s.Verify.OK || len(s.Verify.Queries) != promReadLoad(t, smallProm).total() || s.Verify.Mismatch() {
				t.Fatalf("verify %+v", s.Verify)
			}
			if c.check != nil {
				c.check(t, r, s)
			}
		})
	}
}

// TestPrometheusWorkloadInRealTime writes the workload in real time
// (PROM_TIME=now) to VictoriaMetrics as a Prometheus server would: 12
// scrapes of 20 targets, each stamped and written at its time by the wall
// clock, a second apart, the rules and alerts asked as their scrapes are
// written (PROM_READS=while): the run lasts the scrapes' span, its first
// scrape is after the run began, every sample acknowledged is stored and
// every answer is the model's; the writes' latency is said to count from
// their scrapes' times.
func TestPrometheusWorkloadInRealTime(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "victoriametrics")
	dir := t.TempDir()
	js := filepath.Join(dir, "s.json")
	args := withSets(append(append([]string{"run", "--quiet", "--data-dir", dir, "--json", js, "--target", "victoriametrics"},
		promWorkloadShape...), promSmall...), "PROM_SCRAPES=12", "PROM_TIME=now", "PROM_READS=while")
	r := tsbench(t, nil, args...)
	if r.code != 0 {
		t.Fatal(failedRun(r))
	}
	s := readSummary(t, js)
	m := regexp.MustCompile(`12 scrapes every 1s in real time from (\S+),`).FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("the run does not say it writes in real time:\n%s", r.stderr)
	}
	first, err := time.Parse(time.RFC3339, m[1])
	if err != nil || first.Before(s.Started.Truncate(time.Second)) {
		t.Errorf("first scrape at %s (%v), the run began at %s: want it after", m[1], err, s.Started)
	}
	if s.Elapsed < 11 {
		t.Errorf("the run took %.1f s: 12 scrapes a second apart take 11 s at least", s.Elapsed)
	}
	if !s.RealTime || s.ClosedModel() || !strings.Contains(r.stdout, summary.RealTimeNote) {
		t.Errorf("real time %v, closed model %v: the writes' latency is not said to count from their scrapes' times:\n%s",
			s.RealTime, s.ClosedModel(), tail(r.stdout, 30))
	}
	v := s.Verify
	if want := promSamples(t, smallProm, 20, 12); v == nil || !v.OK || v.StoredPoints != want || v.ExpectedPoints != want {
		t.Fatalf("verify %+v, want %d samples stored", v, want)
	}
	if len(v.Queries) != promReadLoad(t, smallProm).total() || v.Mismatch() {
		t.Fatalf("answers checked: %+v", v.Queries)
	}
	for _, op := range s.Operations {
		if op.FailOperations != 0 {
			t.Errorf("%s: %d operations failed", op.Name, op.FailOperations)
		}
	}
}
