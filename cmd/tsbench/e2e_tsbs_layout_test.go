package main

import (
	"context"
	"fmt"
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
				t.Fatalf("exit %d\n%s\n%s", r.code, tail(r.stdout, 40), r.stderr)
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
