package scenario

import "github.com/tsbench/tsbench/internal/ts"

// das-events is the WSO2 DAS event-store study (seed 003): smart-home events
// published by parallel publishers into an event store, then analysed with
// the study's Spark queries; variant "wikipedia" publishes large (~3.5 KB)
// events instead.
//
// Mapping: a house is a device; its metro area and state are device tags
// (tag_0 with 30 metro areas, tag_1 with 10 states — the study's sample does
// not publish its distributions, and here a house's state does not depend on
// its metro area); each event is one row with two values: is_peak (BOOLEAN,
// sensor s_0) and power_reading (DOUBLE, s_1). At full size 10,000 houses
// send 1,000 events each: the 10 million events the study analysed (its
// MySQL ingest test sent 100 million: use --scale 10). The ingest phase is
// searched for a break point (a sustained drop in events per second); the
// analytics phase runs the study's queries through the target's analytics
// support and checks every answer against the generator.
//
// The study's event store was MySQL, and HBase on 10 nodes as the answer to
// MySQL's break point: --target mysql,hbase runs the ingest on both and
// prints them side by side (HBase here is one standalone node; it has no
// analytics support, so that phase reports it unsupported).
func init() {
	analytics := []ts.Analytic{
		{Name: "cityUsage", Kind: ts.TagAggregates, Tag: "tag_0", Sensor: 1},
		{Name: "peakDeviceUsageRange", Kind: ts.DeviceRange, Tag: "tag_0", Value: "value_0", Sensor: 1, Flag: 0},
		{Name: "stateAvgUsage", Kind: ts.TagAverage, Tag: "tag_1", Sensor: 1},
		{Name: "stateUsageDifference", Kind: ts.TagAverageDiff, Tag: "tag_1", Sensor: 1},
		{Name: "count", Kind: ts.CountRows, Sensor: 1},
	}
	Register(&Scenario{
		Name:        "das-events",
		Description: "WSO2 DAS smart-home events: parallel publishers ingest (break point searched), then per-metro and per-state analytics",
		Source:      "seed 003: WSO2 DAS performance tests (MySQL and 10-node HBase event stores)",
		Hardware:    "MySQL on one c3.2xlarge (8 vCPU, 15 GB) with DAS receivers on c4.2xlarge; HBase: 10 c3.2xlarge nodes",
		ServerCores: 8,
		System:      "mysql",
		Settings: map[string]string{
			"DEVICE_NUMBER": "10000", "SENSOR_NUMBER": "2", "INSERT_DATATYPE_PROPORTION": "1:0:0:0:1:0",
			"TAG_NUMBER": "2", "TAG_VALUE_CARDINALITY": "30,10", "DEVICE_NAME_PREFIX": "house_",
			"CLIENT_NUMBER": "8", "BATCH_SIZE_PER_WRITE": "100", "LOOP": "10", "OPERATION_PROPORTION": "1",
			"POINT_STEP": "60000", "START_TIME": "2016-01-01T00:00:00Z",
		},
		Phases: []Phase{
			{Name: "ingest", Operation: "INGESTION", PerUnit: 2, Scale: []string{"DEVICE_NUMBER"}, BreakPoint: true,
				Published: Figure{Rate: 5741, Unit: "events/s",
					Note: "MySQL event store, 100 M events; break point near 30 M events"},
				Others: []Figure{{System: "hbase", Rate: 96_230, Unit: "events/s",
					Note: "HBase on 10 c3.2xlarge nodes, 1 B events (tsbench's HBase is one standalone node)"}}},
			{Name: "analytics", Scale: []string{"DEVICE_NUMBER"}, Analytics: analytics, AnalyticsRuns: 3,
				Settings: map[string]string{"CREATE_SCHEMA": "false"},
				AnalyticsPublished: map[string]Figure{
					"cityUsage":            {Seconds: 26, Note: "MySQL + Spark, 10 M events"},
					"peakDeviceUsageRange": {Seconds: 22, Note: "MySQL + Spark, 10 M events, metro Seattle"},
					"stateAvgUsage":        {Seconds: 21, Note: "MySQL + Spark, 10 M events"},
					"stateUsageDifference": {Seconds: 1, Note: "MySQL + Spark, over stateAvgUsage's result"},
					"count":                {Seconds: 953.46, Note: "10-node HBase, 2 analyzers, 1 B events (1,048,806 events/s)"},
				}},
		},
		Variants: map[string]Variant{
			"wikipedia": {
				Description: "large events: one ~3.5 KB text per event (a Wikipedia article), 16.75 M events in the study",
				Settings: map[string]string{"INSERT_DATATYPE_PROPORTION": "1:0:0:0:1:1", "SENSOR_NUMBER": "3",
					"STRING_LENGTH": "3500", "DEVICE_NUMBER": "1675", "BATCH_SIZE_PER_WRITE": "100"},
				Published: map[string]Figure{"ingest": {System: "hbase", Rate: 8993, Unit: "events/s",
					Note: "10-node HBase, 16,753,779 events of ~3.5 KB mean"}},
				Others: map[string][]Figure{"ingest": {{System: "mysql", Rate: 4438, Unit: "events/s",
					Note: "MySQL event store, large events"}}},
			},
		},
	})
}
