package scenario

// The EPICS archiver on Hypertable (seed 001): the archive table (PV, TS,
// VAL, STAT, SEVR), half an hour of SNS data inserted, then every sample of
// one busy PV extracted.
//
// Mapping: a PV is a device with three sensors — VAL (DOUBLE), STAT and SEVR
// (INT32) — so a 4-field sample (TS plus three values) is one row of 3
// points. The study's half hour holds 1,777,600 samples and its busiest PV
// 133,360 of them; tsbench's generator gives every device the same rate, so
// the half hour becomes 13 PVs of 133,360 samples at 13 ms (1,733,680
// samples, 2.5 % fewer). The extraction reads all samples of one PV, as the
// study did, once per PV. Variants "week" and "month" stretch the time span.
//
// Hypertable cannot be had any more; HBase, its living BigTable sibling
// (row key, column families, timestamps, sorted storage on a distributed
// filesystem), stands in for it: the published figures are Hypertable's and
// a run with --target hbase is compared with them as the stand-in's.
func init() {
	Register(&Scenario{
		Name:        "epics-archiver",
		Description: "EPICS archiver: insert half an hour of SNS samples (PV, TS, VAL, STAT, SEVR), then extract all 133,360 samples of one PV",
		Source:      "seed 001: performance tests of Hypertable for the EPICS archiver",
		Hardware:    "Hypertable on Debian AMD64, 8 cores, 64 GB RAM, 7 x 10k RPM SAS disks in RAID 5",
		ServerCores: 8,
		System:      "hbase", // the stand-in for Hypertable
		Settings: map[string]string{
			"DEVICE_NUMBER": "13", "SENSOR_NUMBER": "3", "INSERT_DATATYPE_PROPORTION": "0:2:0:0:1:0",
			"POINT_STEP": "13", "START_TIME": "2010-06-01T00:00:00Z",
			"DEVICE_NAME_PREFIX": "pv_", "SENSOR_NAME_PREFIX": "f_",
		},
		Phases: []Phase{
			{Name: "insert", Operation: "INGESTION", PerUnit: 3, Scale: []string{"LOOP"},
				// 80 batches of 1,667 rows = 133,360 samples per PV.
				Settings: map[string]string{"CLIENT_NUMBER": "1", "LOOP": "80", "OPERATION_PROPORTION": "1",
					"BATCH_SIZE_PER_WRITE": "1667"},
				Published: Figure{Seconds: 73.6, Rate: 24_000, Unit: "samples/s",
					Note: "1,777,600 samples in 1 min 13.6 s (another run: 1 min 31 s, 19.5K samples/s); Oracle: ~1K samples/s"}},
			{Name: "extract", Operation: "TIME_RANGE", PerUnit: 3, Scale: []string{"QUERY_INTERVAL"},
				Settings: map[string]string{"CLIENT_NUMBER": "1", "LOOP": "13", "OPERATION_PROPORTION": "0:0:1",
					"QUERY_DEVICE_NUM": "1", "QUERY_SENSOR_NUM": "3", "QUERY_DEVICE_SELECTION": "owned",
					"QUERY_INTERVAL": "1733680", "STEP_SIZE": "0", "CREATE_SCHEMA": "false"},
				Published: Figure{Seconds: 0.024, Rate: 5_540_000, Unit: "samples/s",
					Note: "133,360 samples of 4 fields in 0.024 s (another run: 0.042 s, 3.17M samples/s); Oracle: 462 values/s"}},
		},
		Variants: map[string]Variant{
			"week": {
				Description: "7 days of data acquisition (597M samples in the study)",
				Settings:    map[string]string{"POINT_STEP": "13"},
				Published: map[string]Figure{
					"insert":  {Seconds: 11.2 * 3600, Rate: 14_800, Unit: "samples/s", Note: "597M samples in 11.2 hours; run with --scale 336 for a week"},
					"extract": {Seconds: 0.031, Rate: 4_300_000, Unit: "samples/s", Note: "133,360 samples in 0.031 s"},
				},
			},
			"month": {
				Description: "30 days of data acquisition (2,557M samples in the study)",
				Settings:    map[string]string{"POINT_STEP": "13"},
				Published: map[string]Figure{
					"insert":  {Seconds: 37.86 * 3600, Rate: 18_700, Unit: "samples/s", Note: "2,557M samples in 37.86 hours; run with --scale 1440 for a month"},
					"extract": {Seconds: 0.030, Rate: 4_300_000, Unit: "samples/s", Note: "133,360 samples in 0.030 s"},
				},
			},
		},
	})
}
