package scenario

import "fmt"

// The HAKOM TSM benchmarks (seed 000) on PostgreSQL. A HAKOM time series
// ("ZR") is one device with one DOUBLE sensor here; a write request carries a
// whole series (every row in one batch), a read request reads one whole
// series (Q2 over the series' time span, QUERY_DEVICE_SELECTION=owned so each
// series is read once). Bulk requests carry 100 series: one device with 100
// sensors. --scale multiplies the number of series and of requests, never
// the series in one request: below 100 series a bulk phase still sends one
// whole 100-series request, and the run says so.
//
// The study measured HAKOM TSM, a service in front of PostgreSQL, on
// separate application servers (six in the load tests, one in the scaling
// figures used here); tsbench writes to the database directly, so the
// PostgreSQL target is the like system, and no per-core figure is shown: the
// work was spread over servers the study does not count in one figure.
func init() {
	const month30 = "2592000000" // 30 days in ms (30 x 86,400,000): the read window of a whole series
	Register(&Scenario{
		Name:        "hakom-load",
		Description: "HAKOM load tests: write 1,500 series, read 25,000, parallel read 5 x 5,000, parallel write 5 x 1,500 (30-minute steps, 30 days)",
		Source:      "seed 000: HAKOM TSM general load benchmarks",
		Hardware:    hakomServer + "; 6 application servers with 1 HAKOM service each; 1 client",
		System:      "postgres",
		Settings: map[string]string{
			"SENSOR_NUMBER": "1", "INSERT_DATATYPE_PROPORTION": "0:0:0:0:1:0", "POINT_STEP": "1800000",
			"BATCH_SIZE_PER_WRITE": "1440", "START_TIME": "2016-01-01T00:00:00Z", "GROUP_NUMBER": "1",
			"QUERY_DEVICE_NUM": "1", "QUERY_SENSOR_NUM": "1", "QUERY_INTERVAL": month30, "STEP_SIZE": "0",
			"QUERY_DEVICE_SELECTION": "owned",
		},
		Phases: []Phase{
			{Name: "write", Operation: "INGESTION", Scale: []string{"DEVICE_NUMBER"},
				Settings:  map[string]string{"DEVICE_NUMBER": "1500", "CLIENT_NUMBER": "1", "LOOP": "1", "OPERATION_PROPORTION": "1"},
				Published: hakomLoad(11, 196_364, 2_160_000, "1 request stream", "Write (1.500 ZR x 30t x 24h x 2 = 2,16 M data points) | 11 | 196.364")},
			{Name: "load-25000", Prepare: true, Operation: "INGESTION", Scale: []string{"DEVICE_NUMBER"},
				Settings: map[string]string{"DEVICE_NUMBER": "25000", "CLIENT_NUMBER": "4", "LOOP": "1", "OPERATION_PROPORTION": "1"}},
			{Name: "read", Operation: "TIME_RANGE", Scale: []string{"DEVICE_NUMBER", "LOOP"},
				Settings: map[string]string{"DEVICE_NUMBER": "25000", "CLIENT_NUMBER": "1", "LOOP": "25000",
					"OPERATION_PROPORTION": "0:0:1", "CREATE_SCHEMA": "false"},
				Published: hakomLoad(116, 310_345, 36_000_000, "1 request stream", "Read (25.000 ZR x 30t x 24h x 2 = 36 M data points) | 116 | 310.345")},
			{Name: "parallel-read", Operation: "TIME_RANGE", Scale: []string{"DEVICE_NUMBER", "LOOP"},
				Settings: map[string]string{"DEVICE_NUMBER": "25000", "CLIENT_NUMBER": "5", "LOOP": "5000",
					"OPERATION_PROPORTION": "0:0:1", "CREATE_SCHEMA": "false"},
				Published: hakomLoad(110, 327_273, 36_000_000, "5 parallel streams",
					"Parallel-Reading(5 x 5.000 ZR x 30t x 24h x 2 = 5 x 7,2 M = 36 M data points) | 110 | 327.273")},
			{Name: "parallel-write", Operation: "INGESTION", Scale: []string{"DEVICE_NUMBER"},
				// Devices 30,000.. (cluster index 4 x 7,500): new series, not rewrites.
				Settings: map[string]string{"DEVICE_NUMBER": "7500", "CLIENT_NUMBER": "5", "LOOP": "1",
					"OPERATION_PROPORTION": "1", "BENCHMARK_CLUSTER": "true", "BENCHMARK_INDEX": "4"},
				Published: hakomLoad(60, 180_000, 10_800_000, "5 parallel streams",
					"Parallel-Writing (5 x 1.500 ZR x 30t x 24h x 2 = 5 x 2,16 M = 10,8 M data points) | 60 | 180.000")},
		},
	})

	const month31 = "2678400000" // 31 days in ms
	// A bulk request is one device of 100 series; --scale changes how many
	// devices (and so requests and clients), not the 100.
	bulk := map[string]string{"DEVICE_NUMBER": "10", "SENSOR_NUMBER": "100", "CLIENT_NUMBER": "10", "QUERY_SENSOR_NUM": "100"}
	single := map[string]string{"DEVICE_NUMBER": "1000", "SENSOR_NUMBER": "1", "CLIENT_NUMBER": "1", "QUERY_SENSOR_NUM": "1"}
	Register(&Scenario{
		Name: "hakom-scaling",
		Description: "HAKOM scaling tests: 1,000 series at 15 minutes over 31 days (2,976,000 values), " +
			"single requests (one series each) vs bulk requests (100 series each, 10 in parallel), n=10",
		Source:   "seed 000: HAKOM TSM scaling tests, performance licence, 1 application server",
		Hardware: hakomServer + "; 1 application server with 1 HAKOM service; 1 client",
		System:   "postgres",
		Repeat:   10,
		Settings: map[string]string{
			"INSERT_DATATYPE_PROPORTION": "0:0:0:0:1:0", "POINT_STEP": "900000", "BATCH_SIZE_PER_WRITE": "2976",
			"START_TIME": "2016-01-01T00:00:00Z", "LOOP": "1", "QUERY_DEVICE_NUM": "1", "QUERY_INTERVAL": month31,
			"STEP_SIZE": "0", "QUERY_DEVICE_SELECTION": "owned",
		},
		Phases: []Phase{
			{Name: "write-single", Operation: "INGESTION", Scale: []string{"DEVICE_NUMBER"},
				Settings:  copyWith(single, "OPERATION_PROPORTION", "1", "IS_DELETE_DATA", "true"),
				Published: hakomScaling(10.954, "single requests, one series each", "Write Singe-Request | 1 | 00:27,649 | 00:10,954")},
			{Name: "read-single", Operation: "TIME_RANGE", Scale: []string{"DEVICE_NUMBER", "LOOP"},
				Settings:  copyWith(single, "OPERATION_PROPORTION", "0:0:1", "LOOP", "1000", "CREATE_SCHEMA", "false"),
				Published: hakomScaling(7.078, "single requests, one series each", "Read Singe-Request | 1 | 00:08,625 | 00:07,078")},
			{Name: "write-bulk", Operation: "INGESTION", Scale: []string{"DEVICE_NUMBER", "CLIENT_NUMBER"},
				Settings:  copyWith(bulk, "OPERATION_PROPORTION", "1", "IS_DELETE_DATA", "true"),
				Published: hakomScaling(11.885, "10 parallel bulk requests of 100 series", "Write Bulk-Request | 1 | 00:35,103 | 00:11,885")},
			{Name: "read-bulk", Operation: "TIME_RANGE", Scale: []string{"DEVICE_NUMBER", "CLIENT_NUMBER"},
				Settings:  copyWith(bulk, "OPERATION_PROPORTION", "0:0:1", "CREATE_SCHEMA", "false"),
				Published: hakomScaling(5.344, "10 parallel bulk requests of 100 series", "Read Bulk-Request | 1 | 00:07,127 | 00:05,344")},
		},
	})
}

// hakomServer is the study's database server, in its words.
const hakomServer = "1 PostgreSQL Server: 2 x Intel Xenon X5675 3.06 GHz, 8 GB RAM, Windows Server 2012"

// hakomLoad is a load-test figure: the study published time and rate.
func hakomLoad(seconds, rate, points float64, streams, quote string) Figure {
	return Figure{Seconds: seconds, Rate: rate, Unit: "points/s", Size: points, Seed: "000", Quote: quote,
		Studied:    "HAKOM TSM on PostgreSQL",
		Conditions: "6 application servers with 1 HAKOM service each, " + streams + ", one whole series per request"}
}

// hakomScaling is a scaling-test figure: the study published only the mean
// time of n=10 (performance licence, 1 application server); the rate is
// tsbench's, so it is derived, not compared.
func hakomScaling(seconds float64, requests, quote string) Figure {
	return Figure{Seconds: seconds, Unit: "points/s", Size: 2_976_000, Seed: "000", Quote: quote,
		Studied:    "HAKOM TSM on PostgreSQL",
		Conditions: "performance licence, 1 application server, " + requests + ", mean of n=10",
		Derived:    fmt.Sprintf("rate 2,976,000 points / %g s = %.0f points/s (the study publishes only times)", seconds, 2_976_000/seconds)}
}
