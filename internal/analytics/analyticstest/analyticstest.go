// Package analyticstest writes smart-home event data, shaped as the
// das-events scenario's, through a real target, so that the analytics tests
// (in the process and on Spark) query what a run would have stored.
//
// It stands apart because it is test support: imported by tests only
// (internal/analytics, its Spark runner, and sqltest's analytics checks, the
// one non-test importer, itself a test helper), so no binary links it.
package analyticstest

import (
	"context"
	"fmt"
	"testing"

	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/scenario"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// TagCycle is a tag whose value on device i is Prefix followed by
// i % Values.
type TagCycle struct {
	Key, Prefix string
	Values      int
}

// DASTags are the das-events scenario's two tags (TAG_NUMBER 2,
// TAG_VALUE_CARDINALITY 4,3 here), which its analytics group by.
var DASTags = []TagCycle{{Key: "tag_0", Prefix: "value_", Values: 4}, {Key: "tag_1", Prefix: "value_", Values: 3}}

// DASQueries are the das-events scenario's five analytics queries.
func DASQueries(t testing.TB) []ts.Analytic {
	t.Helper()
	sc, err := scenario.Lookup("das-events")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range sc.Phases {
		if len(p.Analytics) > 0 {
			if len(p.Analytics) != 5 {
				t.Fatalf("das-events has %d analytics queries, want 5", len(p.Analytics))
			}
			return p.Analytics
		}
	}
	t.Fatal("das-events has no analytics phase")
	return nil
}

// Events is the data: Devices houses (house_0, ...) with a BOOLEAN s_0 and
// a DOUBLE s_1, the usage the analytics read, one row a minute from Start
// (milliseconds since the epoch), Batch rows a write.
type Events struct {
	Start   int64
	Devices int
	Tags    []TagCycle
	Seed    int64
	Batch   int
}

// Load writes batches batches of every device through a fresh schema on
// target, opened with o, and returns the connection (closed when the test
// ends) and the generator that made the data, from which the analytics'
// answers are expected.
func Load(ctx context.Context, t testing.TB, target string, o targets.Options, e Events, batches int64) (targets.Target, *gen.Generator) {
	t.Helper()
	s := &ts.Schema{Database: "events", Groups: []string{"g_0"}, StartTime: e.Start, PointStep: 60_000,
		Sensors: []ts.Sensor{{Name: "s_0", Type: ts.Boolean}, {Name: "s_1", Type: ts.Double}}}
	for i := 0; i < e.Devices; i++ {
		d := ts.Device{Index: i, Name: fmt.Sprintf("house_%d", i)}
		for _, c := range e.Tags {
			d.Tags = append(d.Tags, ts.Tag{Key: c.Key, Value: fmt.Sprintf("%s%d", c.Prefix, i%c.Values)})
		}
		s.Devices = append(s.Devices, d)
	}
	g, err := gen.New(s, gen.Options{Seed: e.Seed, Ratios: [6]float64{1, 1, 1, 1, 1, 0}, StringLength: 2, DoubleLength: 2,
		BatchSize: e.Batch})
	if err != nil {
		t.Fatal(err)
	}
	d, err := targets.Lookup(target)
	if err != nil {
		t.Fatal(err)
	}
	conn := targettest.OpenSetUp(ctx, t, d, o, s, true)
	b := g.NewBatch()
	for i := range s.Devices {
		for n := range batches {
			g.Fill(b, &s.Devices[i], n, nil)
			if err := conn.Write(ctx, b); err != nil {
				t.Fatal(err)
			}
		}
	}
	return conn, g
}
