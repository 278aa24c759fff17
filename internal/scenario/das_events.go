package scenario

import "github.com/tsbench/tsbench/internal/ts"

// das-events is the WSO2 DAS event-store study (seed 003): smart-home events
// published into an event store, then analysed with the study's Spark
// queries. Its large (Wikipedia) events are scenario das-wikipedia: another
// data set, with analytics tsbench does not have.
//
// Mapping: a house is a device; its metro area and state are device tags
// (tag_0 with 30 metro areas, tag_1 with 10 states — the study's sample does
// not publish its distributions, and here a house's state does not depend on
// its metro area); each event is one row with two values: is_peak (BOOLEAN,
// sensor s_0) and power_reading (DOUBLE, s_1). At full size 10,000 houses
// send 1,000 events each in batches of 100: the 10 million events the study
// analysed on MySQL (its MySQL ingest figure is over 100 million: --scale 10;
// the size ratio is printed beside the rate). --scale changes the number of
// houses, never a batch. The ingest phase is searched for a break point (a
// sustained drop in events per second); the analytics phase runs the study's
// queries through the target's analytics support, checks every answer
// against the generator and prints the study's time beside each query that
// it published for MySQL over 10 M events.
//
// The study's event store was MySQL behind two load-balanced DAS receivers,
// and HBase on 10 nodes as the answer to MySQL's break point: --target
// mysql,hbase runs the ingest on both and prints them side by side (HBase
// here is one standalone node and tsbench writes to it directly; it has no
// analytics support, so that phase reports it unsupported).
func init() {
	analytics := []ts.Analytic{
		{Name: "cityUsage", Kind: ts.TagAggregates, Tag: "tag_0", Sensor: 1},
		{Name: "peakDeviceUsageRange", Kind: ts.DeviceRange, Tag: "tag_0", Value: "value_0", Sensor: 1, Flag: 0},
		{Name: "stateAvgUsage", Kind: ts.TagAverage, Tag: "tag_1", Sensor: 1},
		{Name: "stateUsageDifference", Kind: ts.TagAverageDiff, Tag: "tag_1", Sensor: 1},
		{Name: "count", Kind: ts.CountRows, Sensor: 1},
	}
	spark := func(seconds float64, quote string) Figure {
		return Figure{Seconds: seconds, Unit: "events/s", Studied: "MySQL event store, Spark", Size: 10_000_000,
			Conditions: "2-node DAS analyzer cluster", Seed: "003", Quote: quote}
	}
	Register(&Scenario{
		Name:        "das-events",
		Description: "WSO2 DAS smart-home events: ingest (break point searched), then per-metro and per-state analytics; large events: das-wikipedia",
		Source:      "seed 003: WSO2 DAS performance tests (MySQL and 10-node HBase event stores)",
		Hardware:    dasHardware,
		System:      "mysql",
		SeeAlso:     "das-wikipedia",
		Settings: map[string]string{
			"DEVICE_NUMBER": "10000", "SENSOR_NUMBER": "2", "INSERT_DATATYPE_PROPORTION": "1:0:0:0:1:0",
			"TAG_NUMBER": "2", "TAG_VALUE_CARDINALITY": "30,10", "DEVICE_NAME_PREFIX": "house_",
			"CLIENT_NUMBER": "8", "BATCH_SIZE_PER_WRITE": "100", "LOOP": "10", "OPERATION_PROPORTION": "1",
			"POINT_STEP": "60000", "START_TIME": "2016-01-01T00:00:00Z",
		},
		Phases: []Phase{
			{Name: "ingest", Operation: "INGESTION", PerUnit: 2, Scale: []string{"DEVICE_NUMBER"}, BreakPoint: true,
				Published: dasMySQL(5741, 100_000_000, "Smart Home sample | 100000000 | 5741 events per second"),
				Others:    []Figure{dasHBase(96_230.01591, 1_000_000_000, "1 billion events in 10,391.768 s", "Mean TPS | 96230.01591")},
				Context: []Figure{{Unit: "events/s", Studied: "MySQL event store", Seed: "003",
					Remark: "break point: a sudden drop in receiver performance after about 30 M events",
					Quote:  "After around 30 million events are published, a sudden drop can be observed in receiver performance"}}},
			{Name: "analytics", Scale: []string{"DEVICE_NUMBER"}, Analytics: analytics, AnalyticsRuns: 3,
				Settings:  map[string]string{"CREATE_SCHEMA": "false"},
				Published: Figure{Remark: "no figure for the phase as a whole: each query's published time is printed beside it"},
				AnalyticsPublished: map[string]Figure{
					"cityUsage":            spark(26, "GROUP BY metro_area | 26 sec"),
					"peakDeviceUsageRange": spark(22, `metro_area = "Seattle" GROUP BY house_id | 22 sec`),
					"stateAvgUsage":        spark(21, "FROM smartHomeData | 21 sec"),
					"stateUsageDifference": spark(1, "as a1 join stateAvgUsage as a2 | 1 sec"),
					// The study counted only on HBase, over 100 x the data:
					// shown as context, without a time beside tsbench's.
					"count": {Unit: "events/s", Studied: "10-node HBase, Spark", Size: 1_000_000_000,
						Conditions: "2 analyzers, 953.46 s", Seed: "003",
						Context: "no MySQL figure for count; HBase over 1 B events is another system and data size",
						Quote:   "INSERT OVERWRITE TABLE ct SELECT count(*) FROM smartHomeData | 953.46"},
				}},
		},
	})
}

// dasHardware is the study's, in its words.
const dasHardware = "MySQL: c4.2xlarge Amazon EC2 instances as the DAS nodes, a c3.2xlarge instance as the database node; " +
	"HBase: 3 DAS nodes (c4.2xlarge), 1 HBase master and 9 regionservers (c3.2xlarge)"

// dasMySQL is an ingest figure of the MySQL event store.
func dasMySQL(rate, events float64, quote string) Figure {
	return Figure{Rate: rate, Unit: "events/s", Size: events, Studied: "MySQL event store", Seed: "003", Quote: quote,
		Conditions: "one DAS publisher node publishing to 2 load balanced receiver nodes"}
}

// dasHBase is an ingest figure of the 10-node HBase event store.
func dasHBase(rate, events float64, remark, quote string) Figure {
	return Figure{System: "hbase", Rate: rate, Unit: "events/s", Size: events, Studied: "10-node HBase event store",
		Conditions: "3 DAS nodes; HBase master and 9 regionservers on HDFS", Remark: remark, Seed: "003", Quote: quote}
}
