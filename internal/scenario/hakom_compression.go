package scenario

import "fmt"

// hakom-compression is HAKOM's compression break-even evaluation (seed 000):
// values stored in blocks, 25/50/75/100 % of the values of a block changing,
// bulk write and read timed with compression on and off.
//
// Mapping: the data is the bulk shape of hakom-scaling (10 devices x 100
// series, 15-minute values over 31 days), as the study does not give its
// size; a block is one day (96 values) and CHANGE_RATIO sets the share of
// changing values. Compression is switched with the target option
// compression=on|off on targets that have such a switch (the targets list
// says which); bytes on disk per point are reported when the target can
// tell. The published times are for HAKOM TSM's own block compression.
func init() {
	published := map[string]map[bool][4]float64{
		"write": {true: {1.469, 1.602, 1.519, 1.454}, false: {1.248, 1.421, 1.514, 1.632}},
		"read":  {true: {0.870, 0.932, 0.932, 0.947}, false: {0.870, 0.932, 0.932, 0.995}},
	}
	var phases []Phase
	for i, level := range []float64{0.25, 0.5, 0.75, 1} {
		for _, on := range []bool{true, false} {
			state := map[bool]string{true: "on", false: "off"}[on]
			common := map[string]string{"CHANGE_RATIO": fmt.Sprint(level), "target.compression": state}
			write := copyWith(common, "OPERATION_PROPORTION", "1", "IS_DELETE_DATA", "true")
			read := copyWith(common, "OPERATION_PROPORTION", "0:0:1", "CREATE_SCHEMA", "false")
			phases = append(phases,
				Phase{Name: fmt.Sprintf("write-%d-%s", int(level*100), state), Operation: "INGESTION", Settings: write,
					Scale: []string{"SENSOR_NUMBER", "QUERY_SENSOR_NUM"}, Pair: "write", Level: level, Compressed: on,
					Published: Figure{Seconds: published["write"][on][i], Unit: "points/s"}},
				Phase{Name: fmt.Sprintf("read-%d-%s", int(level*100), state), Operation: "TIME_RANGE", Settings: read,
					Scale: []string{"SENSOR_NUMBER", "QUERY_SENSOR_NUM"}, Pair: "read", Level: level, Compressed: on,
					Published: Figure{Seconds: published["read"][on][i], Unit: "points/s"}})
		}
	}
	Register(&Scenario{
		Name:        "hakom-compression",
		Description: "HAKOM compression break-even: 25/50/75/100 % of values changing per block, bulk write and read with compression on and off, bytes per point",
		Source:      "seed 000: HAKOM TSM compression break-even point",
		Hardware:    "PostgreSQL server with 2 x Xeon X5675 3.06 GHz (12 cores), 8 GB RAM",
		ServerCores: 12,
		Settings: map[string]string{
			"DEVICE_NUMBER": "10", "SENSOR_NUMBER": "100", "CLIENT_NUMBER": "10", "INSERT_DATATYPE_PROPORTION": "0:0:0:0:1:0",
			"POINT_STEP": "900000", "BATCH_SIZE_PER_WRITE": "2976", "LOOP": "1", "START_TIME": "2016-01-01T00:00:00Z",
			"CHANGE_BLOCK": "96", "QUERY_DEVICE_NUM": "1", "QUERY_SENSOR_NUM": "100", "QUERY_INTERVAL": "2678400000",
			"STEP_SIZE": "0", "QUERY_DEVICE_SELECTION": "owned",
		},
		Phases: phases,
	})
}

func copyWith(base map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}
