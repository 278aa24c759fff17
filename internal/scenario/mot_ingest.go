package scenario

// MogDB MOT's data-ingestion test (seed 004): 10 million rows of 200 bytes
// sent by 500 threads in 2,000 rounds of 10-row inserts, client and database
// on different machines.
//
// Mapping: each thread is a client writing its own device; a row is a
// device's row with four values — one INT64, two DOUBLE and one 168-character
// TEXT — which with the 8-byte timestamp makes 200 bytes; a record is one
// row of 4 points. --scale multiplies the rounds (LOOP), never the threads
// or the 10 rows of an insert.
//
// The study published its throughput per core only: 10,000 records per
// core on "x86 2-socket, 72 cores" — its x86 2-socket servers have 2 x 18
// cores, 72 with hyper-threading. tsbench compares per core (over the cores
// given for the measured server, --server-cores, else this machine's logical
// CPUs, as 72 counts hyper-threads); the server-wide rate is derived and
// shown as context only. PostgreSQL, whose descendant MogDB is, is the like
// target; MOT itself is an in-memory engine tsbench cannot run.
func init() {
	Register(&Scenario{
		Name:        "mot-ingest",
		Description: "MOT ingestion: 500 threads x 2,000 rounds of 10-row inserts, 200-byte rows (10 M rows)",
		Source:      "seed 004: MogDB MOT performance benchmarks, data ingestion speed",
		Hardware:    "Database server - x86 2-socket, 72 cores (2 x Intel Xeon Gold 6154, 18 cores each, 72 with hyper-threading); client on another machine",
		ServerCores: 72,
		System:      "postgres",
		Settings: map[string]string{
			"CLIENT_NUMBER": "500", "DEVICE_NUMBER": "500", "SENSOR_NUMBER": "4", "INSERT_DATATYPE_PROPORTION": "0:0:1:0:2:1",
			"STRING_LENGTH": "168", "BATCH_SIZE_PER_WRITE": "10", "POINT_STEP": "1000", "START_TIME": "2020-06-01T00:00:00Z",
		},
		Phases: []Phase{
			{Name: "ingest", Operation: "INGESTION", PerUnit: 4, Scale: []string{"LOOP"},
				Settings: map[string]string{"LOOP": "2000", "OPERATION_PROPORTION": "1"},
				Published: Figure{PerCore: 10_000, Unit: "records/s", Size: 10_000_000, Studied: "MogDB MOT (in-memory tables)",
					Conditions: "500 threads, 2,000 rounds, 10 rows of 200 bytes per insert, client on another machine; 2.8 ms per 10-row insert",
					Derived:    "server rate 10,000 x 72 = 720,000 records/s if a core is a hyper-thread, x 36 = 360,000 if a physical core",
					Seed:       "004", Quote: "Throughput - 10,000 Records/Core or 2 MB/Core."}},
		},
	})
}
