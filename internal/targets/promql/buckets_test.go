package promql

import (
	"fmt"
	"reflect"
	"strconv"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// PlanBuckets: whole buckets on one grid evaluated at each bucket's end -
// 1 ms with the bucket as window; buckets clipped by End or START_TIME on
// their own, with the clipped width as window.
func TestPlanBuckets(t *testing.T) {
	q := func(start, end, bucket int64) *ts.Query {
		return &ts.Query{Kind: ts.GroupBy, Start: start, End: end, Bucket: bucket}
	}
	for _, c := range []struct {
		name      string
		q         *ts.Query
		startTime int64
		want      []Grid
		ok        bool
	}{
		{"aligned", q(1000, 4000, 1000), 0, []Grid{{1999, 3999, 1000, 1000}}, true},
		{"end clips the last", q(1000, 4500, 1000), 0,
			[]Grid{{1999, 3999, 1000, 1000}, {4499, 4499, 1000, 500}}, true},
		{"start time clips the first", q(1000, 4000, 1000), 1300,
			[]Grid{{1999, 1999, 1000, 700}, {2999, 3999, 1000, 1000}}, true},
		{"both ends clipped", q(1000, 4500, 1000), 1300,
			[]Grid{{1999, 1999, 1000, 700}, {2999, 3999, 1000, 1000}, {4499, 4499, 1000, 500}}, true},
		{"start time on a bucket's start", q(1000, 4000, 1000), 2000, []Grid{{2999, 3999, 1000, 1000}}, true},
		{"one bucket, clipped both sides", q(1000, 1800, 1000), 1300, []Grid{{1799, 1799, 1000, 500}}, true},
		{"one whole bucket", q(1000, 2000, 1000), 0, []Grid{{1999, 1999, 1000, 1000}}, true},
		{"two clipped, none whole", q(1000, 2500, 1000), 1300,
			[]Grid{{1999, 1999, 1000, 700}, {2499, 2499, 1000, 500}}, true},
		{"ends before start time", q(1000, 4000, 1000), 4000, nil, true},
		{"split at MaxBucketsPerRequest", q(0, 25_000, 1), 0,
			[]Grid{{0, 9999, 1, 1}, {10_000, 19_999, 1, 1}, {20_000, 24_999, 1, 1}}, true},
		{"too many buckets", q(0, MaxServerBuckets+1, 1), 0, nil, false},
		{"conformance window", q(1_000_003_200, 1_000_090_000, 7000), 1_000_000_000,
			[]Grid{{1_000_010_199, 1_000_087_199, 7000, 7000}, {1_000_089_999, 1_000_089_999, 7000, 2800}}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := PlanBuckets(c.q, c.startTime)
			if ok != c.ok || !reflect.DeepEqual(got, c.want) {
				t.Fatalf("PlanBuckets = %v, %v; want %v, %v", got, ok, c.want, c.ok)
			}
		})
	}
}

// The PromQL of each aggregate, per series and across devices: every
// sensor's rollup marked with its position, an average across devices as
// its sum and its count.
func TestGroupByExpr(t *testing.T) {
	sel := func(k int) string { return `{db="test",__name__="s_` + strconv.Itoa(k) + `"}` }
	mark := func(expr, label, v string) string {
		return `label_replace(` + expr + `, "` + label + `", "` + v + `", "", "")`
	}
	two := func(one func(k int) string) string {
		return mark(one(0), SensorLabel, "0") + " or " + mark(one(1), SensorLabel, "1")
	}
	roll := func(fn string, k int) string { return fn + `(` + sel(k) + `[60000ms])` }
	for _, c := range []struct {
		agg    ts.Aggregate
		across bool
		want   string
	}{
		{ts.Count, false, two(func(k int) string { return roll("count_over_time", k) })},
		{ts.Avg, false, two(func(k int) string { return roll("avg_over_time", k) })},
		{ts.Max, false, two(func(k int) string { return roll("max_over_time", k) })},
		{ts.Count, true, two(func(k int) string { return "sum(" + roll("count_over_time", k) + ")" })},
		{ts.Sum, true, two(func(k int) string { return "sum(" + roll("sum_over_time", k) + ")" })},
		{ts.Min, true, two(func(k int) string { return "min(" + roll("min_over_time", k) + ")" })},
		{ts.Max, true, two(func(k int) string { return "max(" + roll("max_over_time", k) + ")" })},
		{ts.Avg, true, two(func(k int) string {
			return mark("sum("+roll("sum_over_time", k)+")", PartLabel, "sum") + " or " +
				mark("sum("+roll("count_over_time", k)+")", PartLabel, "count")
		})},
	} {
		t.Run(fmt.Sprintf("%s_across_%v", c.agg, c.across), func(t *testing.T) {
			q := &ts.Query{Kind: ts.GroupBy, Agg: c.agg, Across: c.across, Bucket: 60_000, Sensors: []int{3, 4}}
			got, err := GroupByExpr(q, sel, 60_000)
			if err != nil || got != c.want {
				t.Fatalf("GroupByExpr =\n%s (%v)\nwant\n%s", got, err, c.want)
			}
		})
	}
}

// Buckets puts each value in its bucket: per series as they come; across
// devices once per sensor and bucket (a second answer for one, or one out
// of range, makes the result unusable), an average from its two halves.
func TestBuckets(t *testing.T) {
	q := &ts.Query{Kind: ts.GroupBy, Start: 1000, End: 4000, Bucket: 1000, Sensors: []int{0, 1}}
	per := *q
	per.Agg = ts.Max
	b := NewBuckets(&per, 0)
	for _, v := range [][2]float64{{1999, 5}, {2999, 7}, {1999, 1}} {
		b.Add(0, "", int64(v[0]), v[1])
	}
	if res, ok := b.Result(); !ok || res.Points != 3 || res.Sum != 13 {
		t.Fatalf("per series: %+v, %v", res, ok)
	}

	across := *q
	across.Agg, across.Across = ts.Count, true
	b = NewBuckets(&across, 0)
	if !b.Add(0, "", 1999, 4) || !b.Add(1, "", 1999, 2) || !b.Add(0, "", 2999, 3) {
		t.Fatal("a first answer refused")
	}
	if res, ok := b.Result(); !ok || res.Points != 3 || res.Sum != 9 {
		t.Fatalf("across: %+v, %v", res, ok)
	}
	for name, add := range map[string][2]any{"twice": {0, int64(1999)}, "out of range": {1, int64(9999)}, "no sensor": {5, int64(1999)}} {
		b = NewBuckets(&across, 0)
		b.Add(0, "", 1999, 1)
		if b.Add(add[0].(int), "", add[1].(int64), 1) {
			t.Errorf("%s: taken", name)
		}
		if _, ok := b.Result(); ok {
			t.Errorf("%s: the result is usable", name)
		}
	}

	avg := *q
	avg.Agg, avg.Across = ts.Avg, true
	b = NewBuckets(&avg, 0)
	b.Add(0, "sum", 1999, 10)
	b.Add(0, "count", 1999, 4)
	if res, ok := b.Result(); !ok || res.Points != 1 || res.Sum != 2.5 {
		t.Fatalf("average: %+v, %v", res, ok)
	}
	b = NewBuckets(&avg, 0)
	b.Add(0, "sum", 1999, 10)
	if _, ok := b.Result(); ok {
		t.Error("an average without its count is usable")
	}
}
