// Package null is the "null" target: it accepts every batch and keeps
// nothing. A run against it measures the cost of tsbench itself (data
// generation, pacing, recording) with no database in the way, which is what
// IoT-benchmark's FakeDB does; the report can then show how far the tool is
// from being the bottleneck of a real run.
//
// Write does no work and allocates nothing (with the option service_time,
// it waits that long first: a server of known capacity, clients over
// service_time operations a second, for checking what tsbench measures
// of one). Query returns an empty Result,
// because there is no data to answer from (with the option visible_after,
// the newest point of each series is kept and a latest-point query
// returns it once that long has passed since its write was acknowledged:
// a server that buffers writes for a known time, for checking what the
// freshness probe measures of one). Count cannot tell how many points
// are stored (none are), so it returns an error wrapping
// targets.ErrUnsupported: a verification against the null target is reported
// as unsupported instead of failing or, worse, passing.
package null

import (
	"context"
	"fmt"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Driver is the registered description of the null target.
var Driver = &targets.Driver{
	Name:        "null",
	Aliases:     []string{"FakeDB", "NullDB", "null"},
	Description: "accepts every batch and keeps nothing: measures the cost of the tool itself",
	WritePaths:  []string{"discard"},
	Server:      "none (keeps nothing; measures the tool itself)",
	Caps: targets.Capabilities{
		Types:   append([]ts.DataType(nil), ts.DataTypes...),
		Queries: append([]ts.QueryKind(nil), ts.QueryKinds...),
	},
	Options: []targets.Option{{Name: "service_time", Check: checkServiceTime},
		{Name: "visible_after", Check: checkServiceTime}},
	Open: func(ctx context.Context, o targets.Options) (targets.Target, error) {
		t := &Target{}
		if v := o.Extra["service_time"]; v != "" {
			t.service, _ = time.ParseDuration(v) // checked before the run
		}
		if v := o.Extra["visible_after"]; v != "" {
			t.delay, _ = time.ParseDuration(v) // checked before the run
			t.newest = newestOf(o.DatabaseOr(""))
		}
		return t, nil
	},
}

// checkServiceTime checks a duration option (service_time, visible_after).
func checkServiceTime(v string) error {
	if d, err := time.ParseDuration(v); err != nil || d < 0 || d > time.Minute {
		return fmt.Errorf("a duration from 0 to 1m, such as 10ms")
	}
	return nil
}

func init() { targets.Register(Driver) }

// errCount is built once so that Count does not allocate either.
var errCount = fmt.Errorf("null: stores nothing, cannot count: %w", targets.ErrUnsupported)

// Target is one client's connection to nowhere.
type Target struct {
	service time.Duration // each write and query takes this long (service_time)
	delay   time.Duration // a point shows this long after its write (visible_after)
	newest  *newest       // with visible_after: the newest points of the database
}

var (
	_ targets.Target = (*Target)(nil)
	_ targets.Binder = (*Target)(nil)
)

// Setup has nothing to create; with visible_after and reset it forgets the
// points kept.
func (t *Target) Setup(ctx context.Context, s *ts.Schema, reset bool) error {
	if reset && t.newest != nil {
		t.newest.reset()
	}
	return ctx.Err()
}

// Bind has nothing to learn.
func (*Target) Bind(ctx context.Context, s *ts.Schema) error { return ctx.Err() }

// Write acknowledges the batch at once (after service_time). It only
// honours cancellation, so that a cancelled run stops here as it would
// against a real database.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	if err := t.serve(ctx); err != nil || t.newest == nil {
		return err
	}
	t.newest.keep(b, time.Now().Add(t.delay))
	return nil
}

// Query returns an empty result: there is no data. With visible_after, a
// latest-point query returns the newest point of each series that has
// become visible.
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	if err := t.serve(ctx); err != nil || t.newest == nil || q.Kind != ts.LatestPoint {
		return ts.Result{}, err
	}
	return t.newest.latest(q, time.Now()), nil
}

// serve waits out the service time, if any, or the context.
func (t *Target) serve(ctx context.Context) error {
	if t.service <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(t.service)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Count returns -1 and an error wrapping targets.ErrUnsupported: nothing is
// stored, so verification cannot be done against this target.
func (*Target) Count(ctx context.Context, r ts.CountRange) (int64, error) { return -1, errCount }

// Close has nothing to release.
func (*Target) Close() error { return nil }
