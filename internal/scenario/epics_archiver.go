package scenario

// The EPICS archiver on Hypertable (seed 001): the archive table (PV, TS,
// VAL, STAT, SEVR), half an hour of SNS data inserted, then all samples of
// one PV extracted ("all pv parameters": 133,360 samples of 4 fields).
//
// Mapping: a PV is a device with three sensors — VAL (DOUBLE), STAT and SEVR
// (INT32) — so a 4-field sample (TS plus three values) is one row of 3
// points. The study's half hour holds 1,777,600 samples and one extraction
// 133,360; the study does not say how many PVs there were, and tsbench's
// generator gives every PV the same rate, so the half hour becomes 13 PVs of
// 133,360 samples at 13 ms (1,733,680 samples, 2.5 % fewer). Inserts are
// batches of 1,667 rows of one PV; an extraction reads all samples of one PV,
// once per PV. --scale and the week and month variants change the number of
// PVs, never the samples of one PV, so one extraction always holds the
// study's 133,360 samples; below one PV the run says so.
//
// Hypertable cannot be had any more; HBase, its living BigTable sibling
// (row key, column families, timestamps, sorted storage on a distributed
// filesystem), stands in for it: the published figures are Hypertable's and
// a run with --target hbase is compared with them as the stand-in's. The
// study lists two machines (a VirtualBox VM and an 8-core AMD64 server)
// without saying which ran which test, so no per-core figure is shown.
func init() {
	hypertable := func(rate, samples float64, conditions, quote string) Figure {
		return Figure{Rate: rate, Unit: "samples/s", Size: samples, Studied: "Hypertable", Conditions: conditions,
			Seed: "001", Quote: quote}
	}
	extract := func(quote string, rate float64, secs string) Figure {
		return hypertable(rate, 133_360, "one extraction of all samples (4 fields) of one PV, in "+secs, quote)
	}
	Register(&Scenario{
		Name:        "epics-archiver",
		Description: "EPICS archiver: insert half an hour of SNS samples (PV, TS, VAL, STAT, SEVR), then extract all 133,360 samples of one PV",
		Source:      "seed 001: performance tests of Hypertable for the EPICS archiver",
		Hardware: "not stated per test; the study lists a VirtualBox VM (Debian x86, 4 cores shared among 3 VMs, 4 GB RAM, one 5.4k RPM SATA disk) " +
			"and a Debian AMD64 machine (8 cores, 64 GB RAM, 7 x 10k RPM SAS disks in RAID 5)",
		System: "hbase", // the stand-in for Hypertable
		Settings: map[string]string{
			"DEVICE_NUMBER": "13", "SENSOR_NUMBER": "3", "INSERT_DATATYPE_PROPORTION": "0:2:0:0:1:0",
			"POINT_STEP": "13", "START_TIME": "2010-06-01T00:00:00Z",
			"DEVICE_NAME_PREFIX": "pv_", "SENSOR_NAME_PREFIX": "f_",
		},
		Phases: []Phase{
			{Name: "insert", Operation: "INGESTION", PerUnit: 3, Scale: []string{"DEVICE_NUMBER"},
				// 80 batches of 1,667 rows = 133,360 samples per PV.
				Settings: map[string]string{"CLIENT_NUMBER": "1", "LOOP": "80", "OPERATION_PROPORTION": "1",
					"BATCH_SIZE_PER_WRITE": "1667"},
				Published: hypertable(24_000, 1_777_600, "half an hour of SNS data, 1 min 13.6 s",
					"1min 13.6 sec to insert\n- 1 777 600 samples\n- 24K samples/sec"),
				Context: []Figure{
					hypertable(19_500, 1_777_600, "another run of the same half hour, 1 min 31 s",
						"1min 31 sec to insert\n- 1 777 600 samples\n- 19.5K samples/sec"),
					{Rate: 1000, Unit: "samples/s", Studied: "Oracle (the classical archiver)", Conditions: "3,746,847 samples per hour",
						Seed: "001", Quote: "Oracle insertion time : 3.746.847 samples per hour (1Ksamples/sec)"}}},
			{Name: "extract", Operation: "TIME_RANGE", PerUnit: 3, Scale: []string{"DEVICE_NUMBER", "LOOP"},
				Settings: map[string]string{"CLIENT_NUMBER": "1", "LOOP": "13", "OPERATION_PROPORTION": "0:0:1",
					"QUERY_DEVICE_NUM": "1", "QUERY_SENSOR_NUM": "3", "QUERY_DEVICE_SELECTION": "owned",
					"QUERY_INTERVAL": "1733680", "STEP_SIZE": "0", "CREATE_SCHEMA": "false"},
				Published: extract("0.024 sec to extract\n- 133K samples of 4 records\n- 5.54 Msamples/sec", 5_540_000, "0.024 s"),
				// The study's "Numbers" slide pairs Oracle with Hypertable
				// over 57,624 samples, not with the 133,360-sample extraction.
				Context: []Figure{
					hypertable(3_170_000, 133_360, "another run, 0.042 s", "0.042 sec to extract\n- 133K samples of 4 records\n- 3.17M samples/sec"),
					hypertable(160_000, 57_624, "retrieval in half hour, 0.36 s, set beside Oracle's",
						"Hypertable retrieve time: 57624 samples in 0.36 sec (160K vals/sec)"),
					{Rate: 462, Unit: "samples/s", Size: 36_657, Studied: "Oracle (the classical archiver)", Conditions: "79.294 s",
						Seed: "001", Quote: "Oracle retrieve time: 36.657 samples in 79.294 sec (~462 vals/sec)"}}},
		},
		Variants: map[string]Variant{
			"week": {
				Description: "a week's samples (597M in the study) as 13 x 336 = 4,368 PVs of 133,360 samples",
				Settings:    map[string]string{"DEVICE_NUMBER": "4368"},
				Published: map[string]Figure{
					"insert":  hypertable(14_800, 597_000_000, "7 days of SNS data, 11.2 hours", "11.2 hours to insert\n- 597M samples\n- 14.8K samples/sec"),
					"extract": extract("0.031 sec to extract\n- 133360 samples of 4 records\n- 4.3M samples/sec", 4_300_000, "0.031 s"),
				},
			},
			"month": {
				Description: "a month's samples (2,557M in the study) as 13 x 1,440 = 18,720 PVs of 133,360 samples",
				Settings:    map[string]string{"DEVICE_NUMBER": "18720"},
				Published: map[string]Figure{
					"insert": hypertable(18_700, 2_557_000_000, "30 days of SNS data, 37.86 hours",
						"37.86 hours to insert\n- 2557M samples"),
					"extract": extract("0.030 sec to extract\n- 133360 samples of 4 records\n- 4.3M samples/sec", 4_300_000, "0.030 s"),
				},
			},
		},
	})
}
