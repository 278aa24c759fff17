package main

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/workload"
)

// --verify holds for in-order, POISSON and BATCH delivery, and the stored
// timestamps of every series are exactly the generator's grid: nothing
// collided, nothing was lost.
func TestVerifyDeliveryModes(t *testing.T) {
	inParallel(t)
	for _, mode := range []string{"", "POISSON", "BATCH"} {
		name := mode
		if name == "" {
			name = "IN_ORDER"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			settings := []string{"DEVICE_NUMBER=6", "SENSOR_NUMBER=4", "CLIENT_NUMBER=3", "LOOP=40",
				"BATCH_SIZE_PER_WRITE=25", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0", "LAMBDA=40", "MAX_K=200"}
			if mode != "" {
				settings = append(settings, "IS_OUT_OF_ORDER=true", "OUT_OF_ORDER_MODE="+mode, "OUT_OF_ORDER_RATIO=0.5")
			}
			js := filepath.Join(dir, "s.json")
			args := append([]string{"run", "--verify", "--quiet", "--data-dir", dir, "--json", js}, setArgs(settings)...)
			r := tsbench(t, nil, args...)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			s := readSummary(t, js)
			const rowsPerDevice = 40 * 25
			const want = 6 * 4 * rowsPerDevice
			if s.Verify == nil || !s.Verify.OK || s.Verify.StoredPoints != want || s.Verify.ExpectedPoints != want {
				t.Fatalf("verify = %+v, want %d stored and expected", s.Verify, want)
			}
			cfg := configFor(t, settings...)
			db := openDB(t, filepath.Join(dir, "sqlite", "test.db"))
			start, step := cfg.StartTime.UnixMilli(), cfg.PointStep
			var bad int64
			err := db.QueryRow(`SELECT count(*) FROM (SELECT series, count(DISTINCT t) n, min(t) lo, max(t) hi,
				sum((t - ?) % ?) off FROM points GROUP BY series) WHERE n <> ? OR lo <> ? OR hi <> ? OR off <> 0`,
				start, step, rowsPerDevice, start, start+(rowsPerDevice-1)*step).Scan(&bad)
			if err != nil {
				t.Fatal(err)
			}
			if bad != 0 {
				t.Fatalf("%d series do not hold exactly rows 0..%d of the grid", bad, rowsPerDevice-1)
			}
			checkStoredValues(t, db, cfg)
		})
	}
}

// A query-only run's answers (points per query kind, as the Result Matrix
// reports them) equal what independent SQL over the same file returns for
// the same query parameters.
func TestQueryAnswersMatchIndependentSQL(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	base := []string{"DEVICE_NUMBER=5", "SENSOR_NUMBER=8", "BATCH_SIZE_PER_WRITE=50", "POINT_STEP=1000",
		"QUERY_DEVICE_NUM=2", "QUERY_SENSOR_NUM=2", "QUERY_INTERVAL=40000", "GROUP_BY_TIME_UNIT=7000",
		"STEP_SIZE=13", "QUERY_LOWER_VALUE=-5"}
	write := append(append([]string{}, base...), "CLIENT_NUMBER=5", "LOOP=10", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0")
	r := tsbench(t, nil, append([]string{"run", "--quiet", "--data-dir", dir}, setArgs(write)...)...)
	if r.code != 0 {
		t.Fatalf("write run: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, agg := range []string{"count", "avg", "max"} {
		t.Run(agg, func(t *testing.T) {
			read := append(append([]string{}, base...), "CLIENT_NUMBER=1", "LOOP=40", "IS_DELETE_DATA=false",
				"CREATE_SCHEMA=false", "OPERATION_PROPORTION=0:1:1:1:1:1:1:1:1:1:1", "QUERY_AGGREGATE_FUN="+agg)
			js := filepath.Join(dir, agg+".json")
			r := tsbench(t, nil, append([]string{"run", "--quiet", "--data-dir", dir, "--json", js}, setArgs(read)...)...)
			if r.code != 0 {
				t.Fatalf("query run: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			s := readSummary(t, js)
			cfg := configFor(t, read...)
			want := expectedPoints(t, openDB(t, filepath.Join(dir, "sqlite", "test.db")), cfg)
			for kind, n := range want {
				op := s.Op(kind.String())
				if op == nil || op.OKOperations != 4 || op.FailOperations != 0 {
					t.Fatalf("%s row = %+v, want 4 successful operations", kind, op)
				}
				if op.OKPoints != n {
					t.Errorf("%s returned %d points in all, independent SQL says %d", kind, op.OKPoints, n)
				}
			}
		})
	}
}

// expectedPoints replays client 0's query plan and answers each query with
// SQL written here, independently of the sqlite target's query builder.
func expectedPoints(t *testing.T, db *sql.DB, cfg *config.Config) map[ts.QueryKind]int64 {
	schema := workload.Schema(cfg)
	plan := workload.NewPlan(cfg.Proportion[:], cfg.Loop)
	qs := workload.NewQueries(cfg, schema, 0)
	out := map[ts.QueryKind]int64{}
	var q ts.Query
	for {
		op, ok := plan.Next()
		if !ok {
			return out
		}
		qs.Next(op.Query(), &q)
		out[q.Kind] += queryInt(t, db, independentSQL(&q))
	}
}

// independentSQL counts what a query of each kind returns, by series name.
func independentSQL(q *ts.Query) string {
	var series []string
	for _, d := range q.Devices {
		for _, s := range q.Sensors {
			series = append(series, fmt.Sprintf("(s.device = '%s' AND s.sensor = 's_%d')", d.Name, s))
		}
	}
	where := "(" + strings.Join(series, " OR ") + ")"
	rng := fmt.Sprintf(" AND p.t >= %d AND p.t < %d", q.Start, q.End)
	val := fmt.Sprintf(" AND typeof(p.v) IN ('integer', 'real') AND p.v > %v", q.Lower)
	from := "FROM points p JOIN series s ON s.id = p.series WHERE " + where
	switch q.Kind {
	case ts.PrecisePoint:
		return fmt.Sprintf("SELECT count(*) %s AND p.t = %d", from, q.Start)
	case ts.TimeRange, ts.RangeQueryDesc:
		return "SELECT count(*) " + from + rng
	case ts.ValueRange, ts.ValueRangeQueryDesc:
		return "SELECT count(*) " + from + rng + val
	case ts.AggRange:
		return "SELECT count(DISTINCT p.series) " + from + rng
	case ts.AggValue:
		return "SELECT count(DISTINCT p.series) " + from + val
	case ts.AggRangeValue:
		return "SELECT count(DISTINCT p.series) " + from + rng + val
	case ts.GroupBy:
		return fmt.Sprintf("SELECT count(*) FROM (SELECT p.series, (p.t - %d) / %d %s%s GROUP BY 1, 2)", q.Start, q.Bucket, from, rng)
	case ts.LatestPoint:
		return "SELECT count(DISTINCT p.series) " + from
	}
	panic("unknown query kind")
}

// Bad input exits with status 2 and a message naming the key, the value and
// what is allowed — never a stack trace.
func TestBadInputExitsTwo(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	props := filepath.Join(dir, "bad.properties")
	os.WriteFile(props, []byte("DEVICE_NUMBER=10\nPOINT_STEP=fast\n"), 0o644)
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"run", "--set", "DEVICE_NUMBER=abc"}, []string{"DEVICE_NUMBER", "abc"}},
		{[]string{"run", "--properties", props}, []string{"POINT_STEP", "fast", "bad.properties:2"}},
		{[]string{"run", "--target", "TDengine-3"}, []string{"TDengine-3", "not supported yet", "sqlite"}},
		{[]string{"run", "--set", "INSERT_DATATYPE_PROPORTION=1:1:1:1:1:1:1:0:0:0:0"}, []string{"INSERT_DATATYPE_PROPORTION"}},
		{[]string{"run", "--set", "OUT_OF_ORDER_MODE=RANDOM"}, []string{"OUT_OF_ORDER_MODE", "RANDOM", "POISSON"}},
		{[]string{"run", "--duration", "soon"}, []string{"soon"}},
		{[]string{"run", "--no-such-flag"}, []string{"no-such-flag"}},
		{[]string{"run", "--properties", filepath.Join(dir, "missing.properties")}, []string{"missing.properties"}},
		{[]string{"run", "--scenario", "nope"}, []string{"nope", "iotdb-crrc"}},
	}
	for _, c := range cases {
		r := tsbench(t, []string{"TSBENCH_DATA_DIR=" + dir}, c.args...)
		if r.code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s", c.args, r.code, r.stderr)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("%v: message lacks %q:\n%s", c.args, w, r.stderr)
			}
		}
	}
}

// Ctrl-C stops the clients, and the result is still printed and saved,
// marked interrupted, with exit status 130.
func TestInterruptKeepsResults(t *testing.T) {
	testenv.Alone(t)
	fr := startRun(t, "--duration", "60s", "--loop", "100000000")
	time.Sleep(3 * time.Second)
	fr.cmd.Process.Signal(syscall.SIGINT)
	waitBounded(t, fr.cmd, 30*time.Second)
	if code := fr.cmd.ProcessState.ExitCode(); code != 130 {
		t.Fatalf("exit %d, want 130", code)
	}
	if !strings.Contains(fr.stdout.String(), "Result Matrix") {
		t.Fatalf("no result printed after interrupt:\n%s", fr.stdout.String())
	}
	s := readSummary(t, fr.json)
	if !s.Interrupted || s.StopReason != "interrupted" {
		t.Fatalf("summary interrupted=%v reason=%q", s.Interrupted, s.StopReason)
	}
	if w := s.Op("INGESTION"); w == nil || w.OKOperations == 0 {
		t.Fatal("interrupted run lost its measurements")
	}
	if s.Verify == nil || !s.Verify.OK {
		t.Fatalf("verify after interrupt = %+v", s.Verify)
	}
}

// --print-config shows the effective configuration, with secrets redacted.
func TestPrintConfigRedactsSecrets(t *testing.T) {
	inParallel(t)
	r := tsbench(t, nil, "run", "--print-config", "--set", "PASSWORD=hunter2", "--set", "TOKEN=s3cr3t", "--set", "DEVICE_NUMBER=42")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, "hunter2") || strings.Contains(r.stdout, "s3cr3t") {
		t.Fatalf("a secret was printed:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "devices: 42") { // the flag's name: --print-config speaks the flags' vocabulary
		t.Fatalf("effective DEVICE_NUMBER not shown:\n%s", r.stdout)
	}
}

// The open model issues operations at the requested rate and reports
// latency from the intended start beside service time.
func TestOpenModelRate(t *testing.T) {
	testenv.Alone(t)
	dir := t.TempDir()
	js := filepath.Join(dir, "s.json")
	r := tsbench(t, nil, "run", "--quiet", "--data-dir", dir, "--json", js, "--rate", "50", "--duration", "3s",
		"--loop", "100000", "--clients", "2", "--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	s := readSummary(t, js)
	w := s.Op("INGESTION")
	if !s.OpenModel || w == nil || w.ServiceMS == nil {
		t.Fatalf("open model not reported: %+v", w)
	}
	// 50 operations a second for 3 s, a rate SQLite keeps up with even on a
	// loaded machine: about 150, never the thousands of a closed loop.
	if w.OKOperations < 100 || w.OKOperations > 160 {
		t.Fatalf("%d operations in 3 s at 50/s", w.OKOperations)
	}
	if w.LatencyMS.P50 < w.ServiceMS.P50 {
		t.Fatalf("latency from intended start (p50 %.3f ms) below service time (p50 %.3f ms)", w.LatencyMS.P50, w.ServiceMS.P50)
	}
	if !strings.Contains(r.stdout, "Service time") {
		t.Fatalf("no service time matrix:\n%s", r.stdout)
	}
}
