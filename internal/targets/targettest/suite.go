// Package targettest is the conformance suite every database target passes:
// it creates a schema, writes a generated dataset in order and out of order,
// checks that Count equals the acknowledged points, and checks every query
// kind Q1..Q10 against answers recomputed from the generator — never against
// what the database itself returned earlier. A target that declares a query
// kind or data type unsupported must say so with targets.ErrUnsupported; the
// suite checks that declaration instead of skipping.
package targettest

import (
	"context"
	"errors"
	"fmt"
	"github.com/tsbench/tsbench/internal/targets/clientside"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Suite says how to reach the target under test.
type Suite struct {
	Driver  *targets.Driver
	Options targets.Options
	// Settle, if set, waits until written data is visible to queries (for
	// databases that flush or commit asynchronously).
	Settle func(ctx context.Context, conn targets.Target) error
}

// Dataset geometry: 6 devices in 2 groups, rows at 1 s steps, 10-row batches.
// Devices 0-1 arrive in order, 2-3 with POISSON delays, 4-5 with BATCH delays.
const (
	devices   = 6
	rows      = 120
	batchSize = 10
	pointStep = 1000
)

// startTime is the past run's START_TIME, far behind the clock.
var startTime = time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()

// recentStart is the recent run's START_TIME: 30 s ago, so that rows 30 to
// 119 lie ahead of the wall clock when they are written and queried, as
// the last rows of any run that writes faster than its POINT_STEP do. A
// target that bounds a query or a count by "now" fails there.
func recentStart() int64 { return time.Now().Truncate(time.Second).Add(-30 * time.Second).UnixMilli() }

// Dataset is the schema and generators of the conformance data.
type Dataset struct {
	Schema *ts.Schema
	Gens   [3]*gen.Generator // in order, POISSON, BATCH (same values)
	// Sparse leaves cells empty (Present): about a quarter of them, and
	// every cell of device 1's rows 50 to 59, lines missing altogether.
	Sparse bool
}

// Present reports whether the dataset has a value for the sensor of device
// dev at row k.
func (d *Dataset) Present(dev, sensor int, k int64) bool {
	if !d.Sparse {
		return true
	}
	if dev == 1 && k >= 50 && k < 60 {
		return false
	}
	h := uint64(dev)*0x9e3779b97f4a7c15 ^ uint64(sensor)*0xc2b2ae3d27d4eb4f ^ uint64(k)*0x165667b19e3779f9
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	return (h>>32)%4 != 0
}

// Fill fills b with batch n of device dev from g, with the dataset's empty
// cells marked and their values zeroed.
func (d *Dataset) Fill(g *gen.Generator, b *ts.Batch, dev int, n int64, cur *gen.Cursor) {
	g.Fill(b, &d.Schema.Devices[dev], n, cur)
	b.ClearNulls()
	if !d.Sparse {
		return
	}
	for i, k := range b.Rows {
		for c := range b.Columns {
			if !d.Present(dev, c, k) {
				zeroCell(&b.Columns[c], i)
				b.MarkNull(c, i)
			}
		}
	}
}

// zeroCell clears the value of row i, as an empty cell holds.
func zeroCell(c *ts.Column, i int) {
	switch c.Type {
	case ts.Boolean:
		c.Bools[i] = false
	case ts.Int32:
		c.Int32s[i] = 0
	case ts.Int64:
		c.Int64s[i] = 0
	case ts.Float:
		c.Floats[i] = 0
	case ts.Double:
		c.Doubles[i] = 0
		if c.HasFixed() {
			c.Fixed[i] = 0
		}
	default:
		c.Texts[i] = ""
	}
}

// count is the points of devices devs in rows [lo, hi).
func (d *Dataset) count(devs []int, lo, hi int64) int64 {
	var n int64
	for _, dev := range devs {
		for s := range d.Schema.Sensors {
			for k := lo; k < hi; k++ {
				if d.Present(dev, s, k) {
					n++
				}
			}
		}
	}
	return n
}

// NewDataset builds the conformance dataset for the types a target
// supports, its row 0 at start (ms since the epoch).
func NewDataset(types []ts.DataType, start int64) (*Dataset, error) {
	s := &ts.Schema{Database: "tsbench_conformance", Groups: []string{"g_0", "g_1"},
		StartTime: start, PointStep: pointStep}
	for i := 0; i < devices; i++ {
		s.Devices = append(s.Devices, ts.Device{Index: i, Name: fmt.Sprintf("d_%d", i), Group: i % 2,
			Tags: []ts.Tag{{Key: "tag_0", Value: fmt.Sprintf("value_%d", i%3)}}})
	}
	sensorTypes := append(append([]ts.DataType{}, types...), ts.Double, ts.Int64)
	for i, t := range sensorTypes {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: fmt.Sprintf("s_%d", i), Type: t})
	}
	d := &Dataset{Schema: s}
	return d, d.regenerate()
}

// regenerate makes the dataset's three generators over its schema.
func (d *Dataset) regenerate() error {
	orders := []gen.Order{{}, {Mode: gen.Poisson, Ratio: 0.4, Lambda: 8, MaxDelay: 30},
		{Mode: gen.BatchOrder, Ratio: 0.5, Lambda: 10, MaxDelay: 30}}
	for i, o := range orders {
		g, err := gen.New(d.Schema, gen.Options{Seed: 7, Ratios: [6]float64{1, 1, 1, 1, 1, 1},
			StringLength: 5, DoubleLength: 2, BatchSize: batchSize, Order: o})
		if err != nil {
			return err
		}
		d.Gens[i] = g
	}
	return nil
}

// Points is the number of points the dataset holds.
func (d *Dataset) Points() int64 {
	all := make([]int, len(d.Schema.Devices))
	for i := range all {
		all[i] = i
	}
	return d.count(all, 0, rows)
}

// Batches calls each with every batch of the dataset, device by device,
// each device's batches in its delivery order (n); b is reused from one
// call to the next. It stops at the first error each returns.
func (d *Dataset) Batches(each func(dev int, n int64, b *ts.Batch) error) error {
	for dev := range d.Schema.Devices {
		g := d.Gens[(dev/2)%len(d.Gens)]
		b := g.NewBatch()
		cur := gen.NewCursor()
		for n := int64(0); n < rows/batchSize; n++ {
			d.Fill(g, b, dev, n, cur)
			if err := each(dev, n, b); err != nil {
				return err
			}
		}
	}
	return nil
}

// Write sends every batch of the dataset through conns (alternating), each
// device with its delivery order.
func (d *Dataset) Write(ctx context.Context, conns ...targets.Target) error {
	return d.Batches(func(dev int, n int64, b *ts.Batch) error {
		if err := conns[int(n)%len(conns)].Write(ctx, b); err != nil {
			return fmt.Errorf("write batch %d of %s: %w", n, d.Schema.Devices[dev].Name, err)
		}
		return nil
	})
}

// OpenAndWrite opens drv with opts, sets the dataset's schema up without a
// reset and writes every batch; it returns the connection, closed when the
// test ends. A test that checks what a write path stored, beside the
// suite, starts so.
func (d *Dataset) OpenAndWrite(ctx context.Context, t testing.TB, drv *targets.Driver, opts targets.Options) targets.Target {
	t.Helper()
	conn := OpenSetUp(ctx, t, drv, opts, d.Schema, false)
	if err := d.Write(ctx, conn); err != nil {
		t.Fatal(err)
	}
	return conn
}

// OpenSetUp opens drv with o, closed when the test ends, and sets s up
// on it (afresh with reset): how every test that writes a dataset of its
// own through a target starts.
func OpenSetUp(ctx context.Context, tb testing.TB, drv *targets.Driver, o targets.Options, s *ts.Schema, reset bool) targets.Target {
	tb.Helper()
	conn, err := drv.Open(ctx, o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { conn.Close() })
	if err := conn.Setup(ctx, s, reset); err != nil {
		tb.Fatal(err)
	}
	return conn
}

// Run runs the conformance suite twice: with the data years in the past,
// and with most of it ahead of the wall clock.
func Run(t *testing.T, s Suite) {
	t.Helper()
	t.Run("past", func(t *testing.T) { runFrom(t, s, startTime, false) })
	t.Run("recent", func(t *testing.T) { runFrom(t, s, recentStart(), false) })
	if s.Driver.Caps.Sparse {
		t.Run("sparse", func(t *testing.T) { runFrom(t, s, startTime, true) })
	}
	t.Run("names", func(t *testing.T) { runNames(t, s) })
}

// runFrom runs the suite on the dataset whose row 0 is at start, with
// empty cells when sparse.
func runFrom(t *testing.T, s Suite, start int64, sparse bool) {
	t.Helper()
	d, err := NewDataset(s.Driver.Caps.Types, start)
	if err != nil {
		t.Fatal(err)
	}
	d.Sparse = sparse
	runOn(t, s, d)
}

// runOn writes d through two connections, then checks counts and answers.
func runOn(t *testing.T, s Suite, d *Dataset) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	caps := s.Driver.Caps
	admin := open(ctx, t, s)
	if _, ok := admin.(targets.PromStore); ok != caps.PromStore {
		t.Errorf("%s: Caps.PromStore is %v, but its target implements targets.PromStore: %v", s.Driver.Name, caps.PromStore, ok)
	}
	if err := admin.Setup(ctx, d.Schema, true); err != nil {
		t.Fatalf("setup: %v", err)
	}
	writer := open(ctx, t, s)
	if b, ok := writer.(targets.Binder); ok {
		if err := b.Bind(ctx, d.Schema); err != nil {
			t.Fatalf("bind: %v", err)
		}
	}
	if err := d.Write(ctx, admin, writer); err != nil {
		t.Fatal(err)
	}
	settle(ctx, t, s, admin)

	t.Run("count", func(t *testing.T) { checkCounts(ctx, t, s, admin, writer, d) })
	t.Run("queries", func(t *testing.T) { checkQueries(ctx, t, admin, d, caps) })
	t.Run("unsupported-types", func(t *testing.T) { checkUnsupportedTypes(ctx, t, s, caps) })
}

func open(ctx context.Context, t *testing.T, s Suite) targets.Target {
	t.Helper()
	conn, err := s.Driver.Open(ctx, s.Options)
	if err != nil {
		t.Fatalf("open %s: %v", s.Driver.Name, err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func settle(ctx context.Context, t *testing.T, s Suite, conn targets.Target) {
	t.Helper()
	if s.Settle != nil {
		if err := s.Settle(ctx, conn); err != nil {
			t.Fatalf("settle: %v", err)
		}
	}
}

func checkCounts(ctx context.Context, t *testing.T, s Suite, admin, writer targets.Target, d *Dataset) {
	all, err := admin.Count(ctx, ts.CountRange{})
	if err != nil {
		t.Fatalf("count: %v", err)
	}
	if all != d.Points() {
		t.Fatalf("Count = %d, acknowledged %d", all, d.Points())
	}
	sub := ts.CountRange{Devices: []*ts.Device{&d.Schema.Devices[0], &d.Schema.Devices[3]},
		Start: d.Schema.StartTime + 10*pointStep, End: d.Schema.StartTime + 50*pointStep}
	got, err := admin.Count(ctx, sub)
	if err != nil {
		t.Fatalf("count range: %v", err)
	}
	if want := d.count([]int{0, 3}, 10, 50); got != want {
		t.Fatalf("Count(d_0, d_3, rows 10..49) = %d, want %d", got, want)
	}
	// Writing the same points again must not add points: Count counts
	// distinct (series, timestamp) pairs whatever the engine keeps.
	g := d.Gens[1]
	b := g.NewBatch()
	d.Fill(g, b, 2, 3, nil)
	if err := writer.Write(ctx, b); err != nil {
		t.Fatalf("rewrite: %v", err)
	}
	settle(ctx, t, s, admin)
	if again, err := admin.Count(ctx, ts.CountRange{}); err != nil || again != d.Points() {
		t.Fatalf("after rewriting a batch Count = %d (%v), want %d", again, err, d.Points())
	}
}

func checkQueries(ctx context.Context, t *testing.T, conn targets.Target, d *Dataset, caps targets.Capabilities) {
	qs := Queries(d.Schema)
	if caps.GroupByAcross {
		qs = append(qs, AcrossQueries(d.Schema)...)
	}
	for _, q := range qs {
		q := q
		name := fmt.Sprintf("%s/%s", q.Kind.Short(), describe(d.Schema, &q))
		t.Run(name, func(t *testing.T) {
			got, err := conn.Query(ctx, &q)
			if q.ClockBuckets && caps.BucketsFromStart {
				if !errors.Is(err, targets.ErrUnsupported) {
					t.Fatalf("buckets on the clock are declared unsupported but Query returned %v (want targets.ErrUnsupported)", err)
				}
				return
			}
			if !caps.SupportsQuery(q.Kind) {
				if !errors.Is(err, targets.ErrUnsupported) {
					t.Fatalf("%s is declared unsupported but Query returned %v (want targets.ErrUnsupported)", q.Kind, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("query: %v", err)
			}
			want := ExpectPresent(d.Gens[0], &q, rows, d.Present)
			if msg := Compare(&q, got, want); msg != "" {
				t.Fatal(msg)
			}
		})
	}
}

// CheckDeclaresAll checks that d declares every query kind and data type,
// for a target that supports them all.
func CheckDeclaresAll(t testing.TB, d *targets.Driver) {
	t.Helper()
	for _, k := range ts.QueryKinds {
		if !d.Caps.SupportsQuery(k) {
			t.Errorf("%s: query %v not declared", d.Name, k)
		}
	}
	for _, dt := range ts.DataTypes {
		if !d.Caps.SupportsType(dt) {
			t.Errorf("%s: type %v not declared", d.Name, dt)
		}
	}
}

// Compare returns "" when got matches want: points exactly, the sum of values
// to a relative 1e-9, and for row queries the first and last timestamps.
func Compare(q *ts.Query, got, want ts.Result) string { return clientside.Diff(q, got, want) }

func checkUnsupportedTypes(ctx context.Context, t *testing.T, s Suite, caps targets.Capabilities) {
	for _, typ := range ts.DataTypes {
		if caps.SupportsType(typ) {
			continue
		}
		schema := &ts.Schema{Database: "tsbench_conformance_types", Groups: []string{"g_0"},
			Devices: []ts.Device{{Name: "d_0"}}, Sensors: []ts.Sensor{{Name: "s_0", Type: typ}},
			StartTime: startTime, PointStep: pointStep}
		conn := open(ctx, t, s)
		if err := conn.Setup(ctx, schema, true); !errors.Is(err, targets.ErrUnsupported) {
			t.Errorf("%s is declared unsupported but Setup returned %v (want targets.ErrUnsupported)", typ, err)
		}
	}
}
