package scenario

// iotdb-crrc is seed 002's use case (IoT-benchmark user guide): CRRC's trains
// written by 100 clients (table 2-3), then the Q1..Q10 query test of table 2-4
// on the stored data. Variant "day" is the write scenario of table 1-4: 100
// devices x 300 sensors of all six types for one day at 1 s.
//
// Mapping: a train is a device, each of its 3,000 channels a DOUBLE sensor.
// LOOP counts operations per client as IoT-benchmark does, and a write
// operation is one batch per device the client owns, so LOOP 10,000 with
// batch 1 writes 10,000 rows of every train. --scale multiplies LOOP (the
// duration of the recording), keeping the request shape: 100 clients, one
// 3,000-point row per request.
//
// The study also ran KairosDB on the same workload (its storage back end is
// not stated); --target iotdb,kairosdb runs both and prints the two systems
// side by side. tsbench's KairosDB keeps its data in H2 (see
// scripts/services/kairosdb.sh).
//
// The query test (table 2-4) mixes Q1..Q10 in one phase and its results were
// published as a figure only, so it has no row in the table: the run's own
// matrices give each query's latency.
func init() {
	crrc := func(system, studied string, seconds, rate float64, remark, quote string) Figure {
		return Figure{System: system, Studied: studied, Seconds: seconds, Rate: rate, Unit: "points/s", Size: 3_000_000_000,
			Conditions: "100 clients, 100 devices x 3,000 DOUBLE sensors, 1 row per write", Remark: remark, Seed: "002", Quote: quote}
	}
	Register(&Scenario{
		Name:        "iotdb-crrc",
		Description: "CRRC trains: 100 clients write 100 devices x 3,000 DOUBLE sensors at 500 ms, batch 1 (table 2-3); then Q1..Q10 (table 2-4)",
		Source:      "seed 002: IoT-benchmark user guide, CRRC Qingdao Sifang case, tables 2-3 and 2-4",
		Hardware:    "each database on its own CentOS 7 VM of 16 cores, 32 GB memory, 200 GB disk; the benchmark on another such VM",
		ServerCores: 16,
		System:      "iotdb",
		Settings: map[string]string{
			"CLIENT_NUMBER": "100", "GROUP_NUMBER": "10", "DEVICE_NUMBER": "100", "SENSOR_NUMBER": "3000",
			"INSERT_DATATYPE_PROPORTION": "0:0:0:0:1:0", "POINT_STEP": "500", "OP_MIN_INTERVAL": "0",
			"IS_OUT_OF_ORDER": "false", "BATCH_SIZE_PER_WRITE": "1", "START_TIME": "2022-10-30T00:00:00+08:00",
		},
		Phases: []Phase{
			{
				Name:      "write",
				Settings:  map[string]string{"OPERATION_PROPORTION": "1:0:0:0:0:0:0:0:0:0:0", "LOOP": "10000"},
				Scale:     []string{"LOOP"},
				Operation: "INGESTION",
				Published: crrc("", "Apache IoTDB 0.13 (IoTDB-013-SESSION_BY_TABLET)", 585.30, 5_125_600.86,
					"55.98 ms mean write latency, 4.7 GB on disk", "5,125,600.86 points/second"),
				Others: []Figure{crrc("kairosdb", "KairosDB", 11_777.99, 224_819.01,
					"1,324.45 ms mean write latency; writes failed when its disk filled", "224,819.01 points/second")},
			},
			{
				Name: "query",
				Settings: map[string]string{"OPERATION_PROPORTION": "0:1:1:1:1:1:1:1:1:1:1", "LOOP": "30",
					"QUERY_DEVICE_NUM": "2", "QUERY_SENSOR_NUM": "2", "QUERY_AGGREGATE_FUN": "count", "STEP_SIZE": "1",
					"QUERY_INTERVAL": "250000", "QUERY_LOWER_VALUE": "-5", "GROUP_BY_TIME_UNIT": "20000",
					"CREATE_SCHEMA": "false"},
				Operation: "TIME_RANGE",
				Published: Figure{Unit: "points/s", Studied: "Apache IoTDB", Seed: "002", Quote: "Figure 2-7 Query test results",
					Remark: "no number: the results were published as a figure only"},
			},
		},
		Variants: map[string]Variant{
			"day": {
				Description: "table 1-4: 100 devices x 300 sensors (50 of each type), 1 s steps, one day (86,400 rows), 2.592 billion points",
				Settings: map[string]string{"SENSOR_NUMBER": "300", "INSERT_DATATYPE_PROPORTION": "1:1:1:1:1:1",
					"POINT_STEP": "1000", "LOOP": "86400", "GROUP_NUMBER": "20", "CLIENT_NUMBER": "100"},
				Published: map[string]Figure{"write": {Unit: "points/s", Studied: "none", Seed: "002",
					Quote:  "in total 2.592 billion data points",
					Remark: "table 1-4 describes the workload; no figure was published"}},
				Others: map[string][]Figure{"write": nil},
			},
		},
	})
}
