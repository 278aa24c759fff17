package null

import (
	"context"
	"errors"
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

func testBatch() *ts.Batch {
	dev := &ts.Device{Index: 0, Name: "d_0"}
	b := &ts.Batch{Device: dev}
	for i := 0; i < 100; i++ {
		b.Times = append(b.Times, int64(1_600_000_000_000+i*1000))
	}
	for range 10 {
		c := ts.Column{Type: ts.Double, Doubles: make([]float64, 100)}
		b.Columns = append(b.Columns, c)
	}
	return b
}

func open(t testing.TB) targets.Target {
	d, err := targets.Lookup("null")
	if err != nil {
		t.Fatal(err)
	}
	tg, err := d.Open(context.Background(), targets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

func TestRegistered(t *testing.T) {
	for _, name := range []string{"null", "FakeDB", "NullDB", "fakedb"} {
		d, err := targets.Lookup(name)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", name, err)
		}
		if d.Name != "null" {
			t.Fatalf("Lookup(%q) = %q", name, d.Name)
		}
	}
	targettest.CheckDeclaresAll(t, Driver)
}

func TestBehaviour(t *testing.T) {
	ctx := context.Background()
	tg := open(t)
	defer tg.Close()
	if err := tg.Setup(ctx, &ts.Schema{}, true); err != nil {
		t.Fatal(err)
	}
	if err := tg.Write(ctx, testBatch()); err != nil {
		t.Fatal(err)
	}
	res, err := tg.Query(ctx, &ts.Query{Kind: ts.TimeRange, Start: 0, End: 1 << 62})
	if err != nil || res != (ts.Result{}) {
		t.Fatalf("Query = %+v, %v; want zero result, nil", res, err)
	}
	n, err := tg.Count(ctx, ts.CountRange{})
	if n != -1 || !errors.Is(err, targets.ErrUnsupported) {
		t.Fatalf("Count = %d, %v; want -1 and ErrUnsupported", n, err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := tg.Write(cctx, testBatch()); !errors.Is(err, context.Canceled) {
		t.Fatalf("Write on cancelled context = %v", err)
	}
}

func TestWriteDoesNotAllocate(t *testing.T) {
	ctx := context.Background()
	tg := open(t)
	b := testBatch()
	allocs := testing.AllocsPerRun(1000, func() {
		if err := tg.Write(ctx, b); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("Write allocates %.1f times per call, want 0", allocs)
	}
}

func BenchmarkNullWrite(b *testing.B) {
	ctx := context.Background()
	tg := open(b)
	batch := testBatch()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if err := tg.Write(ctx, batch); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)*float64(batch.Points())/b.Elapsed().Seconds(), "points/s")
}
