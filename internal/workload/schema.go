// Package workload turns a configuration into what clients do: the schema and
// generator settings, the device split between clients, each client's
// operation sequence, and the parameters of each query.
package workload

import (
	"fmt"
	"hash/fnv"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/ts"
)

// Schema builds the schema of a run from its configuration.
func Schema(c *config.Config) *ts.Schema {
	s := &ts.Schema{
		Database:  c.Database,
		StartTime: c.StartTime.UnixMilli(),
		PointStep: c.PointStep,
	}
	for g := 0; g < c.Groups; g++ {
		s.Groups = append(s.Groups, fmt.Sprintf("%s%d", c.GroupPrefix, g))
	}
	types := config.SensorTypes(c.TypeProportion, c.Sensors)
	for i, t := range types {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: fmt.Sprintf("%s%d", c.SensorPrefix, i), Type: t})
	}
	offset := c.DeviceOffset()
	s.Devices = make([]ts.Device, c.Devices)
	for i := range s.Devices {
		idx := offset + i
		name := fmt.Sprintf("%s%d", c.DevicePrefix, idx)
		s.Devices[i] = ts.Device{Index: idx, Name: name, Group: groupOf(c, i, idx, name), Tags: tags(c, name)}
	}
	return s
}

// groupOf maps a device to a storage group as IoT-benchmark's SG_STRATEGY
// does: mod (index mod groups), div (contiguous ranges of this instance's
// devices, pos being the position among them) or hash (of the name).
func groupOf(c *config.Config, pos, idx int, name string) int {
	switch c.GroupStrategy {
	case "div":
		per := (c.Devices + c.Groups - 1) / c.Groups
		return min(pos/per, c.Groups-1)
	case "hash":
		return int(fnvHash(name) % uint32(c.Groups))
	default:
		return idx % c.Groups
	}
}

// tags gives a device TAG_NUMBER tags whose values are chosen by a hash of
// the device name among TAG_VALUE_CARDINALITY values.
func tags(c *config.Config, name string) []ts.Tag {
	if c.Tags == 0 {
		return nil
	}
	out := make([]ts.Tag, c.Tags)
	for i := range out {
		v := fnvHash(fmt.Sprintf("%s#%d", name, i)) % uint32(max(1, c.TagValueCardinality(i)))
		out[i] = ts.Tag{Key: fmt.Sprintf("%s%d", c.TagKeyPrefix, i), Value: fmt.Sprintf("%s%d", c.TagValuePrefix, v)}
	}
	return out
}

func fnvHash(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// GenOptions are the generator settings of a run.
func GenOptions(c *config.Config) gen.Options {
	o := gen.Options{
		Seed:         c.DataSeed,
		Ratios:       [6]float64{c.LineRatio, c.SinRatio, c.SquareRatio, c.RandomRatio, c.ConstantRatio, c.WalkRatio},
		StringLength: c.StringLength,
		DoubleLength: c.DoubleLength,
		BatchSize:    c.BatchSize,
		Change:       gen.Change{Ratio: c.ChangeRatio, Block: c.ChangeBlock},
	}
	if c.OutOfOrder {
		writes := NewPlan(c.Proportion, c.Loop).Counts()[Write]
		o.Order = gen.Order{Mode: gen.Poisson, Ratio: c.OutOfOrderRate, Lambda: c.Lambda, MaxDelay: c.MaxK,
			Rows: writes * int64(c.BatchSize)}
		if c.OutOfOrderMode == config.OutOfOrderBatch {
			o.Order.Mode = gen.BatchOrder
		}
	}
	return o
}

// ClientDevices splits devices between clients in contiguous, balanced
// ranges (sizes differ by at most one), as IoT-benchmark binds them.
func ClientDevices(s *ts.Schema, clients, client int) []ts.Device {
	n := len(s.Devices)
	lo := client * n / clients
	hi := (client + 1) * n / clients
	return s.Devices[lo:hi]
}
