package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every seed scenario runs end to end against SQLite at a small scale, prints
// the published-vs-measured table, and each phase moved exactly the points
// its (scaled) definition says.
func TestScenariosSmallScale(t *testing.T) {
	inParallel(t)
	cases := []struct {
		name string
		args []string
		// expected okPoint of each phase's operation row, by phase name
		points map[string]int64
	}{
		{"hakom-load", []string{"--scale", "0.01"}, map[string]int64{
			"write": 15 * 1440, "load-25000": 250 * 1440, "read": 250 * 1440, "parallel-read": 250 * 1440, "parallel-write": 75 * 1440}},
		// A bulk request keeps its 100 series at any scale: one at 0.01.
		{"hakom-scaling", []string{"--scale", "0.01", "--repeat", "2"}, map[string]int64{
			"write-single": 10 * 2976, "read-single": 10 * 2976, "write-bulk": 100 * 2976, "read-bulk": 100 * 2976}},
		// One PV keeps its 133,360 samples at any scale.
		{"epics-archiver", []string{"--scale", "0.05"}, map[string]int64{
			"insert": 133_360 * 3, "extract": 133_360 * 3}},
		// 300 sensors a train instead of 3,000 (SENSOR_NUMBER, as
		// TestStudySystemsSideBySide): the same phases, a tenth of the rows.
		{"iotdb-crrc", []string{"--scale", "0.0005", "--clients", "10", "--set", "SENSOR_NUMBER=300"}, map[string]int64{
			"write": 100 * 5 * 300}},
		{"mot-ingest", []string{"--scale", "0.005"}, map[string]int64{
			"ingest": 500 * 10 * 10 * 4}},
		{"das-events", []string{"--scale", "0.005"}, map[string]int64{
			"ingest": 50 * 1000 * 2}},
		// Its sixteen phases write a day (one block of 96 values) per
		// series instead of the study's month: the same phases and
		// settings; a week's (7 blocks) took 12 CPU-seconds of SQLite.
		{"hakom-compression", []string{"--scale", "0.01", "--set", "BATCH_SIZE_PER_WRITE=96"}, map[string]int64{
			"write-25-on": 100 * 96, "read-25-on": 100 * 96, "write-100-off": 100 * 96, "read-100-off": 100 * 96}},
		{"das-wikipedia", []string{"--scale", "0.005"}, map[string]int64{
			"ingest": 8 * 1000 * 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"run", "--scenario", c.name, "--target", "sqlite", "--quiet", "--data-dir", dir}, c.args...)
			r := tsbench(t, nil, args...)
			if r.code != 0 {
				t.Fatal(failedRun(r))
			}
			if !strings.Contains(r.stdout, "Published vs measured: "+c.name) {
				t.Fatalf("no published-vs-measured table:\n%s", tail(r.stdout, 20))
			}
			res := readScenario(t, dir)
			seen := map[string]int{}
			for _, a := range res.Analytics {
				for _, o := range a.Queries {
					if !o.Checked || o.Error != "" {
						t.Errorf("analytics %s: answer not checked: %+v", o.Name, o)
					}
				}
			}
			if c.name == "das-events" && (len(res.Analytics) != 1 || len(res.Analytics[0].Queries) != 5 || len(res.BreakPoints) != 1) {
				t.Errorf("das-events: analytics %+v, break points %+v", res.Analytics, res.BreakPoints)
			}
			if c.name == "hakom-compression" && len(res.BreakEvens) != 2 {
				t.Errorf("hakom-compression: break-even analysis %+v", res.BreakEvens)
			}
			for _, p := range res.Phases {
				if p.Analytics {
					continue
				}
				s := readSummary(t, filepath.Join(p.ResultsDir, "summary.json"))
				if s.Scenario == "" || !strings.HasPrefix(s.Scenario, c.name+"/"+p.Phase) {
					t.Errorf("run %s is labelled %q", p.RunID, s.Scenario)
				}
				for _, op := range s.Operations {
					if op.FailOperations > 0 {
						t.Errorf("phase %s: %d failed %s operations", p.Phase, op.FailOperations, op.Name)
					}
				}
				want, ok := c.points[p.Phase]
				if !ok {
					continue
				}
				seen[p.Phase]++
				row := s.Op("INGESTION")
				if p.Analytics {
					continue
				}
				if !strings.HasPrefix(p.Phase, "write") && p.Phase != "insert" && p.Phase != "ingest" &&
					p.Phase != "load-25000" && p.Phase != "parallel-write" {
					row = s.Op("TIME_RANGE")
				}
				if row == nil || row.OKPoints != want {
					t.Errorf("phase %s: okPoint %+v, want %d", p.Phase, row, want)
				}
				if s.Verify != nil && !s.Verify.OK {
					t.Errorf("phase %s: verify %+v", p.Phase, s.Verify)
				}
				if s.Op("INGESTION") == nil {
					// A phase that only reads checks its answers against
					// what the earlier phases wrote.
					if s.Verify == nil || len(s.Verify.Queries) == 0 {
						t.Errorf("phase %s: no answer checked: %+v", p.Phase, s.Verify)
					} else {
						for _, q := range s.Verify.Queries {
							if !q.OK {
								t.Errorf("phase %s: answer differs: %+v", p.Phase, q)
							}
						}
					}
				}
			}
			for phase := range c.points {
				if seen[phase] == 0 {
					t.Errorf("phase %s did not run", phase)
				}
			}
			if len(res.Rows) == 0 {
				t.Fatal("the scenario result has no published-vs-measured rows")
			}
			for _, row := range res.Rows {
				if row.Rate.N != res.Repeat || row.Rate.Mean <= 0 {
					t.Errorf("row %s: %d measurements (want %d), mean %v", row.Phase, row.Rate.N, res.Repeat, row.Rate.Mean)
				}
			}
		})
	}
}

type scenarioFile struct {
	Repeat int    `json:"repeat"`
	Target string `json:"target"`
	Rows   []struct {
		Phase string `json:"phase"`
		Rate  struct {
			N    int     `json:"N"`
			Mean float64 `json:"Mean"`
		} `json:"rate"`
		Published struct {
			Rate float64 `json:"Rate"`
		} `json:"published"`
		System    string `json:"system"`
		OwnFigure bool   `json:"own_figure"`
	} `json:"published_vs_measured"`
	Phases []struct {
		Phase      string `json:"phase"`
		RunID      string `json:"run_id"`
		ResultsDir string `json:"results_dir"`
		Analytics  bool   `json:"-"`
	} `json:"phases"`
	Analytics []struct {
		Queries []struct {
			Name        string `json:"name"`
			Checked     bool   `json:"checked"`
			Unsupported bool   `json:"unsupported"`
			Error       string `json:"error"`
		} `json:"queries"`
	} `json:"analytics"`
	BreakPoints []struct {
		Found bool `json:"found"`
	} `json:"break_points"`
	BreakEvens []struct {
		Pair string `json:"pair"`
	} `json:"compression_break_even"`
}

func readScenario(t *testing.T, dir string) *scenarioFile {
	t.Helper()
	all := readScenarios(t, dir)
	if len(all) != 1 {
		t.Fatalf("want one scenario result, found %d", len(all))
	}
	for _, s := range all {
		return s
	}
	return nil
}

// readScenarios reads every scenario result saved under dir, by target.
func readScenarios(t *testing.T, dir string) map[string]*scenarioFile {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "scenarios", "*.json"))
	out := map[string]*scenarioFile{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var s scenarioFile
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		out[s.Target] = &s
	}
	return out
}

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// outcomeLines are the lines of a scenario's console output that say how
// each phase ended (its banner, its stored-count and answer checks, its
// failures), which a tail can cut: what a failed exit status is about.
func outcomeLines(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "====") || strings.HasPrefix(l, "Verify:") || strings.HasPrefix(l, "Query answers:") ||
			strings.HasPrefix(l, "  ") && strings.Contains(l, "MISMATCH") || strings.HasPrefix(l, "Stop reason:") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// failedRun tells why a run that should have exited 0 did not: its
// status, how each phase ended, the output's last lines and its errors.
func failedRun(r result) string {
	return fmt.Sprintf("exit %d\n%s\n...\n%s\n%s", r.code, outcomeLines(r.stdout), tail(r.stdout, 40), r.stderr)
}

// 'tsbench scenarios' lists every scenario with its source and figures.
func TestScenariosListed(t *testing.T) {
	inParallel(t)
	r := tsbench(t, nil, "scenarios")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, name := range []string{"hakom-load", "hakom-scaling", "hakom-compression", "epics-archiver", "iotdb-crrc", "das-events", "das-wikipedia", "mot-ingest"} {
		if !strings.Contains(r.stdout, name+"\n") {
			t.Errorf("scenario %s not listed:\n%s", name, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "5125601 points/s") || !strings.Contains(r.stdout, "seed 000") {
		t.Errorf("published figures or sources missing:\n%s", r.stdout)
	}
}
