package clientside

import (
	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/ts"
)

// FleetColumns names the fields a fleet question reads (fleet.FieldNames
// checks them against s) and the column of each as the target's server
// names it: column gets the field's sensor (its index in s) and its name,
// for a target to map whichever it keeps its server names by.
func FleetColumns(q *ts.Query, s *ts.Schema, column func(sensor int, name string) string) (names, cols []string, err error) {
	names, err = fleet.FieldNames(q, s)
	if err != nil {
		return nil, nil, err
	}
	cols = make([]string, len(names))
	for i, n := range names {
		cols[i] = column(q.Sensors[i], n) // FieldNames checked the sensors
	}
	return names, cols, nil
}

// FleetTrucks are the devices a fleet question asks about: those of its
// fleet where its kind asks about one (fleet.NeedsFleet), else all of
// q.Devices, in their order. A target whose server keeps no truck tags
// (the schema's are the only ones) reads these trucks alone.
func FleetTrucks(q *ts.Query) []*ts.Device {
	var trucks []*ts.Device
	for _, d := range q.Devices {
		if !fleet.NeedsFleet(q.Fleet.Kind) || fleet.TagsOf(d)[fleet.TagFleet] == q.Fleet.Fleet {
			trucks = append(trucks, d)
		}
	}
	return trucks
}
