package postgres

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// write_path=copy COPYs new rows straight into the table and falls back to
// the staging upsert when a batch holds a stored point: a batch that
// rewrites two of its four rows replaces their values (none doubled), adds
// the two new rows, and an empty cell of a sparse batch keeps the value
// stored there. Both layouts.
func TestCopyRewriteFallsBack(t *testing.T) {
	targettest.RequireServer(t, "postgres", "127.0.0.1:5433")
	for _, layout := range []string{"narrow", "wide"} {
		t.Run(layout, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			tg, err := Driver.Open(ctx, targets.Options{Database: "tsbench_copy_rewrite",
				Extra: map[string]string{"layout": layout, "write_path": "copy"}})
			if err != nil {
				t.Fatal(err)
			}
			defer tg.Close()
			s := &ts.Schema{Groups: []string{"g_0"}, Devices: []ts.Device{{Name: "d_0"}},
				Sensors:   []ts.Sensor{{Name: "s_0", Type: ts.Double}, {Name: "s_1", Type: ts.Double}},
				StartTime: 1000, PointStep: 1000}
			if err := tg.Setup(ctx, s, true); err != nil {
				t.Fatal(err)
			}
			batch := func(first int, v float64, null1 int) *ts.Batch {
				b := &ts.Batch{Device: &s.Devices[0], Columns: []ts.Column{{Type: ts.Double}, {Type: ts.Double}}}
				for r := first; r < first+4; r++ {
					b.Times = append(b.Times, 1000+int64(r)*1000)
					b.Columns[0].Doubles = append(b.Columns[0].Doubles, v)
					b.Columns[1].Doubles = append(b.Columns[1].Doubles, v)
					b.Columns[1].Null = append(b.Columns[1].Null, r == null1)
					if r == null1 {
						b.Nulls++
					}
				}
				return b
			}
			if err := tg.Write(ctx, batch(0, 1, -1)); err != nil {
				t.Fatal(err)
			}
			// Rows 2 and 3 are stored: the direct COPY fails and the
			// upsert writes the batch; row 3 of s_1 is empty.
			if err := tg.Write(ctx, batch(2, 2, 3)); err != nil {
				t.Fatal(err)
			}
			if n, err := tg.Count(ctx, ts.CountRange{}); err != nil || n != 12 {
				t.Fatalf("Count = %d (%v), want 12", n, err)
			}
			sql := "SELECT string_agg(t || ':' || coalesce(s_0::text, '-') || ',' || coalesce(s_1::text, '-'), ' ' ORDER BY t) FROM wide_g_0"
			if layout == "narrow" {
				sql = "SELECT string_agg(t || ':' || series || '=' || v, ' ' ORDER BY t, series) FROM points"
			}
			var got string
			if err := tg.(*Target).c.pg.QueryRow(ctx, sql).Scan(&got); err != nil {
				t.Fatal(err)
			}
			want := "1000:1,1 2000:1,1 3000:2,2 4000:2,1 5000:2,2 6000:2,2"
			if layout == "narrow" {
				want = ""
				for r, vs := range [][2]int{{1, 1}, {1, 1}, {2, 2}, {2, 1}, {2, 2}, {2, 2}} {
					want += fmt.Sprintf(" %d:0=%d %d:1=%d", 1000+r*1000, vs[0], 1000+r*1000, vs[1])
				}
				want = want[1:]
			}
			if got != want {
				t.Fatalf("stored %s\nwant   %s", got, want)
			}
		})
	}
}
