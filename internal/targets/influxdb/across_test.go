package influxdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// TSBS's groupby-orderby-limit becomes one statement with no GROUP BY
// device, its buckets aligned to the window start and the newest first;
// an average asks for sum and count so that measurements combine. The
// answers themselves are checked against the real server by the
// conformance suite (AcrossQueries).
func TestAcrossQL(t *testing.T) {
	s := &ts.Schema{Groups: []string{"cpu"}, Sensors: []ts.Sensor{{Name: "usage_user"}, {Name: "usage_system"}},
		Devices: []ts.Device{{Name: "host_0"}, {Name: "host_1"}}}
	q := ts.Query{Kind: ts.GroupBy, Devices: []*ts.Device{&s.Devices[0], &s.Devices[1]}, Sensors: []int{0},
		Start: 90_000, End: 3_690_001, Bucket: 60_000, Agg: ts.Max, Across: true, Limit: 5}
	tests := []struct {
		name string
		edit func(q *ts.Query)
		want string
	}{
		{"limit", func(*ts.Query) {},
			`SELECT max("usage_user"::field) FROM "cpu" WHERE ("device"::tag = 'host_0' OR "device"::tag = 'host_1') AND time >= 90000ms AND time < 3690001ms ` +
				`GROUP BY time(60000ms, 30000ms) fill(none) ORDER BY time DESC LIMIT 5`},
		{"avg", func(q *ts.Query) { q.Agg, q.Limit, q.Sensors = ts.Avg, 0, []int{0, 1} },
			`SELECT sum("usage_user"::field), count("usage_user"::field), sum("usage_system"::field), count("usage_system"::field) FROM "cpu" ` +
				`WHERE ("device"::tag = 'host_0' OR "device"::tag = 'host_1') AND time >= 90000ms AND time < 3690001ms GROUP BY time(60000ms, 30000ms) fill(none)`},
	}
	for _, tt := range tests {
		q := q
		tt.edit(&q)
		got, err := acrossQL(s, &q)
		if err != nil || got != tt.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", tt.name, got, err, tt.want)
		}
	}
}
