package ts

import "strconv"

// Sensor is one measured channel. Every device of a schema has the same sensors.
type Sensor struct {
	Name string
	Type DataType
}

// Tag is a device attribute (IoT-benchmark's TAG_NUMBER tags).
type Tag struct {
	Key, Value string
}

// Device is one source of rows.
type Device struct {
	Index int    // global device index (cluster offset included); the generator's key
	Name  string // e.g. d_0
	Group int    // index into Schema.Groups
	Tags  []Tag
}

// Schema describes everything a target must create before writes.
type Schema struct {
	Database string   // DB_NAME
	Groups   []string // storage groups / databases / measurements (GROUP_NUMBER)
	Devices  []Device
	Sensors  []Sensor
	// StartTime and PointStep (milliseconds since the epoch and between rows)
	// let a target choose partitions; row k of any device is at
	// StartTime + k*PointStep.
	StartTime int64
	PointStep int64
}

// SeriesID numbers a (device position, sensor) pair densely, which lets
// targets key narrow tables by one integer.
func (s *Schema) SeriesID(devicePos, sensor int) int64 {
	return int64(devicePos)*int64(len(s.Sensors)) + int64(sensor)
}

// DevicePos finds the position in Devices of the device with the given
// global index, or -1. Device indexes are contiguous, so this is arithmetic.
func (s *Schema) DevicePos(index int) int {
	if len(s.Devices) == 0 {
		return -1
	}
	p := index - s.Devices[0].Index
	if p < 0 || p >= len(s.Devices) {
		return -1
	}
	return p
}

// SeriesIDs lists the series ids of devices x sensors (devices not in the
// schema are skipped), devices first: what SQL targets put in IN lists.
func (s *Schema) SeriesIDs(devs []*Device, sensors []int) []int64 {
	ids := make([]int64, 0, len(devs)*len(sensors))
	for _, d := range devs {
		pos := s.DevicePos(d.Index)
		if pos < 0 {
			continue
		}
		for _, sn := range sensors {
			ids = append(ids, s.SeriesID(pos, sn))
		}
	}
	return ids
}

// AllSensors lists every sensor index, for selections of whole devices.
func (s *Schema) AllSensors() []int {
	all := make([]int, len(s.Sensors))
	for i := range all {
		all[i] = i
	}
	return all
}

// IDList renders ids as an SQL list, "(1,2,3)", or "(NULL)" when empty.
func IDList(ids []int64) string {
	if len(ids) == 0 {
		return "(NULL)"
	}
	b := make([]byte, 0, 8*len(ids))
	b = append(b, '(')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return string(append(b, ')'))
}

// EachName calls visit with every name s holds and its kind ("group",
// "sensor", "device", "tag key", "tag value"), in that order of kinds, and
// stops at the first error visit returns: how a target checks, before it
// writes anything, that its server can store every name.
func (s *Schema) EachName(visit func(kind, name string) error) error {
	for _, g := range s.Groups {
		if err := visit("group", g); err != nil {
			return err
		}
	}
	for _, sn := range s.Sensors {
		if err := visit("sensor", sn.Name); err != nil {
			return err
		}
	}
	for _, d := range s.Devices {
		if err := visit("device", d.Name); err != nil {
			return err
		}
	}
	for _, d := range s.Devices {
		for _, tg := range d.Tags {
			if err := visit("tag key", tg.Key); err != nil {
				return err
			}
			if err := visit("tag value", tg.Value); err != nil {
				return err
			}
		}
	}
	return nil
}

// TagKeys lists the tag keys of the schema's devices, each once, in the
// order they first appear: what a target names columns or labels after.
func (s *Schema) TagKeys() []string {
	seen := map[string]bool{}
	var keys []string
	for _, d := range s.Devices {
		for _, tg := range d.Tags {
			if !seen[tg.Key] {
				seen[tg.Key] = true
				keys = append(keys, tg.Key)
			}
		}
	}
	return keys
}
