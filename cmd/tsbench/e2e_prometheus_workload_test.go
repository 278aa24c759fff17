package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// promWorkloadShape is a small prometheus workload: 20 targets scraped
// every second for a minute, a tenth of them replaced every 10 scrapes.
var promWorkloadShape = []string{"--workload", "prometheus", "--set", "PROM_TARGETS=20", "--set", "PROM_SCRAPE_INTERVAL=1s",
	"--set", "PROM_SCRAPES=60", "--set", "PROM_CHURN_SHARE=0.1", "--set", "PROM_CHURN_PERIOD=10", "--clients", "4"}

// TestPrometheusWorkload writes the workload by remote write to each store
// (Thanos' answers carry its tenant and receive labels, left out)
// and asks its read load: exit 0, every sample acknowledged stored (20
// targets x 41 series x 60 scrapes; the staleness markers are written but
// not counted), every RULE, ALERT and DASHBOARD operation done without a
// failure, and every one of the 15 queries' answers checked equal to the
// model's.
func TestPrometheusWorkload(t *testing.T) {
	for _, target := range []string{"victoriametrics", "prometheus", "mimir", "thanos"} {
		t.Run(target, func(t *testing.T) {
			requireTargetServer(t, target)
			srv := targetServers[target]
			args := []string{"--target", target, "--set", "PORT=" + srv.addr[strings.LastIndex(srv.addr, ":")+1:]}
			if target == "thanos" {
				args = append(args, "--set", "target.query_port=10904") // Thanos Query beside Receive
			}
			s, out := runVerified(t, append(args, promWorkloadShape...)...)
			if s.Verify.StoredPoints != 20*41*60 || s.Verify.ExpectedPoints != 20*41*60 {
				t.Errorf("stored %d samples, acknowledged %d, want %d", s.Verify.StoredPoints, s.Verify.ExpectedPoints, 20*41*60)
			}
			if !strings.Contains(out, "Verify: stored 49200 points, expected 49200: OK") {
				t.Errorf("no verification OK line:\n%s", tail(out, 30))
			}
			ops := map[string]int64{}
			for _, op := range s.Operations {
				if op.FailOperations != 0 {
					t.Errorf("%s: %d operations failed", op.Name, op.FailOperations)
				}
				ops[op.Name] = op.OKOperations
			}
			// 56 evaluation times (scrapes 4..59) x 5 rules and 4 alerts;
			// the 6 dashboards once; a request per scrape and client.
			want := map[string]int64{"INGESTION": 240, "RULE": 56 * 5, "ALERT": 56 * 4, "DASHBOARD": 6}
			for name, n := range want {
				if ops[name] != n {
					t.Errorf("%s: %d operations done, want %d", name, ops[name], n)
				}
			}
			if len(s.Verify.Queries) != 15 || s.Verify.Mismatch() {
				t.Fatalf("answers checked: %+v", s.Verify.Queries)
			}
			for _, q := range s.Verify.Queries {
				if !q.OK || q.Points == 0 {
					t.Errorf("%s: %+v", q.Query, q)
				}
			}
		})
	}
}

// TestPrometheusWorkloadRefusals: what the workload cannot take is refused
// with exit 2 naming it, before anything runs (no server needed).
func TestPrometheusWorkloadRefusals(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--target", "influxdb"}, "prometheus, victoriametrics, mimir, thanos"},
		{[]string{"--target", "victoriametrics", "--set", "FRESHNESS=true"}, "FRESHNESS = true: not with WORKLOAD = prometheus"},
		{[]string{"--target", "victoriametrics", "--set", "CRASH_AT=5s"}, "CRASH_AT = 5s: not with WORKLOAD = prometheus: not built for this workload yet"},
		{[]string{"--target", "victoriametrics", "--find-max", "INGESTION.p99<50ms"}, "--find-max (FIND_MAX): not with WORKLOAD = prometheus"},
		{[]string{"--target", "victoriametrics,prometheus"}, "several targets compared: not with WORKLOAD = prometheus"},
		{[]string{"--target", "victoriametrics", "--workers", "2", "--group", "g"}, "WORKERS"},
		{[]string{"--target", "victoriametrics", "--set", "PROM_SCRAPES=4000"}, "PROM_SCRAPES"},
		{[]string{"--target", "victoriametrics", "--set", "PROM_CHURN_SHARE=1.5"}, "PROM_CHURN_SHARE"},
		{[]string{"--target", "prometheus", "--set", "target.write_path=remote-write-v2"}, "write_path = remote-write-v2"},
		{[]string{"--target", "victoriametrics", "--threshold", "Q1.p99<1s"}, "allowed: INGESTION, RULE, ALERT, DASHBOARD"},
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
		"--target", "victoriametrics", "--set", "HOST=" + u.Hostname(), "--set", "PORT=" + u.Port()}, promWorkloadShape...)...)
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
	requireTargetServer(t, "victoriametrics")
	base := append([]string{"--target", "victoriametrics", "--set", "PORT=8428"}, promWorkloadShape...)
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
				requireContains(t, r.stdout, "Verify: stored 49200 points, expected 49200: OK")
			} else if s.Verify == nil || !s.Verify.OK || len(s.Verify.Queries) != 15 || s.Verify.Mismatch() {
				t.Fatalf("verify %+v", s.Verify)
			}
			if c.check != nil {
				c.check(t, r, s)
			}
		})
	}
}
