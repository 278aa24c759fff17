package workload

import (
	"slices"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/tsbs"
)

// fleetDraws makes a TSBS iot query phase's queries its question: every
// truck, the fields the question reads, and a fleet drawn per query.
type fleetDraws struct {
	q       ts.FleetQuery
	devices []*ts.Device
	sensors []int
}

// newFleetDraws is nil unless c is a TSBS phase asking a fleet question
// of a schema that has its fields.
func newFleetDraws(c *config.Config, s *ts.Schema) *fleetDraws {
	k := tsbs.Fleet(c)
	if k == 0 {
		return nil
	}
	f := &fleetDraws{q: ts.FleetQuery{Kind: k}}
	for _, name := range fleet.Fields(k) {
		i := slices.IndexFunc(s.Sensors, func(sn ts.Sensor) bool { return sn.Name == name })
		if i < 0 {
			return nil // not TSBS's truck fields: Apply refuses such a run
		}
		f.sensors = append(f.sensors, i)
	}
	for i := range s.Devices {
		f.devices = append(f.devices, &s.Devices[i])
	}
	return f
}

// fill turns dst into the question, with the fleet key draws.
func (f *fleetDraws) fill(dst *ts.Query, key uint64) {
	fq := f.q
	if fleet.NeedsFleet(fq.Kind) {
		fleets := tsbs.Fleets()
		fq.Fleet = fleets[key%uint64(len(fleets))]
	}
	dst.Fleet = &fq
	dst.Devices, dst.Sensors = f.devices, f.sensors
}
