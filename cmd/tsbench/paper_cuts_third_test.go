package main

// Paper cuts, third round (issue 67): one vocabulary for TSBS's workloads
// (generate takes run's workload flag and names, and both take TSBS's own
// flag names), and an own query's inline list read as YAML reads a flow
// sequence.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/testenv"
)

// The command, TSBS's flag names and the workload as run names it,
// writes the bytes tsbs_generate_data writes with the same flags: the
// sha256 and size of TSBS's two-day file (too large to keep: TSBS's golden
// folder holds them) and, to show where they part, TSBS's first hour, which
// the two-day file begins with.
func TestGenerateTSBSByTSBSFlags(t *testing.T) {
	inParallel(t)
	out := filepath.Join(t.TempDir(), "F")
	r := tsbench(t, nil, "generate", "--workload", "tsbs-cpu-only", "--format", "timescaledb", "--seed", "321", "--scale", "8",
		"--timestamp-start", "2016-01-01T00:00:00Z", "--timestamp-end", "2016-01-03T00:00:00Z", "--log-interval", "10s", "--out", out)
	if r.code != 0 || !strings.Contains(r.stdout, "Wrote 138240 rows of 8 hosts (cpu-only, TSBS's rows, seed 321)") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	hour := goldenText(t, filepath.Join(tsbsQueryGolden, "cpu-only_seed321_scale8_1h_10s.timescaledb"))
	if !strings.HasPrefix(string(got), hour) {
		gl, hl := strings.Split(string(got), "\n"), strings.Split(hour, "\n")
		for i := range min(len(gl), len(hl)) {
			if gl[i] != hl[i] {
				t.Fatalf("line %d: wrote %q, TSBS wrote %q", i+1, gl[i], hl[i])
			}
		}
		t.Fatalf("wrote %d lines, TSBS's first hour has %d", len(gl), len(hl))
	}
	want := strings.Fields(testenv.ReadText(t, filepath.Join(tsbsQueryGolden, "cpu-only_seed321_scale8_2d_10s.timescaledb.sha256")))
	sum := sha256.Sum256(got)
	if len(want) != 3 || hex.EncodeToString(sum[:]) != want[0] || strconv.Itoa(len(got)) != want[1] {
		t.Errorf("wrote %d bytes, sha256 %x; TSBS's file: %v", len(got), sum, want)
	}
}

// Every way of naming the workload and its settings writes the same file:
// the keys as the issue had to give them, WORKLOAD by --set, TSBS's
// --use-case; and a TSBS flag where no TSBS workload is named, or two
// workloads, exit 2 naming them.
func TestTSBSVocabularyAgrees(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	span := []string{"--timestamp-start", "2016-01-01T00:00:00Z", "--timestamp-end", "2016-01-01T01:00:00Z", "--log-interval", "10s"}
	ways := map[string][]string{
		"keys": {"--set", "TSBS_USE_CASE=cpu-only", "--set", "TSBS_PHASE=load", "--set", "TSBS_SEED=321", "--set", "TSBS_SCALE=8",
			"--set", "TSBS_START=2016-01-01T00:00:00Z", "--set", "TSBS_END=2016-01-01T01:00:00Z", "--set", "TSBS_LOG_INTERVAL=10s"},
		"set workload": append([]string{"--set", "WORKLOAD=tsbs-cpu-only", "--seed", "321", "--scale", "8"}, span...),
		"use-case":     append([]string{"--use-case", "CPU-Only", "--seed", "321", "--scale", "8"}, span...), // in any case, as WORKLOAD
	}
	want := goldenText(t, filepath.Join(tsbsQueryGolden, "cpu-only_seed321_scale8_1h_10s.timescaledb"))
	for name, args := range ways {
		out := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		r := tsbench(t, nil, append([]string{"generate", "--format", "timescaledb", "--out", out}, args...)...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", name, r.code, r.stderr)
		}
		if got := testenv.ReadText(t, out); got != want {
			t.Errorf("%s: %d bytes differ from TSBS's %d", name, len(got), len(want))
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"generate", "--seed", "321", "--loop", "2", "--out", filepath.Join(dir, "x")}, "--seed is TSBS's --seed (TSBS_SEED)"},
		{[]string{"run", "--target", "null", "--log-interval", "10s"}, "--log-interval is TSBS's --log-interval (TSBS_LOG_INTERVAL)"},
		{[]string{"generate", "--workload", "tsbs-iot", "--use-case", "cpu-only", "--out", filepath.Join(dir, "x")},
			"--workload tsbs-iot and --use-case cpu-only name two TSBS workloads"},
		{[]string{"run", "--scenario", "iotdb-crrc", "--use-case", "cpu-only"}, "and --scenario iotdb-crrc another"},
		{[]string{"generate", "--workload", "tsbs-devops", "--seed", "5", "--out", filepath.Join(dir, "x")}, "--seed 5: TSBS's seed makes TSBS's own rows"},
		{[]string{"generate", "--use-case", "cpu", "--out", filepath.Join(dir, "x")}, `TSBS has no use case "cpu" here: allowed: cpu-only, devops, iot`},
	} {
		r := tsbench(t, nil, tc.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("tsbench %s: exit %d, %s; want 2 and %q", strings.Join(tc.args, " "), r.code, r.stderr, tc.want)
		}
	}
}

// A TSBS run by TSBS's flag names: --use-case is the workload, --scale its
// hosts, --seed its rows' seed, --queries each query type's count.
func TestTSBSRunByTSBSFlags(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	r := tsbench(t, nil, "run", "--use-case", "cpu-only", "--scale", "8", "--seed", "9", "--timestamp-end", "2016-01-01T00:10:00Z",
		"--queries", "2", "--target", "sqlite", "--results", "off", "--data-dir", dir, "--quiet")
	if r.code != 0 {
		t.Fatal(failedRun(r))
	}
	if !strings.Contains(r.stdout, "\n   single-groupby-1-8-1      GROUP_BY        2       0") {
		t.Errorf("no single-groupby-1-8-1 line of 2 queries:\n%s", tail(r.stdout, 20))
	}
	runs, _ := filepath.Glob(filepath.Join(dir, "runs", "*", "summary.json"))
	load := 0
	for _, f := range runs {
		s := readSummary(t, f)
		if s.Config["tsbs_phase"] != "load" {
			continue
		}
		load++
		if s.Config["device_number"] != 8.0 || s.Config["tsbs_seed"] != 9.0 || s.Config["workload"] != "tsbs-cpu-only" ||
			s.Verify == nil || s.Verify.StoredPoints != 8*60*10 {
			t.Errorf("load: devices %v, seed %v, workload %v, verify %+v; want 8 hosts x 60 rows x 10 fields, seed 9",
				s.Config["device_number"], s.Config["tsbs_seed"], s.Config["workload"], s.Verify)
		}
	}
	if load != 1 {
		t.Errorf("%d load phases among %d runs", load, len(runs))
	}
}

// The issue's inline list, quotes of both kinds and YAML's \" escape,
// runs: every answer is the value drawn, bound as a value, and the data
// is intact after the run.
func TestInlineChoiceListRuns(t *testing.T) {
	inParallel(t)
	_, s := runOwnQueries(t, t.TempDir(), "sqlite", `queries:
  - name: echo
    params:
      t: choice ["o'neil", "a\"b", "x; DROP TABLE points; --"]
    sql: SELECT {{t}}
`, "--loop", "60", "--devices", "2", "--clients", "2", "--sensors", "3", "--set", "QUERY_CHECKS=12")
	if op := s.Op("echo"); op == nil || op.OKOperations == 0 || op.FailOperations != 0 {
		t.Fatalf("echo: %+v", op)
	}
	if s.Verify == nil || !s.Verify.OK {
		t.Fatalf("the data did not survive the run: %+v", s.Verify)
	}
	want := map[string]bool{"o'neil": true, `a"b`: true, "x; DROP TABLE points; --": true}
	seen := map[string]bool{}
	for _, a := range ownQuery(t, s, "echo").Answers {
		var drawn string
		if err := json.Unmarshal([]byte(a.Params["t"]), &drawn); err != nil || !want[drawn] {
			t.Fatalf("t = %s (%v): not one of the list's values", a.Params["t"], err)
		}
		if got, _ := a.Sample[0][0].(string); a.Error != "" || got != drawn {
			t.Errorf("t = %q answered %v (%s), want the value itself", drawn, a.Sample, a.Error)
		}
		seen[drawn] = true
	}
	if len(seen) < 2 {
		t.Errorf("12 checked answers drew only %v", seen)
	}
}

// An inline list YAML cannot read is refused with exit 2, its file:line,
// and the {choice: [...]} form named.
func TestInlineChoiceListRefusedNamesTheMappingForm(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	q := writeInputFile(t, dir, "q.yaml", "queries:\n  - name: echo\n    params:\n      t: choice [\"a, b]\n    sql: SELECT {{t}}\n")
	r := tsbench(t, nil, "run", "--target", "sqlite", "--queries", q, "--data-dir", dir, "--loop", "10", "--quiet")
	if r.code != 2 || !strings.Contains(r.stderr, "q.yaml:4: query echo: parameter t:") ||
		!strings.Contains(r.stderr, "{choice: [...]}") {
		t.Errorf("exit %d, stderr:\n%s\nwant 2, the line and the {choice: [...]} form", r.code, r.stderr)
	}
}
