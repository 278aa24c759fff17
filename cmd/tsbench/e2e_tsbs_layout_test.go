package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// A TSBS run on postgres stores into TSBS's own table shape (layout=wide:
// a row per host and time, a column per field) with COPY, as TSBS's
// loader, unless the user chose a layout, and says so; --set target.layout=narrow still gives the narrow
// table. The rows counted are the server's, after the run.
func TestTSBSTakesWideLayout(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "postgres")
	const scale, minutes = 2, 10
	want := int64(scale * minutes * 60 / 10) // a row per host every 10 s
	for _, c := range []struct {
		name, db string
		set      []string
		wide     bool
	}{
		{name: "default", db: "tsbench_tsbs_layout_default", wide: true},
		{name: "narrow given", db: "tsbench_tsbs_layout_narrow", set: []string{"--set", "target.layout=narrow"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"run", "--target", "postgres", "--quiet", "--data-dir", t.TempDir(), "--results", "off",
				"--set", "TSBS_USE_CASE=cpu-only", "--set", "TSBS_PHASE=load", "--set", fmt.Sprintf("TSBS_SCALE=%d", scale),
				"--set", fmt.Sprintf("TSBS_END=2016-01-01T00:%02d:00Z", minutes), "--set", "DB_NAME=" + c.db}, c.set...)
			r := tsbench(t, nil, args...)
			if r.code != 0 {
				t.Fatal(failedRun(r))
			}
			const note = "a TSBS run on postgres takes target.layout=wide, target.write_path=copy"
			if got := strings.Contains(r.stderr, note); got != c.wide {
				t.Errorf("note %q printed: %v, want %v; stderr:\n%s", note, got, c.wide, r.stderr)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			pg, err := pgx.Connect(ctx, "postgres://postgres@127.0.0.1:5433/"+c.db+"?sslmode=disable")
			if err != nil {
				t.Fatalf("connect to %s: %v", c.db, err)
			}
			defer pg.Close(ctx)
			// The wide tables (wide_<group>) hold a row per host and time;
			// the narrow one (points) a row per value: ten fields.
			rows := map[string]int64{}
			tables, err := pg.Query(ctx, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND "+
				"(table_name = 'points' OR table_name LIKE 'wide\\_%')")
			if err != nil {
				t.Fatalf("list tables: %v", err)
			}
			names, err := pgx.CollectRows(tables, pgx.RowTo[string])
			if err != nil {
				t.Fatalf("list tables: %v", err)
			}
			for _, tbl := range names {
				var n int64
				if err := pg.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{tbl}.Sanitize()).Scan(&n); err != nil {
					t.Fatalf("count %s: %v", tbl, err)
				}
				if strings.HasPrefix(tbl, "wide_") {
					tbl = "wide_*"
				}
				rows[tbl] += n
			}
			wantRows := map[string]int64{"wide_*": 0, "points": want * 10}
			if c.wide {
				wantRows = map[string]int64{"wide_*": want, "points": 0}
			}
			for tbl, n := range wantRows {
				if rows[tbl] != n {
					t.Errorf("%s holds %d rows, want %d", tbl, rows[tbl], n)
				}
			}
		})
	}
}

// A TSBS cpu-only run writes TSBS's own data by default: on PostgreSQL the
// hosts' tags and every row's ten values are those of the file
// tsbs_generate_data wrote with the same flags (seed 123, scale 4, one
// hour; internal/tsbs/testdata/golden), row for row, and the run's
// verification, which recomputes every value, agrees.
func TestTSBSRunWritesTSBSData(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "postgres")
	const db = "tsbench_tsbs_own_values"
	s, _ := runVerified(t, "--target", "postgres", "--results", "off", "--set", "TSBS_USE_CASE=cpu-only",
		"--set", "TSBS_PHASE=load", "--set", "TSBS_SCALE=4", "--set", "TSBS_END=2016-01-01T01:00:00Z", "--set", "DB_NAME="+db)
	if s.Verify.StoredPoints != 4*360*10 {
		t.Errorf("stored %d points, want 4 hosts x 360 rows x 10 fields", s.Verify.StoredPoints)
	}
	golden := strings.Split(strings.TrimSpace(goldenText(t, filepath.Join(tsbsQueryGolden, "cpu-only_seed123_scale4_1h_10s.timescaledb"))), "\n")[3:]
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pg, err := pgx.Connect(ctx, "postgres://postgres@127.0.0.1:5433/"+db+"?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(ctx)
	stored, err := pg.Query(ctx, "SELECT w.t::text || ',' || concat_ws(',', usage_user, usage_system, usage_idle, usage_nice, "+
		"usage_iowait, usage_irq, usage_softirq, usage_steal, usage_guest, usage_guest_nice), d.tags::text "+
		"FROM wide_g_0 w JOIN devices d ON d.name = w.device ORDER BY w.t, d.idx")
	if err != nil {
		t.Fatal(err)
	}
	var n int
	for ; stored.Next(); n++ {
		var values, tags string
		if err := stored.Scan(&values, &tags); err != nil {
			t.Fatal(err)
		}
		if 2*n+1 >= len(golden) {
			break
		}
		tsbsTags, tsbsRow := golden[2*n], golden[2*n+1]
		// TSBS's nanoseconds are tsbench's milliseconds and six zeros.
		if want := strings.Replace(strings.TrimPrefix(tsbsRow, "cpu,"), "000000,", ",", 1); values != want {
			t.Fatalf("row %d: stored %s, TSBS wrote %s", n, values, want)
		}
		for _, kv := range strings.Split(strings.TrimPrefix(tsbsTags, "tags,"), ",") {
			k, v, _ := strings.Cut(kv, "=")
			if !strings.Contains(tags, fmt.Sprintf("%q: %q", k, v)) {
				t.Fatalf("row %d: tags %s lack TSBS's %s", n, tags, kv)
			}
		}
	}
	if stored.Close(); stored.Err() != nil || n != len(golden)/2 {
		t.Fatalf("%d rows stored (%v), TSBS wrote %d", n, stored.Err(), len(golden)/2)
	}
}
