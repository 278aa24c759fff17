package workload

import (
	"slices"

	"github.com/tsbench/tsbench/internal/ts"
)

// javaDraws picks a client's query devices and sensors as IoT-benchmark's
// GenerateQueryWorkLoad does: two java.util.Random, both seeded with
// QUERY_SEED + client, one for devices and one for sensors. A query first
// draws a device to find its IoTDB table (with one table, IoT-benchmark's
// default, every device is in it), then draws devices without repeats and,
// for each, QUERY_SENSOR_NUM sensors without repeats; a numeric-only query
// skips the BOOLEAN and TEXT sensors it draws (they still count as drawn),
// and a device that ends with too few sensors is passed over.
//
// IoT-benchmark draws sensors anew for each device of a query; a ts.Query
// has one sensor set for all its devices, so the first device's serves
// them all. With QUERY_DEVICE_NUM = 1 (IoT-benchmark's default) the queries
// are IoT-benchmark's exactly; with more devices the devices are, and the
// draws stay in step for the next query.
type javaDraws struct {
	devices, sensors *javaRandom
	usedDevices      []int
	usedSensors      []int
	picked           []int
}

func newJavaDraws(seed int64, client int) *javaDraws {
	return &javaDraws{devices: newJavaRandom(seed + int64(client)), sensors: newJavaRandom(seed + int64(client))}
}

// draw appends one query's devices and sensors to devs and sens.
func (j *javaDraws) draw(s *ts.Schema, queryDevices, querySensors int, numericOnly bool, devs []*ts.Device, sens []int) ([]*ts.Device, []int) {
	n, m := int32(len(s.Devices)), len(s.Sensors)
	j.devices.nextInt(n) // the table draw
	want := min(int(n), queryDevices)
	j.usedDevices = j.usedDevices[:0]
	for len(devs) < want && len(j.usedDevices) < int(n) {
		d := int(j.devices.nextInt(n))
		if slices.Contains(j.usedDevices, d) {
			continue
		}
		j.usedDevices = append(j.usedDevices, d)
		picked := j.pickSensors(s, m, querySensors, numericOnly)
		if len(picked) != querySensors {
			continue
		}
		devs = append(devs, &s.Devices[d])
		if len(devs) == 1 {
			sens = append(sens, picked...)
		}
	}
	return devs, sens
}

// pickSensors draws one device's sensors.
func (j *javaDraws) pickSensors(s *ts.Schema, m, querySensors int, numericOnly bool) []int {
	j.usedSensors, j.picked = j.usedSensors[:0], j.picked[:0]
	for len(j.picked) < min(m, querySensors) && len(j.usedSensors) < m {
		id := int(j.sensors.nextInt(int32(m)))
		if slices.Contains(j.usedSensors, id) {
			continue
		}
		j.usedSensors = append(j.usedSensors, id)
		if numericOnly && !s.Sensors[id].Type.Numeric() {
			continue
		}
		j.picked = append(j.picked, id)
	}
	return j.picked
}
