package targets

import (
	"reflect"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

func TestSensorSets(t *testing.T) {
	cases := []struct {
		name string
		q    ts.Query
		want [][]int
	}{
		{"no filter: one set", ts.Query{Kind: ts.TimeRange, Sensors: []int{0, 2, 5}}, [][]int{{0, 2, 5}}},
		{"aggregate without filter", ts.Query{Kind: ts.AggRange, Sensors: []int{1, 3}}, [][]int{{1, 3}}},
		{"value filter: each alone", ts.Query{Kind: ts.ValueRange, Sensors: []int{0, 2, 5}}, [][]int{{0}, {2}, {5}}},
		{"filtered aggregate", ts.Query{Kind: ts.AggRangeValue, Sensors: []int{4}}, [][]int{{4}}},
		{"descending with filter", ts.Query{Kind: ts.ValueRangeQueryDesc, Sensors: []int{1, 0}}, [][]int{{1}, {0}}},
	}
	for _, c := range cases {
		if got := SensorSets(&c.q); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: SensorSets = %v, want %v", c.name, got, c.want)
		}
	}
}
