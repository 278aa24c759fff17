package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/output"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/testenv"
)

// The command: a 10-second run of the null target exporting to the
// real VictoriaMetrics and to a JSON-lines file leaves tsbench_* series
// whose totals equal the run's summary, and one line per second. At a
// rate: a closed loop on the null target would take both cores for the
// 10 s from the tests beside it, and the seconds are what is tested.
func TestLiveOutputs(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "victoriametrics")
	dir := t.TempDir()
	live := filepath.Join(dir, "live.ndjson")
	sum := filepath.Join(dir, "summary.json")
	r := runBinary(t, dir, 2*time.Minute, nil, "run", "--target", "null", "--duration", "10s", "--rate", "2000",
		"--out", "prometheus-rw=http://127.0.0.1:8428/api/v1/write", "--out", "json=live.ndjson",
		"--json", sum, "--data-dir", dir, "--results", "off", "--quiet")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := readSummary(t, sum)
	want := fmt.Sprintf("output prometheus-rw=http://127.0.0.1:8428/api/v1/write: %d samples sent\n", len(s.Intervals))
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
	lines := ndjson(t, live)
	if len(lines) != len(s.Intervals) || len(lines) < 10 {
		t.Fatalf("%d lines in live.ndjson for %d seconds", len(lines), len(s.Intervals))
	}
	for i, l := range lines {
		if l.Seq != i || l.RunID != s.RunID || l.Target != "null" {
			t.Errorf("line %d: seq %d, run %q, target %q", i+1, l.Seq, l.RunID, l.Target)
		}
	}
	var ops int64
	for _, o := range s.Operations {
		ops += o.OKOperations
	}
	// Every tsbench_operations_total series of the run, at its last
	// second, adds up to the summary's operations (polled: VictoriaMetrics
	// makes new samples searchable within seconds).
	sel := fmt.Sprintf(`tsbench_operations_total{run_id=%q}`, s.RunID)
	var got int64
	var names map[string]bool
	for i := 0; i < 40; i++ {
		got, names = vmLast(t, sel), vmNames(t, s.RunID)
		if got == ops {
			break
		}
		vmGet(t, "/internal/force_flush", nil)
		time.Sleep(250 * time.Millisecond)
	}
	if got != ops {
		t.Errorf("VictoriaMetrics has %d operations for run %s, the summary %d", got, s.RunID, ops)
	}
	for _, n := range []string{output.MetricOperations, output.MetricPoints, output.MetricLatency, output.MetricOpsPerSecond,
		"tsbench_tool_cpu_cores"} {
		if !names[n] {
			t.Errorf("no %s series in VictoriaMetrics (has %v)", n, names)
		}
	}
}

// A receiver that never answers neither slows nor fails the run: at a
// fixed rate the run does the same work as without it, finishes within a
// bounded wait, and reports the samples it could not deliver; with
// --out-required the same run exits 1.
func TestStalledLiveReceiver(t *testing.T) {
	testenv.Alone(t)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // never answers while the test runs
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	dir := t.TempDir()
	run := func(name string, extra ...string) (*summary.Summary, result, time.Duration) {
		sum := filepath.Join(dir, name+".json")
		args := append([]string{"run", "--target", "null", "--duration", "5s", "--rate", "500", "--json", sum,
			"--data-dir", dir, "--results", "off", "--quiet"}, extra...)
		begin := time.Now()
		r := runBinary(t, dir, 2*time.Minute, nil, args...)
		took := time.Since(begin)
		if r.code != 0 && !strings.Contains(name, "required") {
			t.Fatalf("%s: exit %d\n%s", name, r.code, r.stderr)
		}
		return readSummary(t, sum), r, took
	}
	base, _, baseTook := run("baseline")
	stalled, r, took := run("stalled", "--out", "prometheus-rw="+srv.URL+"/api/v1/write")
	if !strings.Contains(r.stderr, "0 samples sent") || !strings.Contains(r.stderr, "dropped") {
		t.Errorf("the drops are not reported:\n%s", r.stderr)
	}
	// A stalled receiver costs at most the exporter's bounded wait at the
	// end (5 s), never the run's own time.
	if took > baseTook+10*time.Second {
		t.Errorf("the run took %v with a stalled receiver, %v without", took, baseTook)
	}
	ops := func(s *summary.Summary) (n int64) {
		for _, o := range s.Operations {
			n += o.OKOperations
		}
		return n
	}
	// An open-model run at 500 operations a second does the same work
	// whatever happens beside it (2 %: the measured phase's edges).
	if b, s := ops(base), ops(stalled); b == 0 || float64(s) < 0.98*float64(b) || float64(s) > 1.02*float64(b) {
		t.Errorf("%d operations with a stalled receiver, %d without", s, b)
	}
	if b, s := base.Op("INGESTION").LatencyMS.P99, stalled.Op("INGESTION").LatencyMS.P99; s > 2*b+5 {
		t.Errorf("write p99 %.3f ms with a stalled receiver, %.3f ms without", s, b)
	}
	_, r, _ = run("stalled-required", "--out-required", "--out", "prometheus-rw="+srv.URL+"/api/v1/write")
	if r.code != 1 || !strings.Contains(r.stderr, "--out-required") {
		t.Errorf("--out-required with a stalled receiver: exit %d\n%s", r.code, r.stderr)
	}
}

// A bad --out is bad input: exit 2, naming the value and what is allowed.
func TestOutBadValue(t *testing.T) {
	inParallel(t)
	for _, v := range []string{"statsd=127.0.0.1:8125", "prometheus-rw=127.0.0.1:8428", "json="} {
		r := tsbench(t, nil, "run", "--target", "null", "--duration", "1s", "--out", v)
		if r.code != 2 || !strings.Contains(r.stderr, v) || !strings.Contains(r.stderr, "--out") {
			t.Errorf("--out %s: exit %d\n%s", v, r.code, r.stderr)
		}
	}
	r := tsbench(t, nil, "run", "--target", "null", "--duration", "1s", "--set", "OUTPUTS=csv")
	if r.code != 2 || !strings.Contains(r.stderr, "OUTPUTS") || !strings.Contains(r.stderr, "prometheus-rw=URL") {
		t.Errorf("OUTPUTS=csv: exit %d\n%s", r.code, r.stderr)
	}
}

func ndjson(t *testing.T, path string) []output.Sample {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []output.Sample
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var s output.Sample
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("%s line %d: %v", path, len(out)+1, err)
		}
		out = append(out, s)
	}
	return out
}

func vmGet(t *testing.T, path string, q url.Values) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	u := "http://127.0.0.1:8428" + path
	if q != nil {
		u += "?" + q.Encode()
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %s", u, resp.Status, body)
	}
	return body
}

// vmLast adds up the last sample of every series matching sel.
func vmLast(t *testing.T, sel string) int64 {
	body := vmGet(t, "/api/v1/export", url.Values{"match[]": {sel}, "start": {"-1h"}})
	var n int64
	for _, row := range strings.Split(strings.TrimSpace(string(body)), "\n") {
		var line struct {
			Values []float64 `json:"values"`
		}
		if json.Unmarshal([]byte(row), &line) == nil && len(line.Values) > 0 {
			n += int64(line.Values[len(line.Values)-1])
		}
	}
	return n
}

// vmNames are the metric names of a run's series.
func vmNames(t *testing.T, runID string) map[string]bool {
	body := vmGet(t, "/api/v1/series", url.Values{"match[]": {fmt.Sprintf(`{__name__=~"tsbench_.*",run_id=%q}`, runID)},
		"start": {"-1h"}})
	var ans struct {
		Data []map[string]string `json:"data"`
	}
	if err := json.Unmarshal(body, &ans); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, s := range ans.Data {
		out[s["__name__"]] = true
	}
	return out
}

// A TPC-C run exports its seconds too: one JSON line per second, whose
// last running totals equal each transaction's count in the summary.
func TestLiveOutputsTPCC(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "mysql")
	dir := t.TempDir()
	sum := filepath.Join(dir, "out.json")
	r := runBinary(t, dir, 3*time.Minute, nil, "run", "--workload", "tpcc", "--target", "mysql", "--warehouses", "1",
		"--clients", "4", "--duration", "3s", "--quiet", "--data-dir", dir, "--results", "off", "--json", sum,
		"--set", "DB_NAME=tsbench_live_tpcc", "--out", "json=tpcc.ndjson")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := readSummary(t, sum)
	lines := ndjson(t, filepath.Join(dir, "tpcc.ndjson"))
	if len(lines) != len(s.Intervals) || len(lines) < 3 {
		t.Fatalf("%d lines for %d seconds", len(lines), len(s.Intervals))
	}
	last := map[string]int64{}
	for _, o := range lines[len(lines)-1].Ops {
		last[o.Name] = o.OKOpsTotal
	}
	for _, o := range s.Operations {
		if last[o.Name] != o.OKOperations {
			t.Errorf("%s: %d exported, %d in the summary", o.Name, last[o.Name], o.OKOperations)
		}
	}
}
