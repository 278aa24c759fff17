package ts

import "fmt"

// AnalyticKind is an analytics query over whole event tables, beyond
// IoT-benchmark's Q1..Q10: aggregates grouped by a device tag, as the WSO2
// DAS study (seed 003) runs them with Spark.
type AnalyticKind uint8

const (
	// TagAggregates: per value of Tag, avg, min and max of Sensor (three
	// values per group). DAS: cityUsage, per metro area.
	TagAggregates AnalyticKind = iota + 1
	// DeviceRange: per device whose Tag equals Value, max - min of Sensor
	// over the rows where the BOOLEAN sensor Flag is true. DAS:
	// peakDeviceUsageRange for one metro area.
	DeviceRange
	// TagAverage: per value of Tag, avg of Sensor. DAS: stateAvgUsage.
	TagAverage
	// TagAverageDiff: per value of Tag, its avg of Sensor minus the mean of
	// all groups' averages. DAS: stateUsageDifference.
	TagAverageDiff
	// CountRows: the number of rows (events). DAS: count(*).
	CountRows
)

func (k AnalyticKind) String() string {
	switch k {
	case TagAggregates:
		return "TAG_AGGREGATES"
	case DeviceRange:
		return "DEVICE_RANGE"
	case TagAverage:
		return "TAG_AVERAGE"
	case TagAverageDiff:
		return "TAG_AVERAGE_DIFF"
	case CountRows:
		return "COUNT_ROWS"
	}
	return fmt.Sprintf("AnalyticKind(%d)", k)
}

// Analytic is one analytics query over every row of every device. Its
// Result has Points = result rows (groups) and Sum = the sum of every value
// returned (for TagAggregates avg+min+max of each group; for CountRows the
// count).
type Analytic struct {
	Name   string // e.g. cityUsage
	Kind   AnalyticKind
	Tag    string // tag key to group or filter by
	Value  string // DeviceRange: the tag value to keep
	Sensor int    // the measured sensor
	Flag   int    // DeviceRange: a BOOLEAN sensor that must be true
}
