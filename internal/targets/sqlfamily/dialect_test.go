package sqlfamily_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/clickhouse"
	"github.com/tsbench/tsbench/internal/targets/duckdb"
	"github.com/tsbench/tsbench/internal/targets/mysql"
	"github.com/tsbench/tsbench/internal/targets/postgres"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
	"github.com/tsbench/tsbench/internal/targets/sqlite"
	"github.com/tsbench/tsbench/internal/ts"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the builders")

// dialects are the targets' own, so that the goldens pin what each engine
// is sent.
var dialects = []*sqlfamily.Dialect{&sqlite.Dialect, &postgres.Dialect, &postgres.TimescaleDialect,
	&mysql.Dialect, &duckdb.Dialect, &clickhouse.Dialect}

// statement is b's SQL and parameters on one line.
func statement(b *sqlfamily.Builder) string {
	if len(b.Args) == 0 {
		return b.String()
	}
	return fmt.Sprintf("%s -- %v", b.String(), b.Args)
}

// golden compares got with testdata/name (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < min(len(gl), len(wl)); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("%s line %d:\n got %s\nwant %s", name, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d", name, len(gl), len(wl))
	}
}

// The exact statement of every query kind in every dialect
// (testdata/queries.golden): placeholders, series lists, aggregates,
// buckets and the Q8 forms.
func TestQuerySQL(t *testing.T) {
	dev := []*ts.Device{{Name: "d_0"}}
	kinds := []struct {
		name string
		q    ts.Query
	}{
		{"Q1", ts.Query{Kind: ts.PrecisePoint, Start: 1000}},
		{"Q2", ts.Query{Kind: ts.TimeRange, Start: 1000, End: 2000}},
		{"Q3", ts.Query{Kind: ts.ValueRange, Start: 1000, End: 2000, Lower: 0.5}},
		{"Q4 count", ts.Query{Kind: ts.AggRange, Start: 1000, End: 2000, Agg: ts.Count}},
		{"Q5 sum", ts.Query{Kind: ts.AggValue, Lower: 0.5, Agg: ts.Sum}},
		{"Q6 avg", ts.Query{Kind: ts.AggRangeValue, Start: 1000, End: 2000, Lower: 0.5, Agg: ts.Avg}},
		{"Q7 max", ts.Query{Kind: ts.GroupBy, Start: 1000, End: 2000, Bucket: 100, Agg: ts.Max}},
		{"Q7 avg across", ts.Query{Kind: ts.GroupBy, Start: 1000, End: 2000, Bucket: 100, Agg: ts.Avg, Across: true}},
		{"Q7 max across limit", ts.Query{Kind: ts.GroupBy, Start: 1000, End: 2000, Bucket: 100, Agg: ts.Max, Across: true, Limit: 5}},
		{"Q8", ts.Query{Kind: ts.LatestPoint}},
		{"Q9", ts.Query{Kind: ts.RangeQueryDesc, Start: 1000, End: 2000}},
		{"Q10", ts.Query{Kind: ts.ValueRangeQueryDesc, Start: 1000, End: 2000, Lower: 0.5}},
	}
	var out strings.Builder
	for _, d := range dialects {
		for _, k := range kinds {
			k.q.Devices = dev
			b := sqlfamily.NewBuilder(d)
			if err := d.Query(b, &k.q, []int64{3, 4}, 10); err != nil {
				t.Fatalf("%s %s: %v", d.Name, k.name, err)
			}
			fmt.Fprintf(&out, "%s %s: %s\n", d.Name, k.name, statement(b))
		}
		b := sqlfamily.NewBuilder(d)
		d.CountPoints(b, []int64{3, 4}, false, 1000, 2000)
		fmt.Fprintf(&out, "%s count: %s\n", d.Name, statement(b))
		d.CountPoints(b, nil, true, 0, 0)
		fmt.Fprintf(&out, "%s count all: %s\n", d.Name, statement(b))
	}
	golden(t, "queries.golden", out.String())
}

// The analytics statements of the dialects that have them
// (testdata/analytics.golden).
func TestAnalyticSQL(t *testing.T) {
	var out strings.Builder
	for _, d := range dialects {
		if d.Tag == nil {
			continue
		}
		for _, k := range []ts.AnalyticKind{ts.TagAggregates, ts.TagAverage, ts.TagAverageDiff, ts.DeviceRange, ts.CountRows} {
			a := ts.Analytic{Kind: k, Sensor: 2, Flag: 5, Tag: "region", Value: "north"}
			b := sqlfamily.NewBuilder(d)
			if err := d.Analytic(b, &a); err != nil {
				t.Fatalf("%s %s: %v", d.Name, k, err)
			}
			fmt.Fprintf(&out, "%s %s: %s\n", d.Name, k, statement(b))
		}
	}
	golden(t, "analytics.golden", out.String())
}

// The multi-row upsert of the dialects that write points with it.
func TestInsertPoints(t *testing.T) {
	for _, c := range []struct {
		d    *sqlfamily.Dialect
		want string
	}{
		{&sqlite.Dialect, "INSERT OR REPLACE INTO points (series, t, v) VALUES (?,?,?),(?,?,?)"},
		{&postgres.Dialect, "INSERT INTO points (series, t, v, s) VALUES ($1::integer,$2::bigint,$3::double precision,$4::text)," +
			"($5::integer,$6::bigint,$7::double precision,$8::text) ON CONFLICT (series, t) DO UPDATE SET v = EXCLUDED.v, s = EXCLUDED.s"},
		{&mysql.Dialect, "INSERT INTO points (series, t, v, s) VALUES (?,?,?,?),(?,?,?,?) ON DUPLICATE KEY UPDATE v = VALUES(v), s = VALUES(s)"},
	} {
		if got := c.d.InsertPoints(2); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.d.Name, got, c.want)
		}
	}
}

// Long series lists of a bound dialect go into the SQL as literals; a
// placeholder-free dialect writes every value.
func TestSeriesLists(t *testing.T) {
	q := ts.Query{Kind: ts.PrecisePoint, Start: 7}
	d := sqlite.Dialect
	d.MaxBound = 2
	for _, c := range []struct {
		d    *sqlfamily.Dialect
		ids  []int64
		want string
	}{
		{&d, []int64{1, 2}, "SELECT t, v FROM points WHERE series IN (?,?) AND t = ? ORDER BY series -- [1 2 7]"},
		{&d, []int64{1, 2, 3}, "SELECT t, v FROM points WHERE series IN (1,2,3) AND t = ? ORDER BY series -- [7]"},
		{&mysql.Dialect, nil, "SELECT t, v FROM points WHERE series IN (NULL) AND t = ? ORDER BY series -- [7]"},
		{&clickhouse.Dialect, []int64{9}, "SELECT t, v FROM points FINAL WHERE series IN (9) AND t = 7 ORDER BY series"},
	} {
		b := sqlfamily.NewBuilder(c.d)
		if err := c.d.Query(b, &q, c.ids, 10); err != nil {
			t.Fatal(err)
		}
		if got := statement(b); got != c.want {
			t.Errorf("%s %v:\n got %s\nwant %s", c.d.Name, c.ids, got, c.want)
		}
	}
}

// Bad queries are errors naming the dialect and what is wrong.
func TestQueryErrors(t *testing.T) {
	for _, c := range []struct {
		q    ts.Query
		want string
	}{
		{ts.Query{Kind: ts.GroupBy, Bucket: 0}, "mysql: GROUP_BY bucket 0 must be positive"},
		{ts.Query{Kind: ts.AggRange, Agg: 9}, "mysql: aggregate"},
		{ts.Query{Kind: 99}, "mysql: unknown query kind 99"},
	} {
		err := mysql.Dialect.Query(sqlfamily.NewBuilder(&mysql.Dialect), &c.q, []int64{1}, 10)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.q, err, c.want)
		}
	}
}

// The statement of every fleet question in every dialect that has them
// (testdata/fleet.golden); the others say the question is unsupported.
func TestFleetSQL(t *testing.T) {
	var out strings.Builder
	for _, d := range dialects {
		for _, k := range ts.FleetKinds {
			q := ts.Query{Kind: ts.GroupBy, Start: 1000, End: 2000, Fleet: &ts.FleetQuery{Kind: k, Fleet: "North"}}
			b := sqlfamily.NewBuilder(d)
			err := d.Fleet(b, &q)
			if d.Tag == nil || d.Real == "" {
				if !errors.Is(err, targets.ErrUnsupported) {
					t.Errorf("%s %s: error %v, want ErrUnsupported", d.Name, k, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s %s: %v", d.Name, k, err)
			}
			fmt.Fprintf(&out, "%s %s: %s\n", d.Name, k, statement(b))
		}
	}
	golden(t, "fleet.golden", out.String())
}
