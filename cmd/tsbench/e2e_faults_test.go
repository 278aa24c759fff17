package main

// Fault tests: a real server, started by the project's scripts, stalls,
// crashes and comes back, goes away for good, or refuses batches in the
// middle of a real tsbench run, on three servers of different kinds
// (PostgreSQL; InfluxDB over HTTP; QuestDB, a JVM server). Each test checks
// the accounting exactly: acknowledged + failed = attempted points, and
// what the server stores, counted by the test itself once the server is
// back, is what tsbench says was acknowledged (with retries on: every
// attempted point).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/testenv/fault"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/workload"
)

// The shape of every fault run: 6 devices over 2 clients, 5 DOUBLE sensors,
// 10-row batches (50 points per operation), 40 plan steps paced at 150 ms,
// so a run lasts about 6 s — long enough for a stall inside it (a crash's
// runs twice as long: crashRun).
const (
	faultDevices  = 6
	faultLoop     = 40
	faultRows     = 10
	faultSensors  = 5
	faultOpPoints = faultRows * faultSensors
	faultOps      = faultDevices * faultLoop
)

var faultShape = []string{
	fmt.Sprintf("DEVICE_NUMBER=%d", faultDevices), "CLIENT_NUMBER=2",
	fmt.Sprintf("SENSOR_NUMBER=%d", faultSensors), fmt.Sprintf("BATCH_SIZE_PER_WRITE=%d", faultRows),
	fmt.Sprintf("LOOP=%d", faultLoop), "OP_MIN_INTERVAL=150", "OPERATION_PROPORTION=1",
	"INSERT_DATATYPE_PROPORTION=0:0:0:0:1:0", "WRITE_OPERATION_TIMEOUT_MS=30000",
}

// faultServer is one target under test and the server behind it.
type faultServer struct {
	target  string   // tsbench target
	service string   // scripts/services/NAME.sh
	addr    string   // the address a connection error names
	db      string   // DB_NAME
	shape   []string // the run's data and load; nil for faultShape
	// reject prepares the server to refuse some batches of the next run
	// (the run does not reset the data) and says how many write
	// operations it will refuse and a piece of the server's message.
	reject func(t *testing.T, fs *faultServer) (ops int64, text string)
	// settle, when set, has the server write out what it holds in memory
	// before a crash, so that the restart's recovery is short whatever the
	// tests before wrote: PostgreSQL replays its WAL since the last
	// checkpoint, and a replay of the earlier tests' writes on a busy CI
	// machine once outlasted the crash run (no reconnection inside it).
	settle func(t *testing.T, fs *faultServer)
}

var faultServers = []*faultServer{
	{target: "postgres", service: "postgres", addr: "127.0.0.1:5433", db: "test", reject: rejectPostgres,
		settle: func(t *testing.T, fs *faultServer) { postgresExec(t, fs, "CHECKPOINT") }},
	{target: "influxdb", service: "influxdb", addr: "127.0.0.1:8086", db: "tsbench_faults", reject: rejectInflux},
	{target: "questdb", service: "questdb", addr: "127.0.0.1:9000", db: "faults", reject: rejectQuestDB},
}

func (fs *faultServer) settings(extra ...string) []string {
	shape := faultShape
	if fs.shape != nil {
		shape = fs.shape
	}
	s := append([]string{"DB_SWITCH=" + fs.target, "DB_NAME=" + fs.db}, shape...)
	return append(s, extra...)
}

// open connects the test's own client, bound to the run's schema.
func (fs *faultServer) open(t *testing.T) (targets.Target, *ts.Schema) {
	t.Helper()
	cfg := configFor(t, fs.settings()...)
	d, err := targets.Lookup(fs.target)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := d.Open(ctx, targets.Options{Database: cfg.Database})
	if err != nil {
		t.Fatalf("%s: %v", fs.target, err)
	}
	schema := workload.Schema(cfg)
	if b, ok := conn.(targets.Binder); ok {
		if err := b.Bind(ctx, schema); err != nil {
			t.Fatal(err)
		}
	}
	return conn, schema
}

// reset empties the run's tables, so that "the run is writing" is seen in
// the server's own count.
func (fs *faultServer) reset(t *testing.T) {
	t.Helper()
	conn, schema := fs.open(t)
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := conn.Setup(ctx, schema, true); err != nil {
		t.Fatalf("%s: reset: %v", fs.target, err)
	}
}

// count is the number of distinct points the server stores for the run's
// devices, asked by the test (not by tsbench).
func (fs *faultServer) count(t *testing.T) int64 {
	t.Helper()
	n, err := fs.tryCount(t)
	if err != nil {
		t.Fatalf("%s: count: %v", fs.target, err)
	}
	return n
}

func (fs *faultServer) tryCount(t *testing.T) (int64, error) {
	conn, schema := fs.open(t)
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var rng ts.CountRange
	for i := range schema.Devices {
		rng.Devices = append(rng.Devices, &schema.Devices[i])
	}
	return conn.Count(ctx, rng)
}

// faultRun is tsbench running in the background while the test misbehaves.
type faultRun struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	json, dir      string
	started        time.Time
	loop           int64 // the plan's steps (LOOP): faultLoop unless the run gave another
}

// ops and points are what the run attempts: every device's steps, each
// one write.
func (fr *faultRun) ops() int64    { return faultDevices * fr.loop }
func (fr *faultRun) points() int64 { return fr.ops() * faultOpPoints }

// startFaultRun starts a run of fs's settings, each of extra (KEY=VALUE)
// given instead of the shape's value of its key (withSets: tsbench refuses
// one key given twice) or beside them.
func startFaultRun(t *testing.T, fs *faultServer, extra ...string) *faultRun {
	t.Helper()
	fr := startRun(t, withSets(setArgs(fs.settings()), extra...)...)
	fr.loop = faultLoop
	for _, kv := range extra {
		if v, ok := strings.CutPrefix(kv, "LOOP="); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			fr.loop = n
		}
	}
	return fr
}

// startRun starts 'tsbench run' with args in the background, quiet, its
// data and JSON summary in a directory of the test's.
func startRun(t *testing.T, args ...string) *faultRun {
	t.Helper()
	dir := t.TempDir()
	fr := &faultRun{dir: dir, json: filepath.Join(dir, "s.json"), started: time.Now()}
	fr.cmd = exec.Command(binary, append([]string{"run", "--quiet", "--data-dir", dir, "--json", fr.json}, args...)...)
	fr.cmd.Stdout, fr.cmd.Stderr = &fr.stdout, &fr.stderr
	startKilledAtEnd(t, fr.cmd)
	return fr
}

// waitWriting returns once the server stores some of the run's points.
func (fr *faultRun) waitWriting(t *testing.T, fs *faultServer) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		// The run's setup drops and re-creates the tables: until it is
		// done, counting may fail.
		if n, err := fs.tryCount(t); err == nil && n > 0 {
			return
		}
		if time.Now().After(deadline) || fr.cmd.ProcessState != nil {
			t.Fatalf("%s: the run wrote nothing within a minute\n%s\n%s", fs.target, fr.stdout.String(), fr.stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// wait waits (at most limit) for tsbench to end and returns its exit
// status and summary.
func (fr *faultRun) wait(t *testing.T, limit time.Duration) (int, *summary.Summary) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fr.cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(limit):
		fr.cmd.Process.Kill()
		<-done
		t.Fatalf("tsbench still ran after %v\n%s\n%s", limit, fr.stdout.String(), fr.stderr.String())
	}
	noteCPU(t, fr.cmd.ProcessState)
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if printedStackTrace(fr.stderr.String()) {
		t.Fatalf("tsbench printed a stack trace:\n%s", fr.stderr.String())
	}
	if _, err := os.Stat(fr.json); err != nil {
		t.Fatalf("exit %d and no summary (%v)\n%s\n%s", code, err, fr.stdout.String(), fr.stderr.String())
	}
	return code, readSummary(t, fr.json)
}

func (fr *faultRun) output() string { return fr.stdout.String() + "\n" + fr.stderr.String() }

// ingestion is the run's write row; every fault run attempts all its
// points, so ok + failed must make up its points exactly.
func ingestion(t *testing.T, fr *faultRun, s *summary.Summary) *summary.Operation {
	t.Helper()
	w := s.Op("INGESTION")
	if w == nil {
		t.Fatalf("no INGESTION row\n%s", fr.output())
	}
	if w.OKOperations+w.FailOperations != fr.ops() || w.OKPoints+w.FailPoints != fr.points() {
		t.Fatalf("ok %d + failed %d operations (%d + %d points): want %d operations, %d points attempted\n%s",
			w.OKOperations, w.FailOperations, w.OKPoints, w.FailPoints, fr.ops(), fr.points(), fr.output())
	}
	if w.OKPoints != w.OKOperations*faultOpPoints || w.FailPoints != w.FailOperations*faultOpPoints {
		t.Fatalf("points do not match operations: %+v", w)
	}
	return w
}

// stored checks the server's own count against what tsbench acknowledged,
// and tsbench's verification against both.
func stored(t *testing.T, fs *faultServer, s *summary.Summary, acked int64) {
	t.Helper()
	storedWithin(t, fs, s, acked, 0)
}

// storedWithin is stored where up to inDoubt points of failed writes may
// have been kept too: the server may have committed a batch and died
// before it answered.
func storedWithin(t *testing.T, fs *faultServer, s *summary.Summary, acked, inDoubt int64) {
	t.Helper()
	n := fs.count(t)
	if n < acked || n > acked+inDoubt {
		t.Fatalf("%s stores %d points, tsbench acknowledged %d and had %d in doubt", fs.target, n, acked, inDoubt)
	}
	if v := s.Verify; v == nil || !v.OK || v.StoredPoints != n || v.ExpectedPoints != acked {
		t.Fatalf("tsbench's verification %+v, want %d stored and %d expected", s.Verify, n, acked)
	}
}

func causes(w *summary.Operation) map[string]int64 {
	out := map[string]int64{}
	for _, f := range w.Failures {
		out[f.Cause] += f.Operations
	}
	return out
}

func eachFaultServer(t *testing.T, f func(t *testing.T, fs *faultServer, svc *fault.Service)) {
	for _, fs := range faultServers {
		t.Run(fs.target, func(t *testing.T) {
			// Each fault hits its own server only: two servers at a time
			// (go test -parallel), each run waiting on its own.
			t.Parallel()
			testenv.HoldServer(t, fs.service)
			targettest.RequireServer(t, fs.service, fs.addr)
			svc := fault.Find(t, fs.service)
			fs.reset(t)
			f(t, fs, svc)
		})
	}
}

// Stall: the server is stopped (SIGSTOP) for 2 s mid-run. Nothing fails
// (the timeout is longer), every point is stored, and the stall is in the
// latencies: the slowest write waited about as long as the server slept.
func TestFaultStall(t *testing.T) {
	testenv.AloneOn(t)
	eachFaultServer(t, func(t *testing.T, fs *faultServer, svc *fault.Service) {
		fr := startFaultRun(t, fs)
		fr.waitWriting(t, fs)
		stall := svc.Freeze(t, 2*time.Second)
		code, s := fr.wait(t, 2*time.Minute)
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, fr.output())
		}
		w := ingestion(t, fr, s)
		if w.FailOperations != 0 {
			t.Fatalf("%d writes failed in a stall shorter than their timeout: %+v", w.FailOperations, w.Failures)
		}
		if !strings.Contains(fr.stdout.String(), summary.ClosedModelWarning) {
			t.Fatalf("a closed-model run without the warning that its latency excludes queueing:\n%s", fr.stdout.String())
		}
		if stallMS := float64(stall.Milliseconds()); w.LatencyMS.Max < 0.9*stallMS {
			t.Fatalf("slowest write %.0f ms: the %.0f ms stall is not in the latencies", w.LatencyMS.Max, stallMS)
		}
		stored(t, fs, s, fr.points())
	})
}

// Crash and restart: SIGKILL mid-run, then the server starts again on the
// same data. Without retries, writes during the outage fail as connection
// failures and the clients reconnect; the server keeps what was
// acknowledged, and of the writes the kill cut off (in doubt) some or none.
// With retries, every write succeeds, once.
func TestFaultCrashRestart(t *testing.T) {
	testenv.AloneOn(t)
	eachFaultServer(t, func(t *testing.T, fs *faultServer, svc *fault.Service) {
		t.Run("no retries", func(t *testing.T) {
			fr, code, s := crashRun(t, fs, svc)
			if code != 1 {
				t.Fatalf("exit %d, want 1 (operations failed)\n%s", code, fr.output())
			}
			w := ingestion(t, fr, s)
			if w.FailOperations == 0 || w.Retries != 0 {
				t.Fatalf("%d failed writes and %d retries across a crash without retries", w.FailOperations, w.Retries)
			}
			if c := causes(w); c[metrics.CauseConnection] != w.FailOperations {
				t.Fatalf("failures by cause %v, want all %d connection failures: %+v", c, w.FailOperations, w.Failures)
			}
			if s.Reconnects == 0 {
				t.Fatalf("no reconnection counted after a restart\n%s", fr.output())
			}
			// Writes cut off by the kill may have been committed: they are
			// in doubt.
			storedWithin(t, fs, s, w.OKPoints, inDoubt(t, fr, s, w))
		})
		t.Run("retries", func(t *testing.T) {
			fr, code, s := crashRun(t, fs, svc, "RETRIES=40", "RETRY_BACKOFF_MS=100", "RETRY_MAX_BACKOFF_MS=1000")
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, fr.output())
			}
			w := ingestion(t, fr, s)
			if w.FailOperations != 0 || w.Retries == 0 {
				t.Fatalf("%d failed writes and %d retries: want none failed, some retried", w.FailOperations, w.Retries)
			}
			if !strings.Contains(fr.stdout.String(), "Retries: INGESTION ") {
				t.Fatalf("the console does not show the retries:\n%s", fr.stdout.String())
			}
			stored(t, fs, s, fr.points())
		})
	})
}

// crashRun kills the server once the run writes and starts it again on
// its data half a second later; it returns the run's exit status and
// summary. The run lasts twice the others' (12 s): a JVM server's restart
// must end inside it, for its clients to reconnect.
func crashRun(t *testing.T, fs *faultServer, svc *fault.Service, extra ...string) (*faultRun, int, *summary.Summary) {
	t.Helper()
	fs.reset(t)
	if fs.settle != nil {
		fs.settle(t, fs)
	}
	fr := startFaultRun(t, fs, append([]string{fmt.Sprintf("LOOP=%d", 2*faultLoop)}, extra...)...)
	fr.waitWriting(t, fs)
	killed := time.Now()
	svc.Kill(t)
	time.Sleep(500 * time.Millisecond)
	svc.Resume(t)
	t.Logf("%s took connections again %.1f s after the kill, %.1f s into the run",
		fs.service, time.Since(killed).Seconds(), time.Since(fr.started).Seconds())
	code, s := fr.wait(t, 2*time.Minute)
	return fr, code, s
}

// Refuse: the server goes away after setup and stays down. The run goes on
// to its end, counts every later write as a connection failure naming the
// address, exits 1 and still saves its results.
func TestFaultRefuse(t *testing.T) {
	testenv.AloneOn(t)
	eachFaultServer(t, func(t *testing.T, fs *faultServer, svc *fault.Service) {
		defer svc.Restart(t) // fresh, for the tests that follow
		fr := startFaultRun(t, fs)
		fr.waitWriting(t, fs)
		svc.Kill(t)
		code, s := fr.wait(t, 2*time.Minute)
		if code != 1 {
			t.Fatalf("exit %d, want 1\n%s", code, fr.output())
		}
		w := ingestion(t, fr, s)
		if w.OKOperations == 0 || w.FailOperations == 0 {
			t.Fatalf("%d ok and %d failed writes: want both", w.OKOperations, w.FailOperations)
		}
		if c := causes(w); c[metrics.CauseConnection] != w.FailOperations {
			t.Fatalf("failures by cause %v, want all connection failures: %+v", c, w.Failures)
		}
		named := false
		for _, f := range w.Failures {
			named = named || strings.Contains(f.Example, fs.addr)
		}
		if !named {
			t.Fatalf("no failure names %s: %+v", fs.addr, w.Failures)
		}
		if s.Verify == nil || s.Verify.Error == "" {
			t.Fatalf("verification against a server that is down: %+v", s.Verify)
		}
		if !strings.Contains(fr.stdout.String(), "Stored: run "+s.RunID) {
			t.Fatalf("the run was not saved in the results store:\n%s", fr.output())
		}
		r := tsbench(t, nil, "runs", "show", s.RunID, "--data-dir", fr.dir)
		if r.code != 0 || !strings.Contains(r.stdout, s.RunID) {
			t.Fatalf("runs show %s: exit %d\n%s%s", s.RunID, r.code, r.stdout, r.stderr)
		}
	})
}

// Reject: batches the server refuses are failures of cause "server" with
// the server's own message; the rest are stored.
func TestFaultReject(t *testing.T) {
	testenv.AloneOn(t)
	eachFaultServer(t, func(t *testing.T, fs *faultServer, _ *fault.Service) {
		ops, text := fs.reject(t, fs)
		// Unpaced: nothing happens to the server during the run.
		fr := startFaultRun(t, fs, "IS_DELETE_DATA=false", "OP_MIN_INTERVAL=0")
		code, s := fr.wait(t, 2*time.Minute)
		if code != 1 {
			t.Fatalf("exit %d, want 1\n%s", code, fr.output())
		}
		w := ingestion(t, fr, s)
		if w.FailOperations != ops {
			t.Fatalf("%d writes failed, want the %d the server refuses: %+v", w.FailOperations, ops, w.Failures)
		}
		if c := causes(w); c[metrics.CauseServer] != ops {
			t.Fatalf("failures by cause %v, want %d refusals by the server", c, ops)
		}
		for _, f := range w.Failures {
			if !strings.Contains(f.Example, text) {
				t.Fatalf("failure %q lacks the server's message %q", f.Example, text)
			}
		}
		if n := fs.count(t); n != w.OKPoints {
			t.Fatalf("%s stores %d points, tsbench acknowledged %d", fs.target, n, w.OKPoints)
		}
	})
}

// rejectPostgres makes the points table refuse device d_0's series (ids
// 0..4): a CHECK constraint, so each of its batches fails whole.
func rejectPostgres(t *testing.T, fs *faultServer) (int64, string) {
	postgresExec(t, fs, fmt.Sprintf(
		"ALTER TABLE points ADD CONSTRAINT tsbench_fault_reject CHECK (series >= %d) NOT VALID", faultSensors))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if pg, err := pgx.Connect(ctx, "postgres://postgres@"+fs.addr+"/"+fs.db+"?sslmode=disable"); err == nil {
			pg.Exec(ctx, "DROP TABLE IF EXISTS points")
			pg.Close(ctx)
		}
	})
	return faultLoop, `violates check constraint "tsbench_fault_reject"`
}

// postgresExec runs one statement on the fault test's PostgreSQL database.
func postgresExec(t *testing.T, fs *faultServer, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pg, err := pgx.Connect(ctx, "postgres://postgres@"+fs.addr+"/"+fs.db+"?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(ctx)
	if _, err := pg.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// rejectInflux makes s_0 a string field: every later float s_0 in the same
// shard is a field type conflict, so every batch fails.
func rejectInflux(t *testing.T, fs *faultServer) (int64, string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	body := `g_0,device=other s_0="text" 1640966400000` // the run's first shard (week)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost,
		"http://"+fs.addr+"/write?db="+fs.db+"&precision=ms", strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("preparing the conflict: %s", resp.Status)
	}
	return faultOps, "field type conflict"
}

// rejectQuestDB re-creates the run's table with s_1 a DATE column: ILP's
// doubles cannot go there, so every batch fails.
func rejectQuestDB(t *testing.T, fs *faultServer) (int64, string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pg, err := pgx.Connect(ctx, "postgres://admin:quest@127.0.0.1:8812/qdb?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(ctx)
	tbl := fs.db + "_g_0"
	cols := []string{"device SYMBOL", "ts TIMESTAMP"}
	for i := 0; i < faultSensors; i++ {
		typ := "DOUBLE"
		if i == 1 {
			typ = "DATE"
		}
		cols = append(cols, fmt.Sprintf("s_%d %s", i, typ))
	}
	for _, q := range []string{"DROP TABLE IF EXISTS " + tbl, "CREATE TABLE " + tbl + " (" + strings.Join(cols, ", ") +
		") TIMESTAMP(ts) PARTITION BY DAY WAL DEDUP UPSERT KEYS(ts, device)"} {
		if _, err := pg.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return faultOps, "failed to parse line protocol"
}

// Writes in doubt: PostgreSQL is stopped for 3 s, longer than the 1 s write
// timeout. A write sent on an open connection just before or during the
// stall times out without an answer, yet the server has the request and
// may commit it when it resumes: tsbench counts it in doubt, and its
// verification accepts the server's count anywhere from the acknowledged
// points up to that many more. A re-opening that timed out sent nothing
// and is not in doubt. Before writes in doubt were counted, such a run
// ended in a MISMATCH whenever the server committed one of them.
func TestFaultInDoubt(t *testing.T) {
	testenv.Alone(t)
	fs := faultServers[0]
	targettest.RequireServer(t, fs.service, fs.addr)
	svc := fault.Find(t, fs.service)
	fs.reset(t)
	fr := startFaultRun(t, fs, "WRITE_OPERATION_TIMEOUT_MS=1000")
	fr.waitWriting(t, fs)
	svc.Freeze(t, 3*time.Second)
	code, s := fr.wait(t, 2*time.Minute)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (operations failed)\n%s", code, fr.output())
	}
	w := ingestion(t, fr, s)
	n := inDoubt(t, fr, s, w)
	if n == 0 {
		t.Fatalf("no write in doubt of %d failed points\n%s", w.FailPoints, fr.output())
	}
	storedWithin(t, fs, s, w.OKPoints, n)
}

// inDoubt returns the run's points in doubt, checked: whole writes, no
// more than failed, and said on the console when there are any.
func inDoubt(t *testing.T, fr *faultRun, s *summary.Summary, w *summary.Operation) int64 {
	t.Helper()
	if s.Verify == nil {
		t.Fatalf("no verification\n%s", fr.output())
	}
	n := s.Verify.InDoubtPoints
	if n > w.FailPoints || n%faultOpPoints != 0 {
		t.Fatalf("%d points in doubt of %d failed: want whole writes, no more than failed", n, w.FailPoints)
	}
	if n > 0 && !strings.Contains(fr.stdout.String(), fmt.Sprintf("up to %d more allowed: points of writes in doubt", n)) {
		t.Fatalf("the console does not say that %d points are in doubt:\n%s", n, fr.stdout.String())
	}
	t.Logf("%d of %d failed points in doubt; %d stored beyond the acknowledged", n, w.FailPoints, s.Verify.StoredPoints-w.OKPoints)
	return n
}

// A server stopped for good mid-run never holds tsbench past its end: the
// measured phase ends at --duration plus at most one write timeout, and
// what follows (verification, the server's version and size) is bounded
// by the read timeout; the writes the stall caught are timeouts.
func TestFaultStallPastTheEnd(t *testing.T) {
	testenv.Alone(t)
	fs := faultServers[0]
	targettest.RequireServer(t, fs.service, fs.addr)
	svc := fault.Find(t, fs.service)
	fs.reset(t)
	const duration, writeTimeout, readTimeout = 6 * time.Second, 2 * time.Second, 2 * time.Second
	fr := startFaultRun(t, fs, "DURATION=6s", "LOOP=100000", "WRITE_OPERATION_TIMEOUT_MS=2000", "READ_OPERATION_TIMEOUT_MS=2000")
	fr.waitWriting(t, fs)
	cont := svc.Stop(t)
	defer cont()
	code, s := fr.wait(t, time.Minute)
	took := time.Since(fr.started)
	// The run began before waitWriting saw its points: setup is inside took.
	if limit := duration + writeTimeout + readTimeout + 5*time.Second; took > limit {
		t.Fatalf("tsbench took %v against a stopped server, more than %v", took, limit)
	}
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, fr.output())
	}
	w := s.Op("INGESTION")
	if w == nil || w.FailOperations == 0 || causes(w)[metrics.CauseTimeout] != w.FailOperations {
		t.Fatalf("want only timeouts among the failures: %+v", w)
	}
	if s.StopReason != "duration" || s.Elapsed > (duration+writeTimeout+time.Second).Seconds() {
		t.Fatalf("stopped by %q after %.1f s", s.StopReason, s.Elapsed)
	}
}

// Coordinated omission, with exact expectations: an open-model run at a
// fixed rate meets a 2 s stall of VictoriaMetrics. Every operation due
// during the stall waits until it ends, so from the schedule alone a
// correct tool must report, for a client whose operations are due every
// interval, latencies of about S, S - interval, S - 2*interval, ... down to
// ~0 (S the stall), one per operation due in the stall, beside the service
// times of all others. tsbench's p99, p99.9 and max must be within 10 % of
// that distribution's, while its service time — from the actual send —
// does not show the queue.
func TestCoordinatedOmissionStall(t *testing.T) {
	testenv.Alone(t)
	const (
		clients = 4
		rate    = 200.0 // operations per second, all clients together
	)
	requireTargetServer(t, "victoriametrics")
	svc := fault.Find(t, "victoriametrics")
	fs := &faultServer{target: "victoriametrics", service: "victoriametrics", addr: "127.0.0.1:8428", db: "co_stall"}
	fs.reset(t)
	// One device per client (a plan step is one operation), one 10-point
	// row per write: the server's own time is well under a millisecond.
	fr := startRun(t, "--target", "victoriametrics",
		"--rate", fmt.Sprint(rate), "--duration", "10s", "--clients", fmt.Sprint(clients), "--devices", fmt.Sprint(clients),
		"--sensors", "10", "--batch-size", "1", "--set", "DB_NAME=co_stall", "--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0",
		"--set", "INSERT_DATATYPE_PROPORTION=0:0:0:0:1:0", "--set", "SENSOR_NUMBER=10", "--set", "DEVICE_NUMBER=4")
	fr.waitWriting(t, fs)
	time.Sleep(2 * time.Second) // well inside the 10 s measured phase
	stall := svc.Freeze(t, 2*time.Second)
	code, s := fr.wait(t, time.Minute)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, fr.output())
	}
	w := s.Op("INGESTION")
	if w == nil || w.ServiceMS == nil || w.FailOperations != 0 {
		t.Fatalf("INGESTION row %+v: want an open-model row without failures", w)
	}
	want := expectedStallLatencies(w.OKOperations, clients, time.Duration(float64(time.Second)*clients/rate), stall)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"p99", w.LatencyMS.P99, quantileMS(want, 99)},
		{"p99.9", w.LatencyMS.P999, quantileMS(want, 99.9)},
		{"max", w.LatencyMS.Max, quantileMS(want, 100)},
	} {
		t.Logf("%s: tsbench %.1f ms, schedule %.1f ms (%d operations, stall %v)", c.name, c.got, c.want, w.OKOperations, stall)
		if c.got < 0.9*c.want || c.got > 1.1*c.want {
			t.Errorf("%s latency %.1f ms; the schedule says %.1f ms (±10 %%) for a %v stall", c.name, c.got, c.want, stall)
		}
	}
	if p99 := quantileMS(want, 99); w.ServiceMS.P99 > 0.1*p99 {
		t.Errorf("service time p99 %.1f ms shows the queue (intended-start p99 %.1f ms)", w.ServiceMS.P99, p99)
	}
	if strings.Contains(fr.stdout.String(), summary.ClosedModelWarning) {
		t.Error("an open-model run printed the closed-model warning")
	}
}

// expectedStallLatencies is what the schedule alone predicts for n
// operations: each client's operations are due every interval, and those
// due during the stall complete when it ends (the one in flight as it
// began, too); every other operation takes about no time.
func expectedStallLatencies(n int64, clients int, interval, stall time.Duration) []time.Duration {
	out := make([]time.Duration, 0, n)
	for c := 0; c < clients; c++ {
		for wait := stall; wait > 0; wait -= interval {
			out = append(out, wait)
		}
	}
	for int64(len(out)) < n {
		out = append(out, 0)
	}
	return out
}

// quantileMS is the q-th percentile of ds in milliseconds, as an HDR
// histogram reads it: the smallest value that q % of the values do not
// exceed.
func quantileMS(ds []time.Duration, q float64) float64 {
	sorted := append([]time.Duration(nil), ds...)
	slices.Sort(sorted)
	i := int(math.Ceil(q/100*float64(len(sorted)))) - 1
	i = min(max(i, 0), len(sorted)-1)
	return float64(sorted[i]) / float64(time.Millisecond)
}
