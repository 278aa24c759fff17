package analytics

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/targets"
	_ "github.com/tsbench/tsbench/internal/targets/sqlite"
	"github.com/tsbench/tsbench/internal/ts"
)

// The SQLite target's analytics answers equal the ones computed from the
// generator, for every kind, on event data with tags.
func TestSQLiteAnalyticsMatchGenerator(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s := &ts.Schema{Database: "events", Groups: []string{"g_0"}, StartTime: 1_600_000_000_000, PointStep: 60_000,
		Sensors: []ts.Sensor{{Name: "s_0", Type: ts.Boolean}, {Name: "s_1", Type: ts.Double}}}
	for i := 0; i < 30; i++ {
		s.Devices = append(s.Devices, ts.Device{Index: i, Name: fmt.Sprintf("house_%d", i),
			Tags: []ts.Tag{{Key: "metro", Value: fmt.Sprintf("m%d", i%5)}, {Key: "state", Value: fmt.Sprintf("s%d", i%3)}}})
	}
	g, err := gen.New(s, gen.Options{Seed: 11, Ratios: [6]float64{1, 1, 1, 1, 1, 0}, StringLength: 2, DoubleLength: 2, BatchSize: 50})
	if err != nil {
		t.Fatal(err)
	}
	d, err := targets.Lookup("sqlite")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := d.Open(ctx, targets.Options{Database: "events", DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Setup(ctx, s, true); err != nil {
		t.Fatal(err)
	}
	b := g.NewBatch()
	for i := range s.Devices {
		for n := int64(0); n < 4; n++ {
			g.Fill(b, &s.Devices[i], n, nil)
			if err := conn.Write(ctx, b); err != nil {
				t.Fatal(err)
			}
		}
	}
	qs := []ts.Analytic{
		{Name: "cityUsage", Kind: ts.TagAggregates, Tag: "metro", Sensor: 1},
		{Name: "peakDeviceUsageRange", Kind: ts.DeviceRange, Tag: "metro", Value: "m2", Sensor: 1, Flag: 0},
		{Name: "stateAvgUsage", Kind: ts.TagAverage, Tag: "state", Sensor: 1},
		{Name: "stateUsageDifference", Kind: ts.TagAverageDiff, Tag: "state", Sensor: 1},
		{Name: "count", Kind: ts.CountRows, Sensor: 1},
	}
	for _, o := range Run(ctx, conn, g, 200, qs, 2) {
		if !o.Checked || o.Error != "" || o.Runs != 2 || o.Rows == 0 {
			t.Errorf("%s: %+v", o.Name, o)
		}
	}
	// The expectations are not trivially satisfied: a different row count
	// gives a different answer.
	for i := range qs {
		if compare(Expect(g, &qs[i], 200), Expect(g, &qs[i], 40)) == "" {
			t.Errorf("%s: expectation does not depend on the data", qs[i].Name)
		}
	}
	if want := Expect(g, &qs[4], 200); want.Sum != 30*200 {
		t.Fatalf("count expectation %v, want 6000", want.Sum)
	}
}
