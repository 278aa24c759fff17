package main

import (
	"os"
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// TestVictoriaMetricsTSBSMixedAnswers runs a short mixed TSBS run against
// the current VictoriaMetrics twice (the second deletes the first's
// generation, as every run on a used server does). A query made in the
// second after a series' first samples of a day used to cache "no series"
// for up to 11 s: the run's queries answered no points at all, and on a
// used server the answer checks after it found 0 points for some ranges
// (exit 3). Each run must now pass its checks, and its queries must see
// points. TSBENCH_VICTORIAMETRICS_PORT names the server's port, as for
// scripts/services/victoriametrics.sh.
func TestVictoriaMetricsTSBSMixedAnswers(t *testing.T) {
	testenv.Alone(t)
	port := os.Getenv("TSBENCH_VICTORIAMETRICS_PORT")
	if port == "" {
		port = "8428"
	}
	targettest.RequireServer(t, "victoriametrics", "127.0.0.1:"+port)
	for run := 1; run <= 2; run++ {
		s, _ := runVerified(t, "--target", "victoriametrics", "--set", "PORT="+port,
			"--set", "TSBS_USE_CASE=cpu-only", "--set", "TSBS_PHASE=mixed", "--set", "TSBS_SCALE=10",
			"--set", "TSBS_START=2016-01-01T00:00:00Z", "--set", "TSBS_END=2016-01-02T00:00:00Z",
			"--set", "TSBS_LOG_INTERVAL=10s", "--set", "TSBS_QUERIES=5")
		if s.Verify.StoredPoints != 864000 || len(s.Verify.Queries) != 15 || s.Verify.Mismatch() {
			t.Fatalf("run %d: verify %+v", run, s.Verify)
		}
		var points int64
		for _, op := range s.Operations {
			if op.Name != "INGESTION" {
				points += op.OKPoints
			}
		}
		if points == 0 {
			t.Fatalf("run %d: the run's queries answered no points", run)
		}
	}
}
