// Package cluster makes several tsbench processes act as one run: the start
// barrier that has the workers of a group begin together. Each worker runs
// its share of the clients (config.Config.ClientRange); 'tsbench merge'
// (internal/merge) adds their results up.
//
// The barrier lives in the shared results store, so that it needs nothing
// the workers do not already reach: worker 0 creates the schema and
// registers the "schema" stage; the others wait for it before binding to
// the schema; every worker registers "ready" once its clients are
// connected, and when all WORKERS are ready each computes the same start
// instant from the registrations (the latest registration plus a lead) and
// sleeps until it. With START_AT the workers need no store: they start at
// that instant. The prometheus workload's workers meet once more after
// writing (stage "written"): its worker 0 asks the read load of every
// worker's samples; TPC-C's after their measured phase (stage "ended"):
// its worker 0 checks the consistency conditions.
//
// It stands apart from the command layer, its only importer, because it is a
// protocol between processes with its own state in the store and its own
// tests of several workers racing to the barrier; the commands only choose
// when to call it.
package cluster

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/results"
)

// Stages of the barrier.
const (
	StageSchema = "schema"
	StageReady  = "ready"
	// StageWritten: the worker has written its share. Worker 0 of the
	// prometheus workload asks the read load, whose answers depend on
	// every worker's samples, once every other worker has.
	StageWritten = "written"
	// StageEnded: the worker's measured phase has ended. Worker 0 of a
	// TPC-C run checks the consistency conditions, which hold only with
	// no transaction under way, once every other worker has.
	StageEnded = "ended"
)

// Lead is how long after the last worker registered ready they all start:
// time for every worker's next poll to see the group complete.
const Lead = 500 * time.Millisecond

// pollEvery is how often a waiting worker reads the registrations.
const pollEvery = 100 * time.Millisecond

// Registry is the part of the results store the barrier uses.
type Registry interface {
	RegisterWorker(ctx context.Context, w results.WorkerRow) error
	WorkerRows(ctx context.Context, group, stage string) ([]results.WorkerRow, error)
}

// StoreBarrier is the barrier of one worker, kept in a results store.
type StoreBarrier struct {
	Store    Registry
	Group    string
	Index    int
	Workers  int
	RunID    string
	Hostname string
	Timeout  time.Duration // the longest wait of each stage
}

// Kind names the barrier in a run's summary.
func (b *StoreBarrier) Kind() string { return "store" }

// SchemaReady says the schema exists (worker 0, after creating it).
func (b *StoreBarrier) SchemaReady(ctx context.Context) error {
	return b.register(ctx, StageSchema)
}

// WaitSchema waits until worker 0 has created the schema.
func (b *StoreBarrier) WaitSchema(ctx context.Context) error {
	_, err := b.wait(ctx, StageSchema, func(rows []results.WorkerRow) bool {
		return slices.ContainsFunc(rows, func(r results.WorkerRow) bool { return r.Index == 0 })
	}, "worker 0 to create the schema")
	return err
}

// Ready registers this worker as ready and waits for the others; it
// returns the instant every worker of the group starts measuring.
func (b *StoreBarrier) Ready(ctx context.Context) (time.Time, error) {
	if err := b.register(ctx, StageReady); err != nil {
		return time.Time{}, err
	}
	rows, err := b.wait(ctx, StageReady, func(rows []results.WorkerRow) bool { return len(rows) >= b.Workers },
		fmt.Sprintf("all %d workers", b.Workers))
	if err != nil {
		return time.Time{}, err
	}
	var last time.Time
	for _, r := range rows {
		if r.Workers != b.Workers {
			return time.Time{}, fmt.Errorf("barrier of group %q: worker %d (run %s) was started with %d workers, this one with %d",
				b.Group, r.Index, r.RunID, r.Workers, b.Workers)
		}
		if r.At.After(last) {
			last = r.At
		}
	}
	return last.Add(Lead), nil
}

// Written registers that this worker has written its share.
func (b *StoreBarrier) Written(ctx context.Context) error {
	return b.register(ctx, StageWritten)
}

// AllWritten registers that this worker has written its share and waits
// until every worker has. The timeout counts from this call: workers that
// write alike end alike.
func (b *StoreBarrier) AllWritten(ctx context.Context) error {
	return b.everyone(ctx, StageWritten, "to write")
}

// Ended registers that this worker's measured phase has ended.
func (b *StoreBarrier) Ended(ctx context.Context) error {
	return b.register(ctx, StageEnded)
}

// AllEnded registers that this worker's measured phase has ended and waits
// until every worker's has.
func (b *StoreBarrier) AllEnded(ctx context.Context) error {
	return b.everyone(ctx, StageEnded, "to end")
}

// everyone registers this worker at stage and waits until every worker
// has reached it.
func (b *StoreBarrier) everyone(ctx context.Context, stage, what string) error {
	if err := b.register(ctx, stage); err != nil {
		return err
	}
	_, err := b.wait(ctx, stage, func(rows []results.WorkerRow) bool { return len(rows) >= b.Workers },
		fmt.Sprintf("all %d workers %s", b.Workers, what))
	return err
}

func (b *StoreBarrier) register(ctx context.Context, stage string) error {
	err := b.Store.RegisterWorker(ctx, results.WorkerRow{Group: b.Group, Index: b.Index, Stage: stage, Workers: b.Workers,
		RunID: b.RunID, Hostname: b.Hostname, At: time.Now()})
	if err != nil {
		return fmt.Errorf("barrier: %w", err)
	}
	return nil
}

// wait polls stage's registrations until done holds, the timeout passes or
// ctx ends; the timeout's error names the indexes still missing.
func (b *StoreBarrier) wait(ctx context.Context, stage string, done func([]results.WorkerRow) bool, what string) ([]results.WorkerRow, error) {
	deadline := time.Now().Add(b.Timeout)
	for {
		qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		rows, err := b.Store.WorkerRows(qctx, b.Group, stage)
		cancel()
		if err == nil && done(rows) {
			return rows, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("barrier of group %q: stopped while waiting for %s", b.Group, what)
		}
		if time.Now().After(deadline) {
			if err != nil {
				return nil, fmt.Errorf("barrier of group %q: waited %s for %s: %w", b.Group, b.Timeout, what, err)
			}
			return nil, fmt.Errorf("barrier of group %q: waited %s (BARRIER_TIMEOUT) for %s; %s",
				b.Group, b.Timeout, what, Missing(rows, b.Workers, stage))
		}
		select {
		case <-ctx.Done():
		case <-time.After(pollEvery):
		}
	}
}

// Missing says which of n workers have and have not reached stage.
func Missing(rows []results.WorkerRow, n int, stage string) string {
	have := make([]bool, n)
	var there []string
	for _, r := range rows {
		if r.Index >= 0 && r.Index < n {
			have[r.Index] = true
			there = append(there, fmt.Sprint(r.Index))
		}
	}
	var missing []string
	for i, ok := range have {
		if !ok {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if stage == StageSchema {
		return "worker 0 has not registered the schema"
	}
	if len(there) == 0 {
		there = []string{"none"}
	}
	return fmt.Sprintf("%s: %s; missing: %s", stage, strings.Join(there, ", "), strings.Join(missing, ", "))
}

// StartAt is the barrier of START_AT: no store, a fixed instant. Worker 0
// creates the schema at once; the others bind to it when they start, so
// START_AT must leave worker 0 time for that.
type StartAt struct{ T time.Time }

// Kind names the barrier in a run's summary.
func (StartAt) Kind() string { return "start-at" }

// SchemaReady checks that worker 0 created the schema before the start:
// the others begin writing at START_AT whether or not it exists, and a
// late IS_DELETE_DATA would drop what they wrote.
func (s StartAt) SchemaReady(context.Context) error {
	if late := time.Since(s.T); late > 0 {
		return fmt.Errorf("worker 0 finished creating the schema %s after START_AT (%s): the other workers may have begun writing; choose a later START_AT",
			late.Round(time.Millisecond), s.T.Format(time.RFC3339))
	}
	return nil
}

// WaitSchema does nothing: the start time is the agreement.
func (StartAt) WaitSchema(context.Context) error { return nil }

// Ready returns the fixed start.
func (s StartAt) Ready(context.Context) (time.Time, error) { return s.T, nil }
