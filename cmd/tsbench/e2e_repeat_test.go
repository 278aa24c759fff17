package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/compare"
	"github.com/tsbench/tsbench/internal/testenv"
)

// repeatGroup runs one configuration --repeat n times on SQLite, paced at
// one write per client every interval milliseconds (so that throughput is
// set by the schedule, not by how busy the machine is), and returns the
// repetitions' run ids, checking the figures over them.
func repeatGroup(t *testing.T, dataDir, name string, n, intervalMS int) (runIDs []string) {
	t.Helper()
	out := filepath.Join(dataDir, name+".json")
	r := tsbench(t, nil, "run", "--target", "sqlite", "--data-dir", dataDir, "--quiet", "--no-check", "--repeat", fmt.Sprint(n),
		"--duration", "2s", "--clients", "2", "--devices", "4", "--sensors", "10", "--batch-size", "10",
		"--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0", "--set", fmt.Sprintf("OP_MIN_INTERVAL=%d", intervalMS), "--json", out)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	requireContains(t, r.stdout, fmt.Sprintf("==================== repetition %d of %d", n, n),
		fmt.Sprintf("Repetitions: %d runs of one configuration", n), "throughput (points/s)", "95% CI")
	var doc struct {
		Group   string           `json:"group"`
		RunIDs  []string         `json:"run_ids"`
		Figures []compare.Spread `json:"figures"`
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.RunIDs) != n || len(doc.Figures) != 3 {
		t.Fatalf("--json: %v %s", err, b)
	}
	for i := 1; i <= n; i++ {
		s := readSummary(t, filepath.Join(dataDir, fmt.Sprintf("%s-r%d.json", name, i)))
		if s.Repeat == nil || s.Repeat.Group != doc.Group || s.Repeat.Index != i || s.Repeat.Of != n || s.RunID != doc.RunIDs[i-1] {
			t.Fatalf("repetition %d: %+v (run %s), want of group %s", i, s.Repeat, s.RunID, doc.Group)
		}
	}
	tp := doc.Figures[0]
	if tp.Metric != "throughput" || len(tp.Values) != n || tp.CILow > tp.Mean || tp.CIHigh < tp.Mean {
		t.Fatalf("throughput over the repetitions: %+v", tp)
	}
	return doc.RunIDs
}

// Repeated runs compare between runs: two groups of one configuration show
// no significant difference in throughput, and a group paced at half the
// rate is significantly worse in it, each figure saying the test between
// runs decided. Throughput is set by the schedule; the latencies are not:
// they are SQLite's commits on a machine that other tests load unevenly, so
// two groups run one after the other can truly differ in them (CI once saw
// p99 16.5 vs 19.0 ms, p 0.009), and the test only checks that they were
// decided between runs. It asks at alpha 0.01, and half the rate is still
// found with p far below it.
func TestRepeatCompareBetweenRuns(t *testing.T) {
	testenv.Alone(t)
	dir := t.TempDir()
	a := repeatGroup(t, dir, "a", 4, 20)
	b := repeatGroup(t, dir, "b", 4, 20)
	slow := repeatGroup(t, dir, "slow", 4, 40)
	r := tsbench(t, nil, "compare", "--data-dir", dir, "--alpha", "0.01", "--json", a[0], b[2], slow[1])
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var res compare.Result
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Baseline.Repetitions != 4 || len(res.Pairs) != 2 {
		t.Fatalf("baseline %+v, %d pairs", res.Baseline, len(res.Pairs))
	}
	for i, p := range res.Pairs {
		if n := len(p.Operations[0].Metrics); n != 3 {
			t.Fatalf("pair %d: %d figures, want throughput, p50 and p99", i, n)
		}
		for _, m := range p.Operations[0].Metrics {
			if m.PValue != nil {
				t.Logf("pair %d %s: %.4g vs %.4g, p %.3g: %s", i, m.Name, m.Baseline, m.Value, *m.PValue, m.Verdict)
			}
			if m.Test != compare.TestBetweenRuns || m.Runs1 != 4 || m.Runs2 != 4 {
				t.Errorf("pair %d %s: test %q on %d and %d runs", i, m.Name, m.Test, m.Runs1, m.Runs2)
			}
			if i == 0 && m.Name == "throughput" && m.Verdict != compare.VerdictSame {
				t.Errorf("the same configuration repeated: %s %s (p %v, %v vs %v)", m.Name, m.Verdict, *m.PValue, m.Baseline, m.Value)
			}
		}
	}
	if m := res.Pairs[1].Operations[0].Metrics[0]; m.Name != "throughput" || m.Verdict != compare.VerdictWorse {
		t.Errorf("half the rate: throughput %s (%v vs %v)", m.Verdict, m.Baseline, m.Value)
	}
	// The text names the test that decided.
	txt := tsbench(t, nil, "compare", "--data-dir", dir, a[0], slow[0])
	if !strings.Contains(txt.stdout, "with 4 repetitions (figures: their means)") ||
		!strings.Contains(txt.stdout, "Welch's t-test on each figure's whole-run values") {
		t.Errorf("compare's text does not say the repetitions decided:\n%s", txt.stdout)
	}
}

// Three one-step runs of the null target differ wildly in throughput (a
// CV far above 5 %): the interval over them stays positive, names its
// method, and the output says how many repetitions a ±5 % interval would
// take (t on the values once gave -6,923,995 .. 25,271,503 points/s).
func TestRepeatIntervalNeverNegative(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "rep.json")
	r := tsbench(t, nil, "run", "--target", "null", "--data-dir", dir, "--quiet", "--repeat", "3", "--loop", "1", "--json", out)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var doc struct {
		Figures []compare.Spread `json:"figures"`
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.Figures) == 0 {
		t.Fatalf("--json: %v %s", err, b)
	}
	for _, f := range doc.Figures {
		if f.CILow < 0 || f.CIHigh < f.CILow || (f.CILow == 0 && f.Interval != compare.IntervalClipped) {
			t.Errorf("%s %s: interval %v .. %v (%s) over %v", f.Operation, f.Metric, f.CILow, f.CIHigh, f.Interval, f.Values)
		}
		if f.Unstable && f.RunsFor5 < 4 {
			t.Errorf("%s %s: CV %.3f, yet a ±5 %% interval would need %d repetitions", f.Operation, f.Metric, f.CV, f.RunsFor5)
		}
	}
	requireContains(t, r.stdout, "Student's t on the logarithms")
	if tp := doc.Figures[0]; tp.Unstable {
		requireContains(t, r.stdout, "a ±5 % interval needs")
	}
}
