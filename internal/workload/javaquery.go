package workload

import (
	"slices"

	"github.com/tsbench/tsbench/internal/ts"
)

// javaDraws picks a client's query devices and sensors as IoT-benchmark's
// GenerateQueryWorkLoad does: two java.util.Random, both seeded with
// QUERY_SEED + client, one for devices and one for sensors. A query first
// draws a device to find its table, and takes its devices from that table
// only: in IoTDB's tree model IoT-benchmark makes one table per storage
// group, so the devices of a query share a group. It draws them without
// repeats and, for each, QUERY_SENSOR_NUM sensors without repeats; a
// numeric-only query skips the BOOLEAN and TEXT sensors it draws (they
// still count as drawn), and a device that ends with too few sensors is
// passed over.
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
	tables           map[int][]int // device positions by group, made on first use
}

func newJavaDraws(seed int64, client int) *javaDraws {
	return &javaDraws{devices: newJavaRandom(seed + int64(client)), sensors: newJavaRandom(seed + int64(client))}
}

// draw appends one query's devices and sensors to devs and sens.
func (j *javaDraws) draw(s *ts.Schema, queryDevices, querySensors int, numericOnly bool, devs []*ts.Device, sens []int) ([]*ts.Device, []int) {
	m := len(s.Sensors)
	table := j.table(s, int(j.devices.nextInt(int32(len(s.Devices)))))
	n := int32(len(table))
	want := min(int(n), queryDevices)
	j.usedDevices = j.usedDevices[:0]
	for len(devs) < want && len(j.usedDevices) < int(n) {
		d := table[j.devices.nextInt(n)]
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

// table lists, in index order, the positions of the devices in the group
// of the device at position first.
func (j *javaDraws) table(s *ts.Schema, first int) []int {
	group := s.Devices[first].Group
	if j.tables == nil {
		j.tables = map[int][]int{}
	}
	if t, ok := j.tables[group]; ok {
		return t
	}
	var t []int
	for p := range s.Devices {
		if s.Devices[p].Group == group {
			t = append(t, p)
		}
	}
	j.tables[group] = t
	return t
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
