package cluster

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/results"
)

// store is a results store in an SQLite file: the barrier's table is the
// same in every dialect, and the server dialects are exercised end to end
// by the workers' tests in cmd/tsbench.
func store(t *testing.T) *results.Store {
	t.Helper()
	loc, err := results.ParseLocation(filepath.Join(t.TempDir(), "r.db"), "")
	if err != nil {
		t.Fatal(err)
	}
	st, err := results.Open(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func worker(st *results.Store, group string, i, n int, timeout time.Duration) *StoreBarrier {
	return &StoreBarrier{Store: st, Group: group, Index: i, Workers: n, RunID: "run" + string(rune('0'+i)), Hostname: "h", Timeout: timeout}
}

// Workers that arrive at different times all get the same start, after
// the last of them arrived.
func TestWorkersAgreeOnTheStart(t *testing.T) {
	st := store(t)
	const n = 3
	starts := make([]time.Time, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	before := time.Now()
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 300 * time.Millisecond)
			starts[i], errs[i] = worker(st, "g", i, n, 10*time.Second).Ready(context.Background())
		}()
	}
	wg.Wait()
	for i := range starts {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !starts[i].Equal(starts[0]) {
			t.Fatalf("worker %d starts at %v, worker 0 at %v", i, starts[i], starts[0])
		}
	}
	if lag := starts[0].Sub(before); lag < 600*time.Millisecond+Lead-10*time.Millisecond {
		t.Fatalf("start %v after the first arrival: before the last worker (600 ms) plus the lead", lag)
	}
}

func TestTimeoutNamesTheMissingWorkers(t *testing.T) {
	st := store(t)
	if err := worker(st, "g", 2, 4, time.Minute).register(context.Background(), StageReady); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	_, err := worker(st, "g", 0, 4, 300*time.Millisecond).Ready(context.Background())
	if err == nil || !strings.Contains(err.Error(), "ready: 0, 2; missing: 1, 3") || !strings.Contains(err.Error(), "BARRIER_TIMEOUT") {
		t.Fatalf("error %v, want the ready and missing indexes", err)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Fatalf("gave up after %v, the timeout is 300 ms", d)
	}
}

func TestAnIndexRegistersOnce(t *testing.T) {
	st := store(t)
	ctx := context.Background()
	if err := worker(st, "g", 1, 2, time.Second).SchemaReady(ctx); err != nil {
		t.Fatal(err)
	}
	err := worker(st, "g", 1, 2, time.Second).SchemaReady(ctx)
	if !errors.Is(err, results.ErrWorkerTaken) || !strings.Contains(err.Error(), "run1 on h") {
		t.Fatalf("second worker 1: %v, want ErrWorkerTaken naming the first", err)
	}
	// Another group is another run.
	if err := worker(st, "h", 1, 2, time.Second).SchemaReady(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestOthersWaitForWorkerZerosSchema(t *testing.T) {
	st := store(t)
	ctx := context.Background()
	done := make(chan error, 1)
	go func() { done <- worker(st, "g", 1, 2, 10*time.Second).WaitSchema(ctx) }()
	select {
	case err := <-done:
		t.Fatalf("worker 1 went on before the schema existed: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := worker(st, "g", 0, 2, time.Second).SchemaReady(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ctx2, cancel := context.WithCancel(ctx)
	cancel()
	if err := worker(st, "x", 1, 2, time.Minute).WaitSchema(ctx2); err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Fatalf("a stopped wait: %v", err)
	}
}

func TestStartAtRefusesALateSchema(t *testing.T) {
	if err := (StartAt{T: time.Now().Add(time.Minute)}).SchemaReady(context.Background()); err != nil {
		t.Fatal(err)
	}
	err := (StartAt{T: time.Now().Add(-time.Second)}).SchemaReady(context.Background())
	if err == nil || !strings.Contains(err.Error(), "after START_AT") {
		t.Fatalf("late schema: %v", err)
	}
}

// Worker 0 of the prometheus workload asks its read load once every worker
// has written, and worker 0 of TPC-C checks the consistency conditions once
// every worker has ended: each waits for the slowest, and a worker that
// never gets there is named when the wait times out.
func TestEveryWorkerAtAStage(t *testing.T) {
	for _, c := range []struct {
		stage  string
		arrive func(*StoreBarrier, context.Context) error
		all    func(*StoreBarrier, context.Context) error
	}{
		{StageWritten, (*StoreBarrier).Written, (*StoreBarrier).AllWritten},
		{StageEnded, (*StoreBarrier).Ended, (*StoreBarrier).AllEnded},
	} {
		t.Run(c.stage, func(t *testing.T) {
			st := store(t)
			ctx := context.Background()
			go func() {
				time.Sleep(400 * time.Millisecond)
				_ = c.arrive(worker(st, "g", 1, 2, time.Minute), ctx)
			}()
			t0 := time.Now()
			if err := c.all(worker(st, "g", 0, 2, 10*time.Second), ctx); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(t0); d < 400*time.Millisecond {
				t.Fatalf("went on after %v, before worker 1 got there (400 ms)", d)
			}
			err := c.all(worker(st, "h", 0, 3, 300*time.Millisecond), ctx)
			if err == nil || !strings.Contains(err.Error(), c.stage+": 0; missing: 1, 2") {
				t.Fatalf("error %v, want the workers that are not at %s", err, c.stage)
			}
		})
	}
}
