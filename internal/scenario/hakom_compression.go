package scenario

import "fmt"

// hakom-compression is HAKOM's compression break-even evaluation (seed 000):
// values stored in blocks, 25/50/75/100 % of the values of a block changing,
// bulk write and read timed with compression on and off.
//
// Mapping: the data is the bulk shape of hakom-scaling (10 devices x 100
// series, 15-minute values over 31 days), as the study gives neither its
// data size nor its block size; a block is one day (96 values) and
// CHANGE_RATIO sets the share of changing values. Compression is switched
// with the target option compression=on|off on targets that have such a
// switch (the targets list says which); bytes on disk per point are reported
// when the target can tell. --scale changes the number of 100-series
// devices, never the 100.
//
// The published times are HAKOM TSM's over data of unknown size, so they are
// context only; what compares is the break-even, the share of changed values
// from which compression is faster, printed for the study and, on a target
// with a compression switch, as measured.
func init() {
	type row struct {
		times [4]float64
		quote string
	}
	published := map[string]map[bool]row{
		"write": {
			true:  {[4]float64{1.469, 1.602, 1.519, 1.454}, "Write Bulk-Request | yes | 00:01,469 | 00:01,602 | 00:01,519 | 00:01,454"},
			false: {[4]float64{1.248, 1.421, 1.514, 1.632}, "Write Bulk-Request | no | 00:01,248 | 00:01,421 | 00:01,514 | 00:01,632"}},
		"read": {
			true:  {[4]float64{0.870, 0.932, 0.932, 0.947}, "Read Bulk-Request | yes | 00:00,870 | 00:00,932 | 00:00,932 | 00:00,947"},
			false: {[4]float64{0.870, 0.932, 0.932, 0.995}, "Read Bulk-Request | no | 00:00,870 | 00:00,932 | 00:00,932 | 00:00,995"}},
	}
	figure := func(kind string, on bool, i int) Figure {
		r := published[kind][on]
		return Figure{Seconds: r.times[i], Unit: "points/s", Studied: "HAKOM TSM block compression on PostgreSQL",
			Conditions: "bulk requests", Seed: "000", Quote: r.quote,
			Context: "the study gives no data size; its break-even, not its times, compares"}
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
					Scale: []string{"DEVICE_NUMBER", "CLIENT_NUMBER"}, Pair: "write", Level: level, Compressed: on,
					Published: figure("write", on, i)},
				Phase{Name: fmt.Sprintf("read-%d-%s", int(level*100), state), Operation: "TIME_RANGE", Settings: read,
					Scale: []string{"DEVICE_NUMBER", "CLIENT_NUMBER"}, Pair: "read", Level: level, Compressed: on,
					Published: figure("read", on, i)})
		}
	}
	Register(&Scenario{
		Name:        "hakom-compression",
		Description: "HAKOM compression break-even: 25/50/75/100 % of values changing per block, bulk write and read with compression on and off, bytes per point",
		Source:      "seed 000: HAKOM TSM compression break-even point",
		Hardware:    "not stated for this evaluation (seed 000 lists hardware for its load and scaling tests only)",
		System:      "postgres",
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
