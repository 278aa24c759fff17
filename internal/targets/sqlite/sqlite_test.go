package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

const (
	t0   = int64(1_700_000_000_000)
	step = int64(1000)
)

// at is the timestamp of row k.
func at(k int) int64 { return t0 + int64(k)*step }

// testSchema has 3 devices (global indexes 10..12, as a cluster worker with
// an offset would have) and one sensor of each type.
func testSchema(devices int) *ts.Schema {
	s := &ts.Schema{
		Database:  "test",
		Groups:    []string{"g_0", "g_1"},
		StartTime: t0,
		PointStep: step,
	}
	for i := 0; i < devices; i++ {
		s.Devices = append(s.Devices, ts.Device{
			Index: 10 + i,
			Name:  fmt.Sprintf("d_%d", 10+i),
			Group: i % 2,
			Tags:  []ts.Tag{{Key: "city", Value: fmt.Sprintf("c%d", i)}, {Key: "model", Value: `m"x`}},
		})
	}
	for i, dt := range ts.DataTypes {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: fmt.Sprintf("s_%d", i), Type: dt})
	}
	return s
}

// value fills row i of column c with the value of (device position p,
// sensor j, row k), shifted by delta for rewrites.
func setValue(c *ts.Column, i, p, k, delta int) {
	switch c.Type {
	case ts.Boolean:
		c.Bools[i] = (k+p+delta)%3 == 0
	case ts.Int32:
		c.Int32s[i] = int32((k*7+p*5)%41-20) + int32(delta)
	case ts.Int64:
		c.Int64s[i] = 3_000_000_000 + int64(k)*int64(p+1)*1_000_003 - int64(k*k) + int64(delta)
	case ts.Float:
		c.Floats[i] = float32(k)*0.5 - 7.25 + float32(p) + float32(delta)
	case ts.Double:
		c.Doubles[i] = float64(k)*1.25 - 20 + float64(p)*0.1 + float64(delta)
	default:
		c.Texts[i] = fmt.Sprintf("d%d-k%d-%d", p, k, delta)
	}
}

// makeBatch builds the batch of device position p holding rows ks, in that
// order.
func makeBatch(s *ts.Schema, p int, ks []int, delta int) *ts.Batch {
	b := &ts.Batch{Device: &s.Devices[p]}
	n := len(ks)
	for _, k := range ks {
		b.Times = append(b.Times, at(k))
		b.Rows = append(b.Rows, int64(k))
	}
	for _, sn := range s.Sensors {
		c := ts.Column{Type: sn.Type}
		switch sn.Type {
		case ts.Boolean:
			c.Bools = make([]bool, n)
		case ts.Int32:
			c.Int32s = make([]int32, n)
		case ts.Int64:
			c.Int64s = make([]int64, n)
		case ts.Float:
			c.Floats = make([]float32, n)
		case ts.Double:
			c.Doubles = make([]float64, n)
		default:
			c.Texts = make([]string, n)
		}
		for i, k := range ks {
			setValue(&c, i, p, k, delta)
		}
		b.Columns = append(b.Columns, c)
	}
	return b
}

// model is what the test wrote, kept apart from the database: series id ->
// time -> point. The last write of a (series, time) wins, as in a TSDB.
type model struct {
	s   *ts.Schema
	pts map[int64]map[int64]mpoint
}

type mpoint struct {
	typ ts.DataType
	num float64 // Column.Number: booleans 0/1, text 0
}

func newModel(s *ts.Schema) *model { return &model{s: s, pts: map[int64]map[int64]mpoint{}} }

func (m *model) add(b *ts.Batch) {
	p := m.s.DevicePos(b.Device.Index)
	for j := range b.Columns {
		sid := m.s.SeriesID(p, j)
		if m.pts[sid] == nil {
			m.pts[sid] = map[int64]mpoint{}
		}
		for i, tm := range b.Times {
			v, _ := b.Columns[j].Number(i)
			m.pts[sid][tm] = mpoint{typ: b.Columns[j].Type, num: v}
		}
	}
}

func (m *model) count(r ts.CountRange) int64 {
	devs := map[int]bool{}
	for _, d := range r.Devices {
		devs[m.s.DevicePos(d.Index)] = true
	}
	var n int64
	for sid, pts := range m.pts {
		p := int(sid) / len(m.s.Sensors)
		if len(devs) > 0 && !devs[p] {
			continue
		}
		for tm := range pts {
			if r.End <= r.Start || (tm >= r.Start && tm < r.End) {
				n++
			}
		}
	}
	return n
}

type row struct {
	sid, t, key int64 // key orders rows: time, or bucket number
	v           float64
}

// expect computes the result of q from the model, following the semantics
// of ts.Query and the row order documented on Target.Query.
func (m *model) expect(q *ts.Query) ts.Result {
	numericOnly := q.Kind.HasValueFilter() || (q.Kind.Aggregates() && q.Agg.NeedsNumeric())
	// A series listed twice (same device or sensor twice) is one series.
	seen := map[int64]bool{}
	var sids []int64
	for _, d := range q.Devices {
		for _, j := range q.Sensors {
			if numericOnly && !m.s.Sensors[j].Type.Numeric() {
				continue
			}
			sid := m.s.SeriesID(m.s.DevicePos(d.Index), j)
			if !seen[sid] {
				seen[sid] = true
				sids = append(sids, sid)
			}
		}
	}
	sort.Slice(sids, func(a, b int) bool { return sids[a] < sids[b] })
	match := func(tm int64, pt mpoint) bool {
		if q.Kind.HasTimeRange() && (tm < q.Start || tm >= q.End) {
			return false
		}
		if q.Kind == ts.PrecisePoint && tm != q.Start {
			return false
		}
		if q.Kind.HasValueFilter() && !(pt.num > q.Lower) {
			return false
		}
		return true
	}
	aggregate := func(vals []float64) float64 {
		switch q.Agg {
		case ts.Count:
			return float64(len(vals))
		case ts.Sum, ts.Avg:
			s := 0.0
			for _, v := range vals {
				s += v
			}
			if q.Agg == ts.Avg {
				return s / float64(len(vals))
			}
			return s
		case ts.Min:
			mn := math.Inf(1)
			for _, v := range vals {
				mn = math.Min(mn, v)
			}
			return mn
		default:
			mx := math.Inf(-1)
			for _, v := range vals {
				mx = math.Max(mx, v)
			}
			return mx
		}
	}

	var rows []row
	for _, sid := range sids {
		pts := m.pts[sid]
		switch q.Kind {
		case ts.LatestPoint:
			best, found := int64(math.MinInt64), false
			for tm := range pts {
				if tm > best {
					best, found = tm, true
				}
			}
			if found {
				rows = append(rows, row{sid: sid, t: best, key: 0, v: pts[best].num})
			}
		case ts.AggRange, ts.AggValue, ts.AggRangeValue:
			var vals []float64
			for tm, pt := range pts {
				if match(tm, pt) {
					vals = append(vals, pt.num)
				}
			}
			if len(vals) > 0 {
				rows = append(rows, row{sid: sid, t: 0, v: aggregate(vals)})
			}
		case ts.GroupBy:
			buckets := map[int64][]float64{}
			for tm, pt := range pts {
				if match(tm, pt) {
					i := (tm - q.Start) / q.Bucket
					buckets[i] = append(buckets[i], pt.num)
				}
			}
			for i, vals := range buckets {
				rows = append(rows, row{sid: sid, t: q.Start + i*q.Bucket, key: i, v: aggregate(vals)})
			}
		default:
			for tm, pt := range pts {
				if match(tm, pt) {
					rows = append(rows, row{sid: sid, t: tm, key: tm, v: pt.num})
				}
			}
		}
	}
	sort.Slice(rows, func(a, b int) bool {
		ra, rb := rows[a], rows[b]
		if ra.key != rb.key {
			if q.Kind.Descending() {
				return ra.key > rb.key
			}
			return ra.key < rb.key
		}
		return ra.sid < rb.sid
	})
	var res ts.Result
	for _, r := range rows {
		res.Add(r.t, r.v)
	}
	return res
}

func openTarget(t testing.TB, dir string) *Target {
	t.Helper()
	d, err := targets.Lookup("SQLite")
	if err != nil {
		t.Fatal(err)
	}
	tg, err := d.Open(context.Background(), targets.Options{DataDir: dir, Database: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.Close() })
	return tg.(*Target)
}

// setUp opens a target in dir and sets a schema of devices devices up on it.
func setUp(t *testing.T, dir string, devices int) (*Target, *ts.Schema) {
	t.Helper()
	s := testSchema(devices)
	tg := openTarget(t, dir)
	if err := tg.Setup(context.Background(), s, true); err != nil {
		t.Fatal(err)
	}
	return tg, s
}

// fixture writes the test data set: device 0 and 1 have rows 0..39, device
// 2 rows 0..24; device 1 misses rows 10..14. Rows arrive in batches of 10
// in shuffled order, and the batches themselves out of order. Then rows 3
// and 7 of device 0 are written again with other values.
func fixture(t *testing.T) (*Target, *model) {
	t.Helper()
	ctx := context.Background()
	tg, s := setUp(t, t.TempDir(), 3)
	m := newModel(s)
	rng := rand.New(rand.NewPCG(1, 2))
	rowsOf := []int{40, 40, 25}
	for p, n := range rowsOf {
		var chunks [][]int
		for lo := 0; lo < n; lo += 10 {
			var ks []int
			for k := lo; k < min(lo+10, n); k++ {
				if p == 1 && k >= 10 && k < 15 {
					continue
				}
				ks = append(ks, k)
			}
			rng.Shuffle(len(ks), func(i, j int) { ks[i], ks[j] = ks[j], ks[i] })
			chunks = append(chunks, ks)
		}
		rng.Shuffle(len(chunks), func(i, j int) { chunks[i], chunks[j] = chunks[j], chunks[i] })
		for _, ks := range chunks {
			b := makeBatch(s, p, ks, 0)
			if err := tg.Write(ctx, b); err != nil {
				t.Fatal(err)
			}
			m.add(b)
		}
	}
	wantDistinct := int64((40 + 35 + 25) * len(s.Sensors))
	if n, err := tg.Count(ctx, ts.CountRange{}); err != nil || n != wantDistinct {
		t.Fatalf("Count before rewrite = %d, %v; want %d", n, err, wantDistinct)
	}
	rw := makeBatch(s, 0, []int{7, 3}, 100)
	if err := tg.Write(ctx, rw); err != nil {
		t.Fatal(err)
	}
	m.add(rw)
	if n, err := tg.Count(ctx, ts.CountRange{}); err != nil || n != wantDistinct {
		t.Fatalf("Count after rewrite = %d, %v; want %d (a rewrite must replace, not add)", n, err, wantDistinct)
	}
	if got := m.count(ts.CountRange{}); got != wantDistinct {
		t.Fatalf("model holds %d points, want %d", got, wantDistinct)
	}
	return tg, m
}

func devs(s *ts.Schema, ps ...int) []*ts.Device {
	var out []*ts.Device
	for _, p := range ps {
		out = append(out, &s.Devices[p])
	}
	return out
}

var (
	allSensors     = []int{0, 1, 2, 3, 4, 5}
	numericSensors = []int{1, 2, 3, 4}
)

func queryCases(s *ts.Schema) []struct {
	name string
	q    ts.Query
} {
	all := devs(s, 0, 1, 2)
	type tc = struct {
		name string
		q    ts.Query
	}
	cases := []tc{
		{"Q1 all", ts.Query{Kind: ts.PrecisePoint, Devices: all, Sensors: allSensors, Start: at(12)}},
		{"Q1 rewritten", ts.Query{Kind: ts.PrecisePoint, Devices: devs(s, 0), Sensors: allSensors, Start: at(7)}},
		{"Q1 between steps", ts.Query{Kind: ts.PrecisePoint, Devices: all, Sensors: allSensors, Start: at(12) + 1}},
		{"Q2", ts.Query{Kind: ts.TimeRange, Devices: devs(s, 0, 1), Sensors: allSensors, Start: at(5), End: at(20)}},
		{"Q2 half-open", ts.Query{Kind: ts.TimeRange, Devices: devs(s, 2), Sensors: []int{4}, Start: at(24), End: at(25)}},
		{"Q2 empty range", ts.Query{Kind: ts.TimeRange, Devices: all, Sensors: allSensors, Start: at(20), End: at(20)}},
		{"Q2 duplicate devices", ts.Query{Kind: ts.TimeRange, Devices: devs(s, 1, 1), Sensors: []int{2, 2}, Start: at(0), End: at(40)}},
		{"Q3", ts.Query{Kind: ts.ValueRange, Devices: all, Sensors: []int{1, 4}, Start: at(0), End: at(40), Lower: 0}},
		{"Q3 non-numeric sensors", ts.Query{Kind: ts.ValueRange, Devices: all, Sensors: allSensors, Start: at(2), End: at(30), Lower: -5}},
		{"Q5 non-numeric only", ts.Query{Kind: ts.AggValue, Devices: all, Sensors: []int{0, 5}, Lower: -5, Agg: ts.Max}},
		{"Q7 count text", ts.Query{Kind: ts.GroupBy, Devices: all, Sensors: []int{5}, Start: at(0), End: at(40), Agg: ts.Count, Bucket: 4 * step}},
		{"Q8", ts.Query{Kind: ts.LatestPoint, Devices: all, Sensors: allSensors}},
		{"Q8 one series", ts.Query{Kind: ts.LatestPoint, Devices: devs(s, 2), Sensors: []int{3}}},
		{"Q9", ts.Query{Kind: ts.RangeQueryDesc, Devices: all, Sensors: allSensors, Start: at(8), End: at(33)}},
		{"Q10", ts.Query{Kind: ts.ValueRangeQueryDesc, Devices: devs(s, 0, 2), Sensors: numericSensors, Start: at(1), End: at(38), Lower: 2.5}},
	}
	for _, a := range []ts.Aggregate{ts.Count, ts.Sum, ts.Avg, ts.Min, ts.Max} {
		cases = append(cases,
			tc{"Q4 " + a.String(), ts.Query{Kind: ts.AggRange, Devices: all, Sensors: allSensors, Start: at(3), End: at(33), Agg: a}},
			tc{"Q5 " + a.String(), ts.Query{Kind: ts.AggValue, Devices: all, Sensors: numericSensors, Lower: 2, Agg: a}},
			tc{"Q6 " + a.String(), ts.Query{Kind: ts.AggRangeValue, Devices: devs(s, 1, 2), Sensors: numericSensors, Start: at(4), End: at(31), Lower: -3, Agg: a}},
			// Buckets of 3 s from row 2: [11, 14) is empty for device 1,
			// rows past 24 are missing for device 2, and the last bucket
			// is clipped by End.
			tc{"Q7 " + a.String(), ts.Query{Kind: ts.GroupBy, Devices: all, Sensors: numericSensors, Start: at(2), End: at(38) + 500, Agg: a, Bucket: 3 * step}},
		)
	}
	return cases
}

func sameResult(got, want ts.Result) bool {
	if got.Points != want.Points || got.First != want.First || got.Last != want.Last {
		return false
	}
	return math.Abs(got.Sum-want.Sum) <= 1e-9*math.Max(1, math.Abs(want.Sum))
}

func TestQueries(t *testing.T) {
	tg, m := fixture(t)
	ctx := context.Background()
	for _, c := range queryCases(m.s) {
		t.Run(c.name, func(t *testing.T) {
			want := m.expect(&c.q)
			got, err := tg.Query(ctx, &c.q)
			if err != nil {
				t.Fatal(err)
			}
			if !sameResult(got, want) {
				t.Fatalf("got %+v, want %+v", got, want)
			}
		})
	}
}

// TestQueriesLiteralIDs runs the queries again with the series written into
// the SQL as literals, the path of very long series lists.
func TestQueriesLiteralIDs(t *testing.T) {
	old := Dialect.MaxBound
	Dialect.MaxBound = 0
	defer func() { Dialect.MaxBound = old }()
	tg, m := fixture(t)
	for _, c := range queryCases(m.s) {
		got, err := tg.Query(context.Background(), &c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if want := m.expect(&c.q); !sameResult(got, want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, want)
		}
	}
}

// TestExpectedSanity pins a few model answers by hand, so that a bug shared
// by the model and the target cannot hide.
func TestExpectedSanity(t *testing.T) {
	_, m := fixture(t)
	s := m.s
	for _, c := range []struct {
		q                   ts.Query
		points, first, last int64
	}{
		{ts.Query{Kind: ts.PrecisePoint, Devices: devs(s, 0, 1, 2), Sensors: allSensors, Start: at(12)}, 12, at(12), at(12)},
		{ts.Query{Kind: ts.TimeRange, Devices: devs(s, 1), Sensors: []int{0}, Start: at(5), End: at(20)}, 10, at(5), at(19)},
		{ts.Query{Kind: ts.RangeQueryDesc, Devices: devs(s, 2), Sensors: []int{5}, Start: at(20), End: at(30)}, 5, at(24), at(20)},
		{ts.Query{Kind: ts.LatestPoint, Devices: devs(s, 0, 2), Sensors: []int{1}}, 2, at(39), at(24)},
		{ts.Query{Kind: ts.AggRange, Devices: devs(s, 0, 1, 2), Sensors: []int{0, 5}, Start: at(0), End: at(40), Agg: ts.Count}, 6, 0, 0},
	} {
		got := m.expect(&c.q)
		if got.Points != c.points || got.First != c.first || got.Last != c.last {
			t.Errorf("%v: model gives %+v, want points %d first %d last %d", c.q.Kind, got, c.points, c.first, c.last)
		}
	}
	// Count of device 0's BOOLEAN series over everything: 40 points, sum
	// of a count aggregate = 40.
	q := ts.Query{Kind: ts.AggRange, Devices: devs(s, 0), Sensors: []int{0}, Start: at(0), End: at(40), Agg: ts.Count}
	if got := m.expect(&q); got.Sum != 40 {
		t.Errorf("count of device 0 s_0 = %v, want 40", got.Sum)
	}
}

func TestCount(t *testing.T) {
	tg, m := fixture(t)
	s := m.s
	for _, c := range []struct {
		name string
		r    ts.CountRange
		want int64
	}{
		{"all", ts.CountRange{}, 100 * 6},
		{"device 1", ts.CountRange{Devices: devs(s, 1)}, 35 * 6},
		{"devices 0 and 2", ts.CountRange{Devices: devs(s, 2, 0)}, 65 * 6},
		{"time range", ts.CountRange{Start: at(5), End: at(15)}, (10 + 5 + 10) * 6},
		{"device 1 time range", ts.CountRange{Devices: devs(s, 1), Start: at(5), End: at(15)}, 5 * 6},
		{"devices 1 and 2 time range", ts.CountRange{Devices: devs(s, 1, 2), Start: at(20), End: at(45)}, (20 + 5) * 6},
		{"End before Start means all", ts.CountRange{Devices: devs(s, 0), Start: at(10), End: at(5)}, 40 * 6},
		{"range with no data", ts.CountRange{Start: at(100), End: at(200)}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := m.count(c.r); got != c.want {
				t.Fatalf("model count %d, want %d", got, c.want)
			}
			got, err := tg.Count(context.Background(), c.r)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("Count = %d, want %d", got, c.want)
			}
		})
	}
}

// TestFileReadableWithSQL checks the layout a person sees with sqlite3.
func TestFileReadableWithSQL(t *testing.T) {
	tg, _ := fixture(t)
	ctx := context.Background()
	db, err := sql.Open("sqlite", tg.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM series`).Scan(&n); err != nil || n != 18 {
		t.Fatalf("series rows = %d, %v; want 18", n, err)
	}
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM devices`).Scan(&n); err != nil || n != 3 {
		t.Fatalf("device rows = %d, %v; want 3", n, err)
	}
	var tags, grp string
	var idx int
	if err := db.QueryRowContext(ctx, `SELECT idx, grp, tags FROM devices WHERE name = 'd_11'`).Scan(&idx, &grp, &tags); err != nil {
		t.Fatal(err)
	}
	if idx != 11 || grp != "g_1" || tags != `{"city":"c1","model":"m\"x"}` {
		t.Fatalf("device d_11 = %d %q %q", idx, grp, tags)
	}
	// Each type keeps its storage class; booleans are 0/1 integers.
	want := map[string]string{"BOOLEAN": "integer", "INT32": "integer", "INT64": "integer",
		"FLOAT": "real", "DOUBLE": "real", "TEXT": "text"}
	rows, err := db.QueryContext(ctx, `SELECT s.type, typeof(p.v), COUNT(*) FROM points p JOIN series s ON s.id = p.series GROUP BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	seen := 0
	for rows.Next() {
		var typ, class string
		var c int
		if err := rows.Scan(&typ, &class, &c); err != nil {
			t.Fatal(err)
		}
		if want[typ] != class {
			t.Errorf("%s values stored as %s, want %s", typ, class, want[typ])
		}
		seen++
	}
	if seen != 6 {
		t.Errorf("saw %d (type, class) pairs, want 6", seen)
	}
	// The device's own name and the sensor's: d_12 s_5 at row 24 is text.
	var v string
	if err := db.QueryRowContext(ctx, `SELECT p.v FROM points p JOIN series s ON s.id = p.series
		WHERE s.device = 'd_12' AND s.sensor = 's_5' AND p.t = ?`, at(24)).Scan(&v); err != nil || v != "d2-k24-0" {
		t.Fatalf("d_12 s_5 @24 = %q, %v", v, err)
	}
}

// TestSetupAndBind: a second client binds and sees the data; Setup without
// reset keeps it, with reset drops it.
func TestSetupAndBind(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := testSchema(3)

	fresh := openTarget(t, dir)
	if err := fresh.Bind(ctx, s); err == nil {
		t.Fatal("Bind before Setup succeeded; want an error saying to run Setup")
	}
	if err := fresh.Write(ctx, makeBatch(s, 0, []int{0}, 0)); err == nil {
		t.Fatal("Write without Setup or Bind succeeded")
	}

	a := openTarget(t, dir)
	if err := a.Setup(ctx, s, true); err != nil {
		t.Fatal(err)
	}
	if err := a.Write(ctx, makeBatch(s, 1, []int{0, 1, 2}, 0)); err != nil {
		t.Fatal(err)
	}
	b := openTarget(t, dir)
	if err := b.Bind(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := b.Write(ctx, makeBatch(s, 2, []int{5}, 0)); err != nil {
		t.Fatal(err)
	}
	for _, tg := range []*Target{a, b} {
		if n, err := tg.Count(ctx, ts.CountRange{}); err != nil || n != 4*6 {
			t.Fatalf("Count = %d, %v; want 24", n, err)
		}
	}
	res, err := b.Query(ctx, &ts.Query{Kind: ts.LatestPoint, Devices: devs(s, 1), Sensors: []int{1}})
	if err != nil || res.Points != 1 || res.First != at(2) {
		t.Fatalf("Q8 via bound client = %+v, %v", res, err)
	}

	if err := a.Setup(ctx, s, false); err != nil {
		t.Fatal(err)
	}
	if n, _ := b.Count(ctx, ts.CountRange{}); n != 24 {
		t.Fatalf("after Setup without reset Count = %d, want 24", n)
	}
	if err := a.Setup(ctx, s, true); err != nil {
		t.Fatal(err)
	}
	if n, _ := b.Count(ctx, ts.CountRange{}); n != 0 {
		t.Fatalf("after Setup with reset Count = %d, want 0", n)
	}
	// b's statements were prepared before the reset; they must still work.
	if err := b.Write(ctx, makeBatch(s, 2, []int{5, 6}, 0)); err != nil {
		t.Fatal(err)
	}
	if n, _ := a.Count(ctx, ts.CountRange{}); n != 12 {
		t.Fatalf("Count = %d, want 12", n)
	}

	if v, err := a.ServerVersion(ctx); err != nil || !strings.HasPrefix(v, "SQLite 3.") {
		t.Fatalf("ServerVersion = %q, %v", v, err)
	}
	if size, err := a.StorageBytes(ctx); err != nil || size <= 0 {
		t.Fatalf("StorageBytes = %d, %v", size, err)
	}
}

func TestWriteErrors(t *testing.T) {
	ctx := context.Background()
	tg, s := setUp(t, t.TempDir(), 3)
	stranger := &ts.Device{Index: 99, Name: "d_99"}
	b := makeBatch(s, 0, []int{1}, 0)
	b.Device = stranger
	if err := tg.Write(ctx, b); err == nil {
		t.Error("Write for a device outside the schema succeeded")
	}
	b = makeBatch(s, 0, []int{1}, 0)
	b.Columns = b.Columns[:3]
	if err := tg.Write(ctx, b); err == nil {
		t.Error("Write with missing columns succeeded")
	}
	if _, err := tg.Query(ctx, &ts.Query{Kind: ts.GroupBy, Devices: devs(s, 0), Sensors: []int{1}, Start: 0, End: 10}); err == nil {
		t.Error("Q7 with a zero bucket succeeded")
	}
	if n, err := tg.Count(ctx, ts.CountRange{}); err != nil || n != 0 {
		t.Errorf("Count after failed writes = %d, %v", n, err)
	}
}

// TestLargeBatch crosses the statement size: 97 rows x 6 sensors = 582
// points, one full statement and one shorter.
func TestLargeBatch(t *testing.T) {
	ctx := context.Background()
	tg, s := setUp(t, t.TempDir(), 3)
	var ks []int
	for k := 96; k >= 0; k-- {
		ks = append(ks, k)
	}
	m := newModel(s)
	for p := range s.Devices {
		b := makeBatch(s, p, ks, 0)
		if err := tg.Write(ctx, b); err != nil {
			t.Fatal(err)
		}
		m.add(b)
	}
	if n, err := tg.Count(ctx, ts.CountRange{}); err != nil || n != 3*97*6 {
		t.Fatalf("Count = %d, %v; want %d", n, err, 3*97*6)
	}
	q := ts.Query{Kind: ts.AggRange, Devices: devs(s, 0, 1, 2), Sensors: numericSensors, Start: at(0), End: at(97), Agg: ts.Sum}
	got, err := tg.Query(ctx, &q)
	if err != nil {
		t.Fatal(err)
	}
	if want := m.expect(&q); !sameResult(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

// TestConcurrentClients: four clients, each with its own connection, write
// to the same file at once; no SQLITE_BUSY may surface and no point be lost.
func TestConcurrentClients(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	const clients, batches, rows = 4, 50, 20
	s := testSchema(clients)
	tgs := make([]*Target, clients)
	for i := range tgs {
		tgs[i] = openTarget(t, dir)
		var err error
		if i == 0 {
			err = tgs[i].Setup(ctx, s, true)
		} else {
			err = tgs[i].Bind(ctx, s)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, clients*batches)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < batches; i++ {
				ks := make([]int, rows)
				for r := range ks {
					ks[r] = i*rows + r
				}
				if err := tgs[c].Write(ctx, makeBatch(s, c, ks, 0)); err != nil {
					errs <- err
					return
				}
				// Readers run beside the writers.
				if i%10 == 0 {
					if _, err := tgs[c].Query(ctx, &ts.Query{Kind: ts.LatestPoint, Devices: devs(s, (c+1)%clients), Sensors: allSensors}); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	want := int64(clients * batches * rows * len(s.Sensors))
	if n, err := tgs[0].Count(ctx, ts.CountRange{}); err != nil || n != want {
		t.Fatalf("Count = %d, %v; want %d", n, err, want)
	}
}

func TestRegistration(t *testing.T) {
	d, err := targets.Lookup("SQLite")
	if err != nil || d.Name != "sqlite" {
		t.Fatalf("Lookup(SQLite) = %v, %v", d, err)
	}
	targettest.CheckDeclaresAll(t, d)
	if _, err := d.Open(context.Background(), targets.Options{DataDir: t.TempDir(), Database: "a/b"}); err == nil {
		t.Error("a database name with a slash was accepted")
	}
}

// BenchmarkSQLiteWrite writes 1000-point batches (100 rows x 10 sensors of
// mixed types) of new timestamps into one file.
func BenchmarkSQLiteWrite(b *testing.B) {
	ctx := context.Background()
	s := &ts.Schema{Database: "bench", Groups: []string{"g_0"}, StartTime: t0, PointStep: step,
		Devices: []ts.Device{{Index: 0, Name: "d_0"}}}
	for i := 0; i < 10; i++ {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: fmt.Sprintf("s_%d", i), Type: ts.DataTypes[i%len(ts.DataTypes)]})
	}
	tg := openTarget(b, b.TempDir())
	if err := tg.Setup(ctx, s, true); err != nil {
		b.Fatal(err)
	}
	ks := make([]int, 100)
	for i := range ks {
		ks[i] = i
	}
	batch := makeBatch(s, 0, ks, 0)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for i := range batch.Times {
			batch.Times[i] = at(n*100 + i)
		}
		if err := tg.Write(ctx, batch); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)*float64(batch.Points())/b.Elapsed().Seconds(), "points/s")
}

// TestAwkwardPath: the file URI escapes characters that would end the path.
func TestAwkwardPath(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "a?b#c%20d e")
	tg, s := setUp(t, dir, 1)
	if err := tg.Write(ctx, makeBatch(s, 0, []int{0, 1}, 0)); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "test.db")
	if tg.Path() != want {
		t.Fatalf("Path = %q, want %q", tg.Path(), want)
	}
	if _, err := os.Stat(want); err != nil {
		t.Fatalf("database file not where expected: %v", err)
	}
}
