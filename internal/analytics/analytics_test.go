package analytics

import (
	"context"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/analytics/analyticstest"
	"github.com/tsbench/tsbench/internal/targets"
	_ "github.com/tsbench/tsbench/internal/targets/sqlite"
)

// The SQLite target's analytics answers equal the ones computed from the
// generator, for every kind: the das-events scenario's queries on its
// kind of event data.
func TestSQLiteAnalyticsMatchGenerator(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, g := analyticstest.Load(ctx, t, "sqlite", targets.Options{Database: "events", DataDir: t.TempDir()},
		analyticstest.Events{Start: 1_600_000_000_000, Devices: 30, Seed: 11, Batch: 50, Tags: analyticstest.DASTags}, 4)
	qs := analyticstest.DASQueries(t)
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
