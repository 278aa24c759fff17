package scenario

// The HAKOM TSM benchmarks (seed 000) on PostgreSQL. A HAKOM time series
// ("ZR") is one device with one DOUBLE sensor here; a write request carries a
// whole series (every row in one batch), a read request reads one whole
// series (Q2 over the series' time span, QUERY_DEVICE_SELECTION=owned so each
// series is read once). Bulk requests carry 100 series: one device with 100
// sensors. --scale multiplies the number of series.
func init() {
	const month30 = "2592000000" // 30 days in ms (30 x 86,400,000): the read window of a whole series
	hardware := "PostgreSQL server with 2 x Xeon X5675 3.06 GHz (12 cores), 8 GB RAM; HAKOM services on separate application servers"
	Register(&Scenario{
		Name:        "hakom-load",
		Description: "HAKOM load tests: write 1,500 series, read 25,000, parallel read 5 x 5,000, parallel write 5 x 1,500 (30-minute steps, 30 days)",
		Source:      "seed 000: HAKOM TSM general load benchmarks",
		Hardware:    hardware,
		ServerCores: 12,
		Settings: map[string]string{
			"SENSOR_NUMBER": "1", "INSERT_DATATYPE_PROPORTION": "0:0:0:0:1:0", "POINT_STEP": "1800000",
			"BATCH_SIZE_PER_WRITE": "1440", "START_TIME": "2016-01-01T00:00:00Z", "GROUP_NUMBER": "1",
			"QUERY_DEVICE_NUM": "1", "QUERY_SENSOR_NUM": "1", "QUERY_INTERVAL": month30, "STEP_SIZE": "0",
			"QUERY_DEVICE_SELECTION": "owned",
		},
		Phases: []Phase{
			{Name: "write", Operation: "INGESTION", Scale: []string{"DEVICE_NUMBER"},
				Settings:  map[string]string{"DEVICE_NUMBER": "1500", "CLIENT_NUMBER": "1", "LOOP": "1", "OPERATION_PROPORTION": "1"},
				Published: Figure{Seconds: 11, Rate: 196_364, Unit: "points/s", Note: "1,500 series x 1,440 points = 2.16 M points"}},
			{Name: "load-25000", Prepare: true, Operation: "INGESTION", Scale: []string{"DEVICE_NUMBER"},
				Settings: map[string]string{"DEVICE_NUMBER": "25000", "CLIENT_NUMBER": "4", "LOOP": "1", "OPERATION_PROPORTION": "1"}},
			{Name: "read", Operation: "TIME_RANGE", Scale: []string{"DEVICE_NUMBER", "LOOP"},
				Settings: map[string]string{"DEVICE_NUMBER": "25000", "CLIENT_NUMBER": "1", "LOOP": "25000",
					"OPERATION_PROPORTION": "0:0:1", "CREATE_SCHEMA": "false"},
				Published: Figure{Seconds: 116, Rate: 310_345, Unit: "points/s", Note: "25,000 series = 36 M points"}},
			{Name: "parallel-read", Operation: "TIME_RANGE", Scale: []string{"DEVICE_NUMBER", "LOOP"},
				Settings: map[string]string{"DEVICE_NUMBER": "25000", "CLIENT_NUMBER": "5", "LOOP": "5000",
					"OPERATION_PROPORTION": "0:0:1", "CREATE_SCHEMA": "false"},
				Published: Figure{Seconds: 110, Rate: 327_273, Unit: "points/s", Note: "5 x 5,000 series = 36 M points"}},
			{Name: "parallel-write", Operation: "INGESTION", Scale: []string{"DEVICE_NUMBER"},
				// Devices 30,000.. (cluster index 4 x 7,500): new series, not rewrites.
				Settings: map[string]string{"DEVICE_NUMBER": "7500", "CLIENT_NUMBER": "5", "LOOP": "1",
					"OPERATION_PROPORTION": "1", "BENCHMARK_CLUSTER": "true", "BENCHMARK_INDEX": "4"},
				Published: Figure{Seconds: 60, Rate: 180_000, Unit: "points/s", Note: "5 x 1,500 series = 10.8 M points"}},
		},
	})

	const month31 = "2678400000" // 31 days in ms
	bulk := map[string]string{"DEVICE_NUMBER": "10", "SENSOR_NUMBER": "100", "CLIENT_NUMBER": "10", "QUERY_SENSOR_NUM": "100"}
	single := map[string]string{"DEVICE_NUMBER": "1000", "SENSOR_NUMBER": "1", "CLIENT_NUMBER": "1", "QUERY_SENSOR_NUM": "1"}
	Register(&Scenario{
		Name: "hakom-scaling",
		Description: "HAKOM scaling tests: 1,000 series at 15 minutes over 31 days (2,976,000 values), " +
			"single requests (one series each) vs bulk requests (100 series each, 10 in parallel), n=10",
		Source:      "seed 000: HAKOM TSM scaling tests, performance licence, 1 application server",
		Hardware:    hardware,
		ServerCores: 12,
		Repeat:      10,
		Settings: map[string]string{
			"INSERT_DATATYPE_PROPORTION": "0:0:0:0:1:0", "POINT_STEP": "900000", "BATCH_SIZE_PER_WRITE": "2976",
			"START_TIME": "2016-01-01T00:00:00Z", "LOOP": "1", "QUERY_DEVICE_NUM": "1", "QUERY_INTERVAL": month31,
			"STEP_SIZE": "0", "QUERY_DEVICE_SELECTION": "owned",
		},
		Phases: []Phase{
			{Name: "write-single", Operation: "INGESTION", Scale: []string{"DEVICE_NUMBER"},
				Settings:  copyWith(single, "OPERATION_PROPORTION", "1", "IS_DELETE_DATA", "true"),
				Published: Figure{Seconds: 10.954, Rate: 2_976_000 / 10.954, Unit: "points/s", Note: "mean of n=10; standard licence 27.649 s"}},
			{Name: "read-single", Operation: "TIME_RANGE", Scale: []string{"DEVICE_NUMBER", "LOOP"},
				Settings:  copyWith(single, "OPERATION_PROPORTION", "0:0:1", "LOOP", "1000", "CREATE_SCHEMA", "false"),
				Published: Figure{Seconds: 7.078, Rate: 2_976_000 / 7.078, Unit: "points/s", Note: "mean of n=10; standard licence 8.625 s"}},
			{Name: "write-bulk", Operation: "INGESTION", Scale: []string{"SENSOR_NUMBER", "QUERY_SENSOR_NUM"},
				Settings: copyWith(bulk, "OPERATION_PROPORTION", "1", "IS_DELETE_DATA", "true"),
				Published: Figure{Seconds: 11.885, Rate: 2_976_000 / 11.885, Unit: "points/s",
					Note: "mean of n=10; 2 / 4 application servers: 9.940 / 9.232 s"}},
			{Name: "read-bulk", Operation: "TIME_RANGE", Scale: []string{"SENSOR_NUMBER", "QUERY_SENSOR_NUM"},
				Settings: copyWith(bulk, "OPERATION_PROPORTION", "0:0:1", "CREATE_SCHEMA", "false"),
				Published: Figure{Seconds: 5.344, Rate: 2_976_000 / 5.344, Unit: "points/s",
					Note: "mean of n=10; 2 / 4 application servers: 3.757 / 2.907 s"}},
		},
	})
}
