package targets

import "github.com/tsbench/tsbench/internal/ts"

// SensorSets are the sets of q's sensors that one statement may read:
// all of them together, or each alone where q has a value filter, since a
// filter on several columns of a row (SQL's or CQL's WHERE, InfluxQL's on
// fields) keeps only the rows where every one of them passes, while
// ts.Query filters each sensor's points apart.
func SensorSets(q *ts.Query) [][]int {
	if !q.Kind.HasValueFilter() {
		return [][]int{q.Sensors}
	}
	sets := make([][]int, len(q.Sensors))
	for i, sn := range q.Sensors {
		sets[i] = []int{sn}
	}
	return sets
}
