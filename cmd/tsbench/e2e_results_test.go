package main

// End-to-end tests of keeping runs: every run lands in the results store
// (SQLite by default), 'runs' lists and shows it, 'report' writes an HTML
// file whose charts a real headless Chromium draws, 'compare' sets two runs
// side by side, thresholds gate the exit status, resources are sampled,
// 'monitor' samples merge into a report, and a store that cannot be reached
// costs the run nothing.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/compare"
	"github.com/tsbench/tsbench/internal/htmlreport/browser"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/results/resultstest"
	"github.com/tsbench/tsbench/internal/summary"
)

var storedLine = regexp.MustCompile(`Stored: run (\S+) in (.+) \(tsbench runs show`)

// storedRun returns the id and store of a run from its output.
func storedRun(t *testing.T, r result) (id, store string) {
	t.Helper()
	m := storedLine.FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("no 'Stored:' line (exit %d)\nstdout:\n%s\nstderr:\n%s", r.code, resTail(r.stdout, 1500), resTail(r.stderr, 1500))
	}
	return m[1], m[2]
}

func resTail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

func mustExit(t *testing.T, r result, code int, what string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", what, r.code, code, resTail(r.stdout, 2000), resTail(r.stderr, 2000))
	}
}

// checkContains reports each of wants that text lacks, with the text.
func checkContains(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, resTail(text, 4000))
		}
	}
}

// requireContains is checkContains that stops the test at the first
// missing one.
func requireContains(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Fatalf("lacks %q:\n%s", want, resTail(text, 4000))
		}
	}
}

// reportPage writes the HTML report of the stored run id (in dataDir) and
// returns the page.
func reportPage(t *testing.T, dataDir, id string) string {
	t.Helper()
	path := filepath.Join(dataDir, id+".html")
	if r := tsbench(t, nil, "report", "--data-dir", dataDir, id, "-o", path); r.code != 0 {
		t.Fatalf("report: exit %d\n%s", r.code, r.stderr)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(page)
}

// artifactDir is where CI keeps screenshots: $TSBENCH_ARTIFACTS, else
// .ci/out in CI; "" otherwise.
func artifactDir() string {
	if d := os.Getenv("TSBENCH_ARTIFACTS"); d != "" {
		return d
	}
	if os.Getenv("CI") != "" {
		return filepath.Join("..", "..", ".ci", "out")
	}
	return ""
}

func TestRunsStoredReportedCompared(t *testing.T) {
	dir := t.TempDir()
	env := []string{"TSBENCH_DATA_DIR=" + dir, "TSBENCH_RESULTS="}
	// Writes and two query kinds, for three seconds each: the per-second
	// series have enough points to compare.
	mix := []string{"run", "--quiet", "--duration", "3s", "--loop", "1000000", "--clients", "2", "--devices", "4",
		"--set", "OPERATION_PROPORTION=6:0:1:0:1:0:0:0:0:0:0"}

	// A stand-in database server: any process will do for --server-pid.
	server := exec.Command("sleep", "60")
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { server.Process.Kill(); server.Wait() }()

	// 'tsbench monitor' samples the host meanwhile, as on a database host.
	monFile := filepath.Join(dir, "dbhost.jsonl")
	mon := startBackground(t, nil, "monitor", "--out", monFile, "--pid", strconv.Itoa(server.Process.Pid))
	time.Sleep(1500 * time.Millisecond)

	r1 := tsbench(t, env, append(mix, "--server-pid", strconv.Itoa(server.Process.Pid))...)
	mustExit(t, r1, 0, "first run")
	id1, store := storedRun(t, r1)
	if want := filepath.Join(dir, "results.db"); store != want {
		t.Errorf("store %q, want %q", store, want)
	}
	if !strings.Contains(r1.stdout, "Resources: tool ") {
		t.Errorf("no resource line:\n%s", resTail(r1.stdout, 800))
	}
	time.Sleep(1200 * time.Millisecond)
	mon.interrupt(t)

	// The stored run holds the resource samples, the server process among
	// them, and its histograms.
	s1 := readSummary(t, filepath.Join(dir, "runs", id1, "summary.json"))
	if s1.Resources == nil || len(s1.Resources.Samples) < 2 || s1.Resources.Server == nil ||
		s1.Resources.Server.PID != int32(server.Process.Pid) || s1.MeasureStarted.IsZero() {
		t.Fatalf("resources of the first run: %+v", s1.Resources)
	}
	busy := false
	for _, smp := range s1.Resources.Samples {
		if smp.Tool == nil || smp.Host == nil || smp.Server == nil || smp.Tool.RSSBytes == 0 || smp.Host.MemTotalBytes == 0 {
			t.Fatalf("incomplete sample %+v", smp)
		}
		busy = busy || smp.Tool.CPUPercent > 0
	}
	if !busy {
		t.Error("the tool never used CPU, by its samples")
	}

	hlog := filepath.Join(dir, "hlog")
	r2 := tsbench(t, env, append(mix, "--threshold", "errors==0", "--threshold", "INGESTION.throughput>1", "--hdr-log", hlog)...)
	mustExit(t, r2, 0, "run with passing thresholds")
	id2, _ := storedRun(t, r2)
	if b, err := os.ReadFile(filepath.Join(hlog, id2+".hlog")); err != nil || !strings.Contains(string(b), "Tag=INGESTION,") {
		t.Errorf("HDR log: %v\n%.300s", err, b)
	}

	r3 := tsbench(t, env, "run", "--quiet", "--loop", "20", "--threshold", "INGESTION.p99<1us")
	mustExit(t, r3, 99, "run with a failing threshold")
	id3, _ := storedRun(t, r3)

	// Listed newest first, with filters.
	r := tsbench(t, env, "runs")
	mustExit(t, r, 0, "runs")
	for _, id := range []string{id1, id2, id3} {
		if !strings.Contains(r.stdout, id) {
			t.Errorf("runs lacks %s:\n%s", id, r.stdout)
		}
	}
	if strings.Index(r.stdout, id3) > strings.Index(r.stdout, id1) || !strings.Contains(r.stdout, "threshold-failed") {
		t.Errorf("runs not newest first, or no status:\n%s", r.stdout)
	}
	r = tsbench(t, env, "runs", "--status", "threshold-failed", "--json")
	mustExit(t, r, 0, "runs --status --json")
	var listed []results.RunInfo
	if err := json.Unmarshal([]byte(r.stdout), &listed); err != nil || len(listed) != 1 || listed[0].ID != id3 {
		t.Errorf("runs --status threshold-failed: %v %s", err, r.stdout)
	}
	r = tsbench(t, env, "runs", "--target", "sqlite", "--since", "1h", "--limit", "2")
	if lines := strings.Count(r.stdout, "\n20"); r.code != 0 || lines != 2 {
		t.Errorf("runs --limit 2: exit %d, %d runs:\n%s", r.code, lines, r.stdout)
	}
	r = tsbench(t, env, "runs", "--target", "null")
	if r.code != 0 || !strings.Contains(r.stdout, "No runs") {
		t.Errorf("runs --target null: exit %d\n%s", r.code, r.stdout)
	}
	mustExit(t, tsbench(t, env, "runs", "--since", "yesterday-ish"), 2, "runs --since nonsense")

	// Shown as at the end of the run, by a unique prefix.
	r = tsbench(t, env, "runs", "show", id1[:len(id1)-2])
	mustExit(t, r, 0, "runs show")
	checkContains(t, r.stdout, "Run "+id1, "Result Matrix", "Latency (ms) Matrix", "INGESTION", "TIME_RANGE", "Verify:", "Resources:")
	mustExit(t, tsbench(t, env, "runs", "show", "no-such-run"), 2, "runs show unknown")

	// Exports.
	js := filepath.Join(dir, "export.json")
	mustExit(t, tsbench(t, env, "runs", "export", id2, "--format", "json", "-o", js), 0, "export json")
	if s := readSummary(t, js); s.RunID != id2 || len(s.Thresholds) != 2 || len(s.Intervals) < 2 {
		t.Errorf("exported JSON: %s, %d thresholds, %d intervals", s.RunID, len(s.Thresholds), len(s.Intervals))
	}
	csvDir := filepath.Join(dir, "csv")
	mustExit(t, tsbench(t, env, "runs", "export", id1, "--format", "csv", "-o", csvDir), 0, "export csv")
	for _, f := range []string{"result.csv", "latency.csv", "intervals.csv", "resources.csv"} {
		if st, err := os.Stat(filepath.Join(csvDir, f)); err != nil || st.Size() == 0 {
			t.Errorf("export csv: %s: %v", f, err)
		}
	}
	// A path that cannot be written is bad input: exit 2, naming the flag,
	// the path and why.
	blocker := filepath.Join(dir, "a-file")
	os.WriteFile(blocker, []byte("x"), 0o644)
	for _, format := range []string{"json", "csv", "hdr"} {
		bad := filepath.Join(blocker, "out")
		r = tsbench(t, env, "runs", "export", id1, "--format", format, "-o", bad)
		if r.code != 2 || !strings.Contains(r.stderr, "--output "+bad) || !strings.Contains(r.stderr, "not a directory") {
			t.Errorf("export %s to %s: exit %d, want 2 naming --output, the path and the reason:\n%s", format, bad, r.code, r.stderr)
		}
	}
	r = tsbench(t, env, "runs", "export", "latest", "--format", "hdr")
	if r.code != 0 || !strings.Contains(r.stdout, "#[Histogram log format version") || !strings.Contains(r.stdout, "Tag=INGESTION,") {
		t.Errorf("export hdr: exit %d\n%.400s", r.code, r.stdout)
	}

	// Compared.
	r = tsbench(t, env, "compare", id1, id2)
	mustExit(t, r, 0, "compare")
	checkContains(t, r.stdout, "Baseline (A): "+id1, "B: "+id2, "INGESTION", "throughput (points/s)", "p99 (ms)", "max (ms)", "Welch")
	// A query's throughput is its queries per second (issue 67), not the
	// points of its answers.
	if !regexp.MustCompile(`(?m)^TIME_RANGE +throughput \(queries/s\)`).MatchString(r.stdout) ||
		regexp.MustCompile(`(?m)^(TIME_RANGE|AGG_RANGE) +throughput \(points/s\)`).MatchString(r.stdout) {
		t.Errorf("compare: the queries' throughput is not in queries/s:\n%s", r.stdout)
	}
	r = tsbench(t, env, "compare", id1, "latest~1", "--json")
	mustExit(t, r, 0, "compare --json")
	var cmp compare.Result
	if err := json.Unmarshal([]byte(r.stdout), &cmp); err != nil || cmp.Baseline.ID != id1 || len(cmp.Pairs) != 1 ||
		cmp.Pairs[0].Run.ID != id2 || len(cmp.Pairs[0].Operations) == 0 || cmp.Pairs[0].Operations[0].Metrics[0].Test != "welch" {
		t.Errorf("compare --json: %v\n%.600s", err, r.stdout)
	}
	mustExit(t, tsbench(t, env, "compare", id1), 2, "compare with one run")

	// Reported, with the monitor's samples merged in, and drawn by a browser.
	html := filepath.Join(dir, "report.html")
	r = tsbench(t, env, "report", id1, id2, "--monitor", monFile, "-o", html)
	mustExit(t, r, 0, "report")
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	checkContains(t, string(page), id1, id2, "Result Matrix", "Latency (ms) Matrix", `id="charts-resources"`, "db host ", "Configuration", "Environment",
		"Comparison with run A", "What differs between the runs")
	bin := browser.Require(t)
	ctx := context.Background()
	charts, err := browser.Charts(ctx, bin, html)
	if err != nil {
		t.Fatal(err)
	}
	// Small multiples: throughput, latency and spectrum per operation (3
	// operations), then CPU, memory, disk and network.
	if err := browser.CheckDrawn(charts, 3*3+4); err != nil {
		t.Fatalf("%v\n%+v", err, charts)
	}
	if out := artifactDir(); out != "" {
		png := filepath.Join(out, "report.png")
		if err := browser.Screenshot(ctx, bin, html, png, 1400, 2600); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot of the report: %s", png)
	}
}

// A store that cannot be written or reached costs the run nothing: results
// are printed, summary.json is written, the failure names the store
// (without its password) and says how to import the run later.
func TestUnreachableStoreKeepsTheRun(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	env := []string{"TSBENCH_DATA_DIR=" + dir, "TSBENCH_RESULTS="}
	blocker := filepath.Join(dir, "not-a-dir")
	if err := os.WriteFile(blocker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, store := range []string{filepath.Join(blocker, "results.db"), "postgres://bench:s3cretpw@127.0.0.1:1/results"} {
		r := tsbench(t, env, "run", "--quiet", "--loop", "20", "--results", store)
		mustExit(t, r, 0, "run with a broken store")
		if !strings.Contains(r.stdout, "Result Matrix") || strings.Contains(r.stdout, "Stored:") {
			t.Errorf("%s: stdout:\n%s", store, resTail(r.stdout, 600))
		}
		shown := results.Redact(store)
		if !strings.Contains(r.stderr, "could not store the run in the results store "+shown) || !strings.Contains(r.stderr, "tsbench runs import ") ||
			strings.Contains(r.stderr+r.stdout, "s3cretpw") {
			t.Errorf("%s: stderr:\n%s", store, r.stderr)
		}
		m := regexp.MustCompile(`runs import (\S+summary\.json)`).FindStringSubmatch(r.stderr)
		if m == nil {
			t.Fatalf("no summary path in:\n%s", r.stderr)
		}
		if _, err := os.Stat(m[1]); err != nil {
			t.Errorf("the run's summary.json: %v", err)
		}
		// Imported later into the default store.
		r = tsbench(t, env, "runs", "import", m[1])
		mustExit(t, r, 0, "runs import")
	}
	r := tsbench(t, env, "runs")
	if r.code != 0 || strings.Count(r.stdout, "\n20") != 2 {
		t.Errorf("imported runs not listed:\n%s", r.stdout)
	}
	r = tsbench(t, env, "run", "--quiet", "--loop", "5", "--results", "redis://u:pw@h/0")
	if r.code != 2 || !strings.Contains(r.stderr, "unknown scheme") || strings.Contains(r.stderr, ":pw@") {
		t.Errorf("bad --results: exit %d\n%s", r.code, r.stderr)
	}
	// --results off stores nothing.
	r = tsbench(t, env, "run", "--quiet", "--loop", "5", "--results", "off")
	if r.code != 0 || strings.Contains(r.stdout+r.stderr, "Stored:") || strings.Contains(r.stderr, "could not store") {
		t.Errorf("--results off: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// A run is in the store while it runs, second by second; one whose process
// is killed outright keeps the seconds it measured, and 'runs show' prints
// its matrices from them.
func TestRunStoredAsItGoes(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	env := []string{"TSBENCH_DATA_DIR=" + dir, "TSBENCH_RESULTS="}
	cmd := exec.Command(binary, "run", "--quiet", "--duration", "60s", "--loop", "100000000", "--devices", "4", "--clients", "2",
		"--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0")
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()

	// Within 30 s the running run is listed and has stored 3 seconds.
	var live summary.Summary
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no running run with 3 stored seconds after 30 s: %+v", live.Intervals)
		}
		r := tsbench(t, env, "runs", "show", "latest", "--json")
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &live) != nil {
			continue
		}
		if len(live.Intervals) >= 3 {
			break
		}
	}
	if live.StopReason != "incomplete" || live.Resources == nil || len(live.Resources.Samples) == 0 {
		t.Fatalf("running run: stop reason %q, resources %+v", live.StopReason, live.Resources)
	}
	r := tsbench(t, env, "runs", "--status", "running")
	if r.code != 0 || !strings.Contains(r.stdout, live.RunID) {
		t.Fatalf("runs --status running: exit %d\n%s", r.code, r.stdout)
	}

	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	killed = true

	r = tsbench(t, env, "runs", "show", live.RunID)
	mustExit(t, r, 0, "runs show of a killed run")
	checkContains(t, r.stdout, "status running", "Incomplete:", "Result Matrix", "INGESTION")
	// The matrices add up the stored seconds.
	r = tsbench(t, env, "runs", "show", live.RunID, "--json")
	var dead summary.Summary
	if err := json.Unmarshal([]byte(r.stdout), &dead); err != nil {
		t.Fatal(err)
	}
	var points int64
	for _, iv := range dead.Intervals {
		for _, o := range iv.Ops {
			points += o.OKPoints
		}
	}
	if len(dead.Intervals) < len(live.Intervals) || len(dead.Operations) != 1 || dead.Operations[0].OKPoints != points || points == 0 {
		t.Fatalf("killed run: %d seconds (%d seen live), operations %+v, %d points in its seconds",
			len(dead.Intervals), len(live.Intervals), dead.Operations, points)
	}
}

// A results store held locked by another process (here, an open exclusive
// transaction) costs the run nothing either: it runs, prints, writes its
// JSON, and says the store could not take it, naming the file.
func TestLockedStoreKeepsTheRun(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	env := []string{"TSBENCH_DATA_DIR=" + dir, "TSBENCH_RESULTS="}
	mustExit(t, tsbench(t, env, "run", "--quiet", "--loop", "5"), 0, "first run, creating the store")
	store := filepath.Join(dir, "results.db")
	resultstest.LockSQLite(t, store)
	r := tsbench(t, env, "run", "--quiet", "--loop", "20")
	mustExit(t, r, 0, "run with a locked store")
	if !strings.Contains(r.stdout, "Result Matrix") || strings.Contains(r.stdout, "Stored:") ||
		!strings.Contains(r.stderr, "could not store the run in the results store "+store) {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", resTail(r.stdout, 800), r.stderr)
	}
	m := regexp.MustCompile(`runs import (\S+summary\.json)`).FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("no summary path in:\n%s", r.stderr)
	}
	if s := readSummary(t, m[1]); len(s.Operations) == 0 || s.Op("INGESTION").OKOperations == 0 {
		t.Fatalf("the kept summary: %+v", s.Operations)
	}
}
