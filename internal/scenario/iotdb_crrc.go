package scenario

// The CRRC case of seed 002 (IoT-benchmark's documentation): 100 trains with
// 3,000 DOUBLE sensors at 2 Hz, one row per write, written by 100 clients
// (table 2-3), and the query test of table 2-4 against the stored data.
func init() {
	Register(&Scenario{
		Name:        "iotdb-crrc-write",
		Description: "CRRC trains: 100 clients write 100 devices x 3,000 DOUBLE sensors at 500 ms, batch 1, LOOP 10,000",
		Source:      "seed 002, IoT-benchmark user guide, table 2-3",
		Settings: map[string]string{
			"OPERATION_PROPORTION": "1:0:0:0:0:0:0:0:0:0:0", "CLIENT_NUMBER": "100", "GROUP_NUMBER": "10",
			"DEVICE_NUMBER": "100", "SENSOR_NUMBER": "3000", "INSERT_DATATYPE_PROPORTION": "0:0:0:0:1:0",
			"POINT_STEP": "500", "OP_MIN_INTERVAL": "0", "IS_OUT_OF_ORDER": "false",
			"BATCH_SIZE_PER_WRITE": "1", "LOOP": "10000", "START_TIME": "2022-10-30T00:00:00+08:00",
		},
		Published: []string{"IoTDB: 5,125,600.86 points/s, 55.98 ms mean latency, 585.30 s, 4.7 GB on disk (16-core VMs)",
			"KairosDB: 224,819.01 points/s, 1,324.45 ms mean latency, 11,777.99 s, disk full"},
	})
	Register(&Scenario{
		Name:        "iotdb-crrc-query",
		Description: "CRRC query mix Q1..Q10: 2 devices x 2 sensors, count, STEP_SIZE 1, QUERY_INTERVAL 250000, LOOP 30",
		Source:      "seed 002, IoT-benchmark user guide, table 2-4",
		Settings: map[string]string{
			"OPERATION_PROPORTION": "0:1:1:1:1:1:1:1:1:1:1", "CLIENT_NUMBER": "100", "GROUP_NUMBER": "10",
			"DEVICE_NUMBER": "100", "SENSOR_NUMBER": "3000", "INSERT_DATATYPE_PROPORTION": "0:0:0:0:1:0",
			"POINT_STEP": "500", "START_TIME": "2022-10-30T00:00:00+08:00",
			"QUERY_DEVICE_NUM": "2", "QUERY_SENSOR_NUM": "2", "QUERY_AGGREGATE_FUN": "count",
			"STEP_SIZE": "1", "QUERY_INTERVAL": "250000", "QUERY_LOWER_VALUE": "-5",
			"GROUP_BY_TIME_UNIT": "20000", "LOOP": "30", "IS_DELETE_DATA": "false", "CREATE_SCHEMA": "false",
		},
		Published: []string{"query results published as a figure only (seed 002, figure 2-7)"},
	})
}
