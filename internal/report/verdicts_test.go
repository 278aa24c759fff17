package report

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

// A run's verdict lines are the console's own, in its order: here a crash
// that lost points, a count short of the acknowledged one, where the loss
// lies, a wrong query answer and a failed threshold.
func TestVerdictsAreTheConsolesLines(t *testing.T) {
	s := closedSummary()
	s.Crash = &summary.Crash{AtS: 5, KilledAtS: 5.1, PID: 42, Process: "postgres", Found: "its port", Restart: "pg_ctl start",
		RestartS: 1.5, BackAfterS: 2, NewPID: 43}
	s.Verify = &summary.Verify{ExpectedPoints: 1000, StoredPoints: 990,
		Lost:    &summary.Loss{Points: 10, Ranges: []summary.LostRange{{Device: "d_0", FromRow: 5, ToRow: 15, From: 1_700_000_000_000, To: 1_700_000_010_000, Points: 10}}},
		Queries: []summary.QueryCheck{{Query: "Q1", Window: "d_0", Detail: "want 3 got 4"}}}
	s.Thresholds = []summary.ThresholdResult{{Expr: "INGESTION.p99<1ms", Actual: 160.3}}
	verdicts := Verdicts(s)
	var b strings.Builder
	if err := Console(&b, s); err != nil {
		t.Fatal(err)
	}
	Footer(&b, s)
	console := b.String()
	at := 0
	for _, l := range verdicts {
		i := strings.Index(console[at:], l+"\n")
		if i < 0 {
			t.Fatalf("verdict line %q is not the console's next (from byte %d):\n%s", l, at, console)
		}
		at += i + len(l)
	}
	for _, want := range []string{"Crash: server postgres (pid 42", "Verify: stored 990 points, expected 1000: MISMATCH",
		"Lost: 10 acknowledged points", "  d_0: rows 5..14", "MISMATCH Q1 (d_0): want 3 got 4", "  FAILED  INGESTION.p99<1ms"} {
		if !strings.Contains(strings.Join(verdicts, "\n"), want) {
			t.Errorf("no %q in the verdicts:\n%s", want, strings.Join(verdicts, "\n"))
		}
	}
}

// The latency of each expression a workload timed apart, one line each in
// the run's order, names aligned; nothing for a run that timed none.
func TestExprLatencyLines(t *testing.T) {
	v := &summary.Verify{Queries: []summary.QueryCheck{
		{Query: "job:up:sum", OK: true, Points: 56, LatencyMS: &summary.Latency{P50: 1.234, P99: 5.5, Max: 9}},
		{Query: "NodeLoadHigh", OK: true, Points: 56, LatencyMS: &summary.Latency{P50: 0.5, P99: 1, Max: 2.25}},
	}}
	var b strings.Builder
	writeExprLatency(&b, v)
	want := "Latency per expression, ms: p50 / p99 / max, answers\n" +
		"  job:up:sum    1.23 / 5.50 / 9.00  56\n" +
		"  NodeLoadHigh  0.50 / 1.00 / 2.25  56\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	writeExprLatency(&b, &summary.Verify{Queries: []summary.QueryCheck{{Query: "q1", OK: true, Points: 3}}})
	writeExprLatency(&b, nil)
	if b.Len() != 0 {
		t.Errorf("lines for a run that timed no query apart: %q", b.String())
	}
}

// A fault the user's command made: the command, when it ran, the restart
// and when the server took work again; or why it failed. A pause: the
// server stopped, for how long, and when it took work again.
func TestCommandFaultLine(t *testing.T) {
	for _, c := range []struct {
		crash summary.Crash
		want  string
	}{
		{summary.Crash{Command: "kubectl delete pod db-0", KilledAtS: 3.04, BackAfterS: 11.52},
			"Crash: `kubectl delete pod db-0` (CRASH_COMMAND) run at 3.0 s; taking work again 11.5 s after the fault\n"},
		{summary.Crash{Command: "kill -9 42", KilledAtS: 3, Restart: "start-db &", RestartS: 0.2, BackAfterS: 1.5},
			"Crash: `kill -9 42` (CRASH_COMMAND) run at 3.0 s; restarted by `start-db &` in 0.2 s; taking work again 1.5 s after the fault\n"},
		{summary.Crash{Command: "true", KilledAtS: 3, Error: "crash: 127.0.0.1:5433 still took work 30s after the fault command \"true\": no fault seen"},
			"Crash: `true` (CRASH_COMMAND) run at 3.0 s; FAILED: crash: 127.0.0.1:5433 still took work 30s after the fault command \"true\": no fault seen\n"},
		// A pause (CRASH_PAUSE): stopped, not killed; nothing restarted.
		{summary.Crash{PID: 42, Process: "postgres", Found: "listening on port 5433", KilledAtS: 3.01, PauseS: 2, BackAfterS: 2.03},
			"Pause: server postgres (pid 42, listening on port 5433) stopped at 3.0 s for 2.0 s (SIGSTOP, then SIGCONT); " +
				"taking work again 2.0 s after it was stopped\n"},
	} {
		var b strings.Builder
		writeCrash(&b, &c.crash)
		if b.String() != c.want {
			t.Errorf("got  %q\nwant %q", b.String(), c.want)
		}
	}
}
