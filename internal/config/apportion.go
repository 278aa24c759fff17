package config

import (
	"github.com/tsbench/tsbench/internal/ts"
)

// SensorTypes assigns a data type to each of n sensors by the proportion
// prop (BOOLEAN:INT32:INT64:FLOAT:DOUBLE:TEXT) as IoT-benchmark does (its
// Config.initSensorCodes), so that a configuration gives every sensor the
// type it has there: the types stand in contiguous blocks in proportion
// order, sensor i taking the type t whose cumulative share (prop[0] + ... +
// prop[t]) / sum is the first to reach (i+1)/n. With 1:1:1:1:1:1 and 10
// sensors that is BOOLEAN, INT32 x2, INT64 x2, FLOAT, DOUBLE x2, TEXT x2
// (1:2:2:1:2:2); with 300 sensors 50 of each. The arithmetic is Java's
// double arithmetic, step for step, so the boundaries fall where they fall
// there. The schema builder and the validation in Resolve both use it, so
// the check "enough numeric sensors for the queries" is about the schema
// that will really be created.
//
// It returns nil when n <= 0 or when prop has a negative weight or sums to 0.
func SensorTypes(prop [6]int64, n int) []ts.DataType {
	cumulative, ok := typeShares(prop)
	if !ok || n <= 0 {
		return nil
	}
	out := make([]ts.DataType, n)
	for i := range out {
		position := float64(i+1) / float64(n)
		t := len(cumulative) - 1
		for k, share := range cumulative {
			if position <= share && prop[k] > 0 {
				t = k
				break
			}
		}
		out[i] = ts.DataType(t)
	}
	return out
}

// typeShares is the cumulative share of each type, computed as IoT-benchmark
// computes it (sums of doubles, then one division each); false for a
// negative or oversized weight or a zero sum.
func typeShares(prop [6]int64) ([6]float64, bool) {
	var cumulative [6]float64
	sum, running := 0.0, 0.0
	for i, w := range prop {
		if w < 0 || w > maxWeight {
			return cumulative, false
		}
		running += float64(w)
		cumulative[i] = running
		sum += float64(w)
	}
	if sum == 0 {
		return cumulative, false
	}
	for i := range cumulative {
		cumulative[i] /= sum
	}
	return cumulative, true
}

// typeCounts is how many of n sensors each type gets.
func typeCounts(prop [6]int64, n int) []int64 {
	types := SensorTypes(prop, n)
	if types == nil {
		return nil
	}
	counts := make([]int64, len(prop))
	for _, t := range types {
		counts[t]++
	}
	return counts
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
