package workload

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/ts"
)

func cfg(t *testing.T, settings ...string) *config.Config {
	t.Helper()
	c, err := config.FromArgs(settings...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The operation counts of a plan match OPERATION_PROPORTION exactly.
func TestPlanCountsExact(t *testing.T) {
	cases := []struct {
		weights [NumOps]int64
		loop    int64
		want    [NumOps]int64
	}{
		{[NumOps]int64{1}, 100, [NumOps]int64{100}},
		{[NumOps]int64{0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 30, [NumOps]int64{0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}},
		{[NumOps]int64{10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 10000, [NumOps]int64{5000, 500, 500, 500, 500, 500, 500, 500, 500, 500, 500}},
		{[NumOps]int64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 10000, [NumOps]int64{910, 909, 909, 909, 909, 909, 909, 909, 909, 909, 909}},
	}
	for _, c := range cases {
		p := NewPlan(c.weights[:], c.loop)
		var got [NumOps]int64
		for {
			op, ok := p.Next()
			if !ok {
				break
			}
			got[op]++
		}
		if got != c.want || [NumOps]int64(p.Counts()) != c.want {
			t.Errorf("weights %v loop %d: ran %v (counts %v), want %v", c.weights, c.loop, got, p.Counts(), c.want)
		}
	}
}

// Devices are split between clients covering every device once: in
// contiguous ranges of 3, 3 and 4 (tsbench), or as IoT-benchmark's
// distributeDevices splits them, ordered by storage group (GROUP_NUMBER 2,
// mod: the even devices first) with the extra device to client 0: 0 2 4 6,
// 8 1 3, 5 7 9.
func TestClientDevices(t *testing.T) {
	for _, tc := range []struct {
		binding string
		want    []string
	}{
		{BindContiguous, []string{"[0 1 2]", "[3 4 5]", "[6 7 8 9]"}},
		{BindIoTBenchmark, []string{"[0 2 4 6]", "[8 1 3]", "[5 7 9]"}},
	} {
		c := cfg(t, "DEVICE_NUMBER=10", "CLIENT_NUMBER=3", "GROUP_NUMBER=2", "DEVICE_BINDING="+tc.binding)
		s := Schema(c)
		seen := map[int]bool{}
		for client := 0; client < 3; client++ {
			var idx []int
			for _, d := range ClientDevices(c, s, client) {
				if seen[d.Index] {
					t.Fatalf("%s: device %d owned twice", tc.binding, d.Index)
				}
				seen[d.Index] = true
				idx = append(idx, d.Index)
			}
			if got := fmt.Sprint(idx); got != tc.want[client] {
				t.Errorf("%s: client %d owns %s, want %s", tc.binding, client, got, tc.want[client])
			}
		}
		if len(seen) != 10 {
			t.Fatalf("%s: %d devices owned", tc.binding, len(seen))
		}
	}
}

// Cluster mode offsets device indexes (IoT-benchmark's BENCHMARK_INDEX, which
// crashes there for index >= 1), groups follow SG_STRATEGY, tags are set.
func TestSchemaClusterGroupsTags(t *testing.T) {
	s := Schema(cfg(t, "DEVICE_NUMBER=100", "BENCHMARK_CLUSTER=true", "BENCHMARK_INDEX=2", "GROUP_NUMBER=10",
		"SG_STRATEGY=div", "TAG_NUMBER=2", "TAG_VALUE_CARDINALITY=3,5"))
	if s.Devices[0].Index != 200 || s.Devices[0].Name != "d_200" || s.Devices[99].Name != "d_299" {
		t.Fatalf("cluster offset: first %+v last %+v", s.Devices[0], s.Devices[99])
	}
	if s.Devices[9].Group != 0 || s.Devices[10].Group != 1 || s.Devices[99].Group != 9 {
		t.Fatal("div strategy: devices 0-9 in g_0 ... 90-99 in g_9")
	}
	if len(s.Devices[5].Tags) != 2 || s.Devices[5].Tags[1].Key != "tag_1" {
		t.Fatalf("tags %+v", s.Devices[5].Tags)
	}
	mod := Schema(cfg(t, "DEVICE_NUMBER=100", "GROUP_NUMBER=10"))
	if mod.Devices[13].Group != 3 {
		t.Fatal("mod strategy: d_13 in g_3")
	}
}

// Queries pick distinct devices and sensors, numeric ones for value filters
// and numeric aggregates, and windows advance by STEP_SIZE x POINT_STEP per
// query of the same kind.
func TestQueries(t *testing.T) {
	c := cfg(t, "DEVICE_NUMBER=20", "SENSOR_NUMBER=12", "QUERY_DEVICE_NUM=3", "QUERY_SENSOR_NUM=2",
		"STEP_SIZE=4", "POINT_STEP=1000", "QUERY_INTERVAL=50000", "QUERY_AGGREGATE_FUN=avg",
		"OPERATION_PROPORTION=0:1:1:1:1:1:1:1:1:1:1")
	s := Schema(c)
	qs := NewQueries(c, s, 1)
	var q ts.Query
	made := map[ts.QueryKind]int64{} // queries per window sequence: Q9 shares Q2's, Q10 Q3's (IoT-benchmark)
	shared := map[ts.QueryKind]ts.QueryKind{ts.RangeQueryDesc: ts.TimeRange, ts.ValueRangeQueryDesc: ts.ValueRange}
	for round := int64(0); round < 5; round++ {
		for _, k := range ts.QueryKinds {
			qs.Next(k, &q)
			seqKind := k
			if s, ok := shared[k]; ok {
				seqKind = s
			}
			n := made[seqKind]
			made[seqKind]++
			if len(q.Devices) != 3 || len(q.Sensors) != 2 || q.Devices[0] == q.Devices[1] || q.Sensors[0] == q.Sensors[1] {
				t.Fatalf("%s: devices %v sensors %v", k, q.Devices, q.Sensors)
			}
			if q.Kind.HasValueFilter() || q.Kind.Aggregates() {
				for _, sn := range q.Sensors {
					if !s.Sensors[sn].Type.Numeric() {
						t.Fatalf("%s uses non-numeric sensor %s", k, s.Sensors[sn].Type)
					}
				}
			}
			// IoT-benchmark's windows include their end: [start, start+50 s],
			// but for GROUP BY's buckets: [start, start+50 s).
			end := int64(50000 + 1)
			if k == ts.GroupBy {
				end = 50000
			}
			if want := s.StartTime + n*4*1000; q.Start != want || q.End != want+end {
				t.Fatalf("%s round %d: window [%d, %d), want [%d, %d)", k, round, q.Start, q.End, want, want+end)
			}
			if q.Agg != ts.Avg || q.Lower != -5 || q.Bucket != 20000 {
				t.Fatalf("%s: parameters %+v", k, q)
			}
		}
	}
	// The same client draws the same queries in every run; another client differs.
	a, b, other := NewQueries(c, s, 0), NewQueries(c, s, 0), NewQueries(c, s, 1)
	var qa, qb, qo ts.Query
	differs := false
	for i := 0; i < 20; i++ {
		a.Next(ts.TimeRange, &qa)
		b.Next(ts.TimeRange, &qb)
		other.Next(ts.TimeRange, &qo)
		if qa.Devices[0] != qb.Devices[0] || qa.Sensors[1] != qb.Sensors[1] {
			t.Fatal("queries are not reproducible")
		}
		differs = differs || qa.Devices[0] != qo.Devices[0]
	}
	if !differs {
		t.Fatal("two clients draw identical queries")
	}
}

// With QUERY_DEVICE_SELECTION=owned, a client's queries read each of its
// series exactly once per round (HAKOM's "read 25,000 series").
func TestQueriesOwnedReadEverySeriesOnce(t *testing.T) {
	c := cfg(t, "DEVICE_NUMBER=10", "SENSOR_NUMBER=6", "CLIENT_NUMBER=2", "QUERY_DEVICE_NUM=2", "QUERY_SENSOR_NUM=4",
		"QUERY_DEVICE_SELECTION=owned", "INSERT_DATATYPE_PROPORTION=0:0:0:0:1:0", "OPERATION_PROPORTION=0:0:1")
	s := Schema(c)
	qs := NewQueries(c, s, 1)
	seen := map[[2]int]int{}
	var q ts.Query
	for i := 0; i < 3*2; i++ { // 3 device blocks x 2 sensor blocks
		qs.Next(ts.TimeRange, &q)
		for _, d := range q.Devices {
			if d.Index < 5 {
				t.Fatalf("client 1 read device %d, which client 0 owns", d.Index)
			}
			for _, sn := range q.Sensors {
				seen[[2]int{d.Index, sn}]++
			}
		}
	}
	if len(seen) != 5*6 {
		t.Fatalf("read %d distinct series, want 30", len(seen))
	}
	for k, n := range seen {
		if n != 1 {
			t.Fatalf("series %v read %d times", k, n)
		}
	}
}

// A draw is distinct indexes in range, the same for the same key, and
// allocates nothing once its buffers have grown.
func TestPickReusesItsBuffers(t *testing.T) {
	var p picker
	for _, c := range []struct{ n, k int }{{1, 1}, {10, 3}, {10, 10}, {1_000_000, 5}, {50, 40}} {
		for key := uint64(0); key < 50; key++ {
			got := append([]int(nil), p.pick(c.n, c.k, key)...)
			seen := map[int]bool{}
			for _, i := range got {
				if i < 0 || i >= c.n || seen[i] {
					t.Fatalf("pick(%d, %d, %d) = %v: not distinct indexes in range", c.n, c.k, key, got)
				}
				seen[i] = true
			}
			if again := p.pick(c.n, c.k, key); !slices.Equal(again, got) || len(got) != c.k {
				t.Fatalf("pick(%d, %d, %d) = %v, then %v", c.n, c.k, key, got, again)
			}
		}
	}
	if a := testing.AllocsPerRun(100, func() { p.pick(1_000_000, 5, 7) }); a != 0 {
		t.Fatalf("a draw allocates %v times", a)
	}
}

// SG_STRATEGY maps devices to groups as IoT-benchmark's MetaUtil.mappingId
// does; the expected groups were computed with its formulas (Java integer
// arithmetic and String.hashCode), not with this code.
func TestGroupStrategies(t *testing.T) {
	for _, c := range []struct {
		strategy        string
		devices, groups int
		want            []int
	}{
		{"mod", 7, 3, []int{0, 1, 2, 0, 1, 2, 0}},
		{"div", 10, 3, []int{0, 0, 0, 1, 1, 1, 2, 2, 2, 0}}, // runs of 10/3 = 3, taken mod 3
		{"div", 7, 2, []int{0, 0, 0, 1, 1, 1, 0}},
		{"hash", 12, 5, []int{3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 2, 3}},
	} {
		cfg := cfg(t, "DEVICE_NUMBER="+strconv.Itoa(c.devices), "GROUP_NUMBER="+strconv.Itoa(c.groups), "SG_STRATEGY="+c.strategy,
			"CLIENT_NUMBER=1")
		s := Schema(cfg)
		for i, d := range s.Devices {
			if d.Group != c.want[i] {
				t.Errorf("%s, %d devices, %d groups: device %d in group %d, want %d", c.strategy, c.devices, c.groups, i, d.Group, c.want[i])
			}
		}
	}
	// A negative hashCode (IoT-benchmark would name the group g_-6) is taken mod groups.
	if g := javaStringHash("8888888"); g != -182727880 {
		t.Fatalf("hashCode(\"8888888\") = %d, want -182727880", g)
	}
}

// IoT-benchmark writes row 0 one POINT_STEP after START_TIME
// (GenerateDataWorkLoad adds POINT_STEP to the offset of batch 0); its
// query windows still start at START_TIME.
func TestFirstRowAt(t *testing.T) {
	for _, tc := range []struct {
		at   string
		want int64
	}{{FirstRowAtStart, 0}, {FirstRowAtStep, 5000}} {
		c := cfg(t, "POINT_STEP=5000", "FIRST_ROW_AT="+tc.at, "OPERATION_PROPORTION=0:0:1")
		s := Schema(c)
		if got := s.StartTime - c.StartTime.UnixMilli(); got != tc.want {
			t.Errorf("FIRST_ROW_AT=%s: row 0 at START_TIME%+d ms, want %+d", tc.at, got, tc.want)
		}
		var q ts.Query
		NewQueries(c, s, 0).Next(ts.TimeRange, &q)
		if q.Start != c.StartTime.UnixMilli() {
			t.Errorf("FIRST_ROW_AT=%s: first window starts at %d, want START_TIME %d", tc.at, q.Start, c.StartTime.UnixMilli())
		}
	}
}
