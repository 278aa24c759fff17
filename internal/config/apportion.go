package config

import (
	"github.com/tsbench/tsbench/internal/apportion"
	"github.com/tsbench/tsbench/internal/ts"
)

// SensorTypes assigns a data type to each of n sensors by the proportion
// prop (BOOLEAN:INT32:INT64:FLOAT:DOUBLE:TEXT). The schema builder and the
// validation in Resolve both use it, so the check "enough numeric sensors
// for the queries" is about the schema that will really be created. The
// arithmetic is package apportion's, which also divides the operation mix.
//
// Counts come from largest-remainder apportionment: type t first gets
// floor(n*prop[t]/sum); the sensors left over go one each to the types with
// the largest remainders, ties going to the earlier type in proportion
// order. So 1:1:1:1:1:1 with 300 sensors gives exactly 50 of each, and 1:2
// (BOOLEAN:INT32) with 10 sensors gives 3 BOOLEAN and 7 INT32 (quotas 3.33
// and 6.67).
//
// Order comes from smooth weighted round-robin over those counts: at each
// sensor every type's credit grows by its count, the type with the most
// credit (earliest on ties) takes the sensor and pays n. This spreads each
// type evenly over the sensor indexes, so with 1:1:1:1:1:1 s_0 is BOOLEAN,
// s_1 INT32, ..., s_5 TEXT, s_6 BOOLEAN again, and with 1:2 and 10 sensors
// the order is INT32 BOOLEAN INT32 INT32 BOOLEAN INT32 INT32 INT32 BOOLEAN
// INT32.
//
// It returns nil when n <= 0 or when prop has a negative weight or sums to 0.
func SensorTypes(prop [6]int64, n int) []ts.DataType {
	counts := typeCounts(prop, n)
	if counts == nil {
		return nil
	}
	seq := apportion.NewSequence(counts)
	out := make([]ts.DataType, n)
	for i := range out {
		out[i] = ts.DataType(seq.Next())
	}
	return out
}

// typeCounts is how many of n sensors each type gets. The weight cap is the
// one parsing applies; it keeps the sum of weights from overflowing.
func typeCounts(prop [6]int64, n int) []int64 {
	for _, w := range prop {
		if w > maxWeight {
			return nil
		}
	}
	if n <= 0 {
		return nil
	}
	return apportion.Counts(prop[:], int64(n))
}

// numericSensors counts the sensors SensorTypes makes numeric (INT32, INT64,
// FLOAT, DOUBLE): the ones value filters and sum/avg/min/max apply to.
func numericSensors(prop [6]int64, n int) int {
	k := 0
	for t, c := range typeCounts(prop, n) {
		if ts.DataType(t).Numeric() {
			k += int(c)
		}
	}
	return k
}
