package scenario

// das-wikipedia is the large-event test of the WSO2 DAS study (seed 003):
// Wikipedia articles, one per event, published into the MySQL and the
// 10-node HBase event stores. It is das-events' ingest on another data set;
// the study's Wikipedia analytics (article lengths, contributors) have no
// tsbench query, and the smart-home ones would not be the study's, so there
// is no analytics phase.
//
// Mapping: an event is one row of two values, the article's length (INT32,
// s_0) and its text (TEXT, s_1, 3,500 characters: the study's mean is
// ~3.5 KB), so 2 points make one event. 1,590 publishers send 1,000 events
// each in batches of 100: 1.59 M events, a tenth of MySQL's 15,901,127
// (--scale 10 for the study's size; the size ratio is printed).
func init() {
	Register(&Scenario{
		Name:        "das-wikipedia",
		Description: "WSO2 DAS large events: one ~3.5 KB Wikipedia article per event, ingested into the event store",
		Source:      "seed 003: WSO2 DAS performance tests, Wikipedia sample (MySQL and 10-node HBase event stores)",
		Hardware:    dasHardware,
		System:      "mysql",
		SeeAlso:     "das-events",
		Settings: map[string]string{
			"DEVICE_NUMBER": "1590", "SENSOR_NUMBER": "2", "INSERT_DATATYPE_PROPORTION": "0:1:0:0:0:1",
			"STRING_LENGTH": "3500", "DEVICE_NAME_PREFIX": "publisher_",
			"CLIENT_NUMBER": "8", "BATCH_SIZE_PER_WRITE": "100", "LOOP": "10", "OPERATION_PROPORTION": "1",
			"POINT_STEP": "1000", "START_TIME": "2016-01-01T00:00:00Z",
		},
		Phases: []Phase{
			{Name: "ingest", Operation: "INGESTION", PerUnit: 2, Scale: []string{"DEVICE_NUMBER"},
				Published: dasMySQL(4438, 15_901_127, "Wikipedia sample | 15901127 | 4438 events per second"),
				Others: []Figure{dasHBase(8993.381291, 16_753_779, "the whole corpus in 1,862.901 s, events of ~3.5 KB mean",
					"Mean TPS | 8993.381291")}},
		},
	})
}
