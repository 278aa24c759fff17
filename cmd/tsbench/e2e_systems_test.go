package main

import (
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// A study re-run on two systems in one command: seed 002's CRRC write and
// query test against the real IoTDB and KairosDB servers, each verified,
// then the two systems side by side with the study's ratio (22.8x) beside
// the measured one, which must equal the ratio of the two saved runs.
func TestStudySystemsSideBySide(t *testing.T) {
	requireTargetServer(t, "iotdb")
	requireTargetServer(t, "kairosdb")
	dir := t.TempDir()
	// Scale 0.001 keeps the request shape (100 clients, one row per request)
	// with 10 rows per train; 30 sensors instead of 3,000 keep CI short.
	r := tsbench(t, nil, "run", "--scenario", "iotdb-crrc", "--target", "iotdb,kairosdb", "--scale", "0.001",
		"--set", "SENSOR_NUMBER=30", "--quiet", "--data-dir", dir)
	if r.code != 0 {
		t.Fatal(failedRun(r))
	}
	res := readScenarios(t, dir)
	rates := map[string]float64{}
	for _, name := range []string{"iotdb", "kairosdb"} {
		sf := res[name]
		if sf == nil {
			t.Fatalf("no scenario result for %s", name)
		}
		for _, p := range sf.Phases {
			s := readSummary(t, filepath.Join(p.ResultsDir, "summary.json"))
			if p.Phase == "write" {
				op := s.Op("INGESTION")
				if op == nil || op.OKPoints != 100*10*30 || op.FailOperations != 0 || s.Verify == nil || !s.Verify.OK {
					t.Errorf("%s write: %+v, verify %+v; want 30,000 points", name, op, s.Verify)
				}
			}
			if s.Failed() {
				t.Errorf("%s %s: failed operations %+v", name, p.Phase, s.Operations)
			}
		}
		row := sf.Rows[0]
		if row.Phase != "write" || !row.OwnFigure || row.System != name {
			t.Errorf("%s compared with %s's figure (own %v)", name, row.System, row.OwnFigure)
		}
		rates[name] = row.Rate.Mean
	}
	if res["kairosdb"].Rows[0].Published.Rate != 224_819.01 {
		t.Errorf("KairosDB's published figure = %v", res["kairosdb"].Rows[0].Published.Rate)
	}
	m := regexp.MustCompile(`(?m)^write\s+ratio\s+iotdb/kairosdb\s+22\.8x\s+([0-9.e+]+)x\s*$`).FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("no iotdb/kairosdb ratio line with the published 22.8x:\n%s", tail(r.stdout, 20))
	}
	got, _ := strconv.ParseFloat(m[1], 64)
	if want := rates["iotdb"] / rates["kairosdb"]; math.Abs(got-want) > 0.005*want {
		t.Errorf("measured ratio printed %v, runs say %v", got, want)
	}
}
