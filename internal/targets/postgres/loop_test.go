//go:build linux

package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// CLIENT_IO=epoll's loop (pgwire.Loop) on both releases: executions of
// several clients in flight at once, each counted right; a refused
// execution and the next on the same session; the prepared texts bounded;
// a session ended by the server, and one given up past its deadline, both
// opened again on the client's next execution.
func TestStatementLoop(t *testing.T) {
	targettest.EachServer(t, releases, loopOnServer)
}

// loopResult is one execution a StatementLoop reported.
type loopResult struct {
	rows int64
	err  error
}

// waitAll waits, within 10 s, until the loop has reported every client of
// want, and returns what each got.
func waitAll(t *testing.T, l targets.StatementLoop, want ...int) map[int]loopResult {
	t.Helper()
	got := map[int]loopResult{}
	deadline := time.Now().Add(10 * time.Second)
	for len(got) < len(want) && time.Now().Before(deadline) {
		err := l.Wait(time.Now().Add(100*time.Millisecond), func(i int, at time.Time, rows int64, err error) {
			if _, dup := got[i]; dup {
				t.Errorf("client %d reported twice", i)
			}
			if at.IsZero() || time.Since(at) > 10*time.Second {
				t.Errorf("client %d: answer read at %v", i, at)
			}
			got[i] = loopResult{rows, err}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, i := range want {
		if _, ok := got[i]; !ok {
			t.Fatalf("client %d: no answer in 10 s (got %v)", i, got)
		}
	}
	return got
}

// runOne sends one execution on client i and waits for it.
func runOne(t *testing.T, ctx context.Context, l targets.StatementLoop, i int, text string, args ...any) loopResult {
	t.Helper()
	if err := l.Send(ctx, i, &targets.Statement{Text: text, Args: args, CountOnly: true}); err != nil {
		return loopResult{err: err}
	}
	return waitAll(t, l, i)[i]
}

func loopOnServer(t *testing.T, srv targettest.Server) {
	ctx := t.Context()
	tg := srv.OwnTexts(ctx, t, Driver, "tsbench_own", targettest.Texts).(*Target)
	sl, err := tg.OpenStatementLoop(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer sl.Close()

	// Three clients in flight together, answers of different lengths; a
	// sleep makes the short ones come back first.
	sizes := []int64{5000, 1, 37}
	for i, n := range sizes {
		text := "SELECT g FROM generate_series(1, $1::int) g, pg_sleep($2::float8)"
		if err := sl.Send(ctx, i, &targets.Statement{Text: text, Args: []any{n, float64(len(sizes)-i) * 0.05}, CountOnly: true}); err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
	}
	if err := sl.Send(ctx, 0, &targets.Statement{Text: "SELECT 1", CountOnly: true}); err == nil {
		t.Fatal("a second execution on a client with one in flight was taken")
	}
	for i, r := range waitAll(t, sl, 0, 1, 2) {
		if r.err != nil || r.rows != sizes[i] {
			t.Errorf("client %d: %d rows, %v; want %d", i, r.rows, r.err, sizes[i])
		}
	}

	// Parameters of every kind the own queries bind, against pgx's count
	// of the whole answer.
	for _, c := range []struct {
		text string
		args []any
		want int64
	}{
		{"SELECT 1 WHERE $1::text = ''", []any{""}, 1},
		{"SELECT g FROM generate_series(1, 10) g WHERE g < $1::float8", []any{3.5}, 3},
		{"SELECT 1 WHERE $1::text IS NULL", []any{nil}, 1},
		{"SELECT * FROM points WHERE t < 0", nil, 0},
		{"SELECT g FROM generate_series(1, $1::bigint) g WHERE g % $2 = 0", []any{int64(100), int64(7)}, 14},
	} {
		r := runOne(t, ctx, sl, 1, c.text, c.args...)
		whole := targettest.RunOwn(ctx, t, tg, c.text, c.args...)
		if r.err != nil || r.rows != c.want || whole.Count != c.want {
			t.Errorf("%s %v: counted %d rows (%v), the whole answer %d, want %d", c.text, c.args, r.rows, r.err, whole.Count, c.want)
		}
	}

	// Back to back, as a run drives them: an answer the loop reads right
	// after its send (a server on the same core has often answered by
	// then) is reported once, counted, and timed after its send; one still
	// on its way comes through epoll. A slow execution of another client
	// is reported while these go on.
	if err := sl.Send(ctx, 2, &targets.Statement{Text: "SELECT pg_sleep(0.02)", CountOnly: true}); err != nil {
		t.Fatal(err)
	}
	slowDone := false
	for k := range 20000 {
		sent := time.Now()
		if err := sl.Send(ctx, 0, &targets.Statement{Text: "SELECT $1::int + 1", Args: []any{int64(k)}, CountOnly: true}); err != nil {
			t.Fatalf("execution %d: %v", k, err)
		}
		for reported := false; !reported; {
			if err := sl.Wait(time.Now().Add(time.Second), func(i int, at time.Time, rows int64, err error) {
				switch {
				case i == 2:
					slowDone = err == nil && rows == 1
				case i != 0 || err != nil || rows != 1 || at.Before(sent):
					t.Fatalf("execution %d: client %d, %d rows, %v, read %v after its send", k, i, rows, err, at.Sub(sent))
				default:
					reported = true
				}
			}); err != nil {
				t.Fatal(err)
			}
		}
		if slowDone && k >= 150 {
			break
		}
	}
	if !slowDone {
		t.Error("the slow execution was not reported while another client's went on")
	}

	// A refused execution reports the server's error, and the session goes on.
	r := runOne(t, ctx, sl, 2, "SELECT 1 / $1::int", int64(0))
	var pe *pgconn.PgError
	if !errors.As(r.err, &pe) || pe.Code != "22012" || errors.Is(r.err, targets.ErrConnection) {
		t.Fatalf("1 / 0: %v, want the server's division by zero (22012), not a connection failure", r.err)
	}
	if r := runOne(t, ctx, sl, 2, "SELECT 1 / $1::int", int64(1)); r.err != nil || r.rows != 1 {
		t.Fatalf("1 / 1 after a refused execution: %d rows, %v", r.rows, r.err)
	}
	if r := runOne(t, ctx, sl, 2, "SELEC 1"); r.err == nil || !strings.Contains(r.err.Error(), "syntax error") {
		t.Fatalf("a text the server cannot parse: %v", r.err)
	}
	if r := runOne(t, ctx, sl, 2, "SELECT $1::int", int64(1), int64(2)); r.err == nil || !strings.Contains(r.err.Error(), "2 parameters bound") {
		t.Fatalf("two values for one placeholder: %v", r.err)
	}
	loopPreparedBounded(t, ctx, tg)
	loopReopens(t, ctx, srv, sl)
}

// loopPreparedBounded: with Limit 3 a session holds 3 prepared texts, the
// least recently run closed first.
func loopPreparedBounded(t *testing.T, ctx context.Context, tg *Target) {
	sl, err := tg.OpenStatementLoop(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer sl.Close()
	sl.(*statementLoop).l.Limit = 3
	const held = "SELECT name FROM pg_prepared_statements"
	for k := range 6 {
		if r := runOne(t, ctx, sl, 0, fmt.Sprintf("SELECT %d", k)); r.err != nil {
			t.Fatal(r.err)
		}
		if r := runOne(t, ctx, sl, 0, held); r.err != nil || r.rows != min(int64(k)+2, 3) {
			t.Fatalf("after %d texts: the session holds %d prepared statements (%v), want %d", k+1, r.rows, r.err, min(k+2, 3))
		}
	}
}

// loopReopens: a session the server ends fails its client's next
// execution as a connection failure, and the one after runs on a new
// session; so does a client whose execution was given up (Abort).
func loopReopens(t *testing.T, ctx context.Context, srv targettest.Server, sl targets.StatementLoop) {
	const marker = "SELECT 42 AS tsbench_loop_marker"
	if r := runOne(t, ctx, sl, 1, marker); r.err != nil {
		t.Fatal(r.err)
	}
	admin, err := pgx.Connect(ctx, fmt.Sprintf("postgres://postgres@%s/tsbench_own?sslmode=disable", srv.Addr))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	var ended int
	if err := admin.QueryRow(ctx, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()", marker).Scan(&ended); err != nil || ended != 1 {
		t.Fatalf("ending the loop's session: %d ended, %v", ended, err)
	}
	before := sl.Reconnects()
	var failed error
	for range 2 { // the end may be seen before the send, or after it
		if r := runOne(t, ctx, sl, 1, "SELECT 1"); r.err != nil {
			failed = r.err
			continue
		}
		break
	}
	if failed == nil || !errors.Is(failed, targets.ErrConnection) {
		t.Fatalf("the execution after the session's end: %v, want a connection failure", failed)
	}
	if r := runOne(t, ctx, sl, 1, "SELECT 1"); r.err != nil || r.rows != 1 || sl.Reconnects() != before+1 {
		t.Fatalf("after the session's end: %d rows, %v, %d reconnects (was %d)", r.rows, r.err, sl.Reconnects(), before)
	}

	// Given up mid-answer: Wait reports nothing for it; the next runs.
	if err := sl.Send(ctx, 0, &targets.Statement{Text: "SELECT pg_sleep(30)", CountOnly: true}); err != nil {
		t.Fatal(err)
	}
	sl.Abort(0)
	if err := sl.Wait(time.Now().Add(200*time.Millisecond), func(i int, _ time.Time, _ int64, err error) {
		t.Errorf("client %d reported after it was given up: %v", i, err)
	}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if r := runOne(t, ctx, sl, 0, "SELECT 1"); r.err != nil || r.rows != 1 || time.Since(start) > 10*time.Second {
		t.Fatalf("after an abort: %d rows, %v in %v", r.rows, r.err, time.Since(start))
	}
}
