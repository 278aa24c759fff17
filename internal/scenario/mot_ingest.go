package scenario

// MogDB MOT's data-ingestion test (seed 004): 10 million rows of 200 bytes
// sent by 500 threads in 2,000 rounds of 10-row inserts.
//
// Mapping: each thread is a client writing its own device; a row is a
// device's row with four values — one INT64, two DOUBLE and one 168-character
// TEXT — which with the 8-byte timestamp makes 200 bytes; a record is one
// row of 4 points. --scale multiplies the rounds (LOOP).
func init() {
	Register(&Scenario{
		Name:        "mot-ingest",
		Description: "MOT ingestion: 500 threads x 2,000 rounds of 10-row inserts, 200-byte rows (10 M rows)",
		Source:      "seed 004: MogDB MOT performance benchmarks, data ingestion speed",
		Hardware:    "MogDB MOT server: x86 2-socket, 72 cores; client on another machine",
		ServerCores: 72,
		Settings: map[string]string{
			"CLIENT_NUMBER": "500", "DEVICE_NUMBER": "500", "SENSOR_NUMBER": "4", "INSERT_DATATYPE_PROPORTION": "0:0:1:0:2:1",
			"STRING_LENGTH": "168", "BATCH_SIZE_PER_WRITE": "10", "POINT_STEP": "1000", "START_TIME": "2020-06-01T00:00:00Z",
		},
		Phases: []Phase{
			{Name: "ingest", Operation: "INGESTION", PerUnit: 4, Scale: []string{"LOOP"},
				Settings: map[string]string{"LOOP": "2000", "OPERATION_PROPORTION": "1"},
				Published: Figure{Rate: 720_000, Unit: "records/s",
					Note: "10,000 records/s per server core (2 MB/s per core) on 72 cores; 2.8 ms per 10-row insert including the network"}},
		},
	})
}
