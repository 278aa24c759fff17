// Package workload turns a configuration into what clients do: the schema and
// generator settings, the device split between clients, each client's
// operation sequence, and the parameters of each query.
package workload

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/tsbs"
)

// Schema builds the schema of a run from its configuration.
func Schema(c *config.Config) *ts.Schema {
	s := &ts.Schema{
		Database:  c.Database,
		StartTime: FirstRowTime(c),
		PointStep: c.PointStep,
	}
	for g := 0; g < c.Groups; g++ {
		s.Groups = append(s.Groups, fmt.Sprintf("%s%d", c.GroupPrefix, g))
	}
	types := config.SensorTypes(c.TypeProportion, c.Sensors)
	names := tsbs.SensorNames(c) // TSBS's field names, in a TSBS run
	for i, t := range types {
		name := fmt.Sprintf("%s%d", c.SensorPrefix, i)
		if i < len(names) {
			name = names[i]
		}
		s.Sensors = append(s.Sensors, ts.Sensor{Name: name, Type: t})
	}
	offset := c.DeviceOffset()
	s.Devices = make([]ts.Device, c.Devices)
	for i := range s.Devices {
		idx := offset + i
		name := fmt.Sprintf("%s%d", c.DevicePrefix, idx)
		s.Devices[i] = ts.Device{Index: idx, Name: name, Group: groupOf(c, idx), Tags: tags(c, name)}
	}
	return s
}

// groupOf maps a device to a storage group as IoT-benchmark's SG_STRATEGY
// does (MetaUtil.mappingId over the device's global index): mod (index mod
// groups), div (runs of DEVICE_NUMBER/GROUP_NUMBER devices, the runs taken
// mod groups when they do not divide evenly) or hash (Java's hashCode of
// the index's decimal text, mod groups). A negative hashCode, which
// IoT-benchmark turns into a group named g_-N, is taken mod groups here.
func groupOf(c *config.Config, idx int) int {
	switch c.GroupStrategy {
	case "div":
		per := c.Devices / c.Groups
		if per == 0 {
			return idx % c.Groups
		}
		return (idx / per) % c.Groups
	case "hash":
		h := int(javaStringHash(strconv.Itoa(idx))) % c.Groups
		if h < 0 {
			h += c.Groups
		}
		return h
	default:
		return idx % c.Groups
	}
}

// javaStringHash is Java's String.hashCode: s[0]*31^(n-1) + ... + s[n-1]
// in 32-bit arithmetic that wraps.
func javaStringHash(s string) int32 {
	var h int32
	for i := 0; i < len(s); i++ {
		h = 31*h + int32(s[i])
	}
	return h
}

// tags gives a device TAG_NUMBER tags whose values are chosen by a hash of
// the device name among TAG_VALUE_CARDINALITY values.
func tags(c *config.Config, name string) []ts.Tag {
	if t, ok := tsbs.DeviceTags(c, deviceIndex(c, name)); ok {
		return t
	}
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

// deviceIndex reads a device's index back from its name (prefix, index).
func deviceIndex(c *config.Config, name string) int {
	i, _ := strconv.Atoi(strings.TrimPrefix(name, c.DevicePrefix))
	return i
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
		Bound:        tsbs.Bound(c),
		Bounds:       tsbs.Bounds(c),
		Missing:      tsbs.Missing(c),
		Table:        tsbs.Table(c),
	}
	if c.OutOfOrder {
		writes := NewPlan(c.Weights(), c.Loop).Counts()[Write]
		o.Order = gen.Order{Mode: gen.Poisson, Ratio: c.OutOfOrderRate, Lambda: c.Lambda, MaxDelay: c.MaxK,
			Rows: writes * int64(c.BatchSize)}
		if c.OutOfOrderMode == config.OutOfOrderBatch {
			o.Order.Mode = gen.BatchOrder
		}
		if c.OperationOrder == OrderRandom {
			o.Order.DeviceRows = deviceRows(c)
		}
	}
	return o
}

// DeviceWriteSteps is, by device position, how many write steps a
// complete run of c gives the device: its client's share of LOOP, which is
// the same for every client in OrderSpread and drawn per client in
// OrderRandom.
func DeviceWriteSteps(c *config.Config) []int64 {
	steps := make([]int64, c.Devices)
	schema := Schema(c)
	for client := 0; client < c.Clients; client++ {
		writes := ClientPlan(c.OperationOrder, c.Weights(), c.Loop, client, c.Clients).Counts()[Write]
		for _, pos := range clientPositions(c, schema, client) {
			steps[pos] = writes
		}
	}
	return steps
}

// The places of row 0 of FIRST_ROW_AT.
const (
	FirstRowAtStart = "start" // tsbench's: at START_TIME
	FirstRowAtStep  = "step"  // IoT-benchmark's: one POINT_STEP after START_TIME
)

// FirstRowTime is the time of every device's row 0, in milliseconds. The
// query windows start from START_TIME either way.
func FirstRowTime(c *config.Config) int64 {
	t := c.StartTime.UnixMilli()
	if c.FirstRowAt == FirstRowAtStep {
		t += c.PointStep
	}
	return t
}

// deviceRows is, by device index, how many rows the device sends in a
// complete run when the clients draw their operations at random.
func deviceRows(c *config.Config) func(device int) int64 {
	steps := DeviceWriteSteps(c)
	offset := c.DeviceOffset()
	return func(device int) int64 {
		if pos := device - offset; pos >= 0 && pos < len(steps) {
			return steps[pos] * int64(c.BatchSize)
		}
		return 0
	}
}

// The device bindings of DEVICE_BINDING.
const (
	// BindContiguous is tsbench's: devices in index order, split into
	// contiguous ranges whose sizes differ by at most one (the larger ones
	// last).
	BindContiguous = "contiguous"
	// BindIoTBenchmark is IoT-benchmark's (MetaUtil.distributeDevices):
	// devices ordered by storage group, then by index, and the first
	// DEVICE_NUMBER mod CLIENT_NUMBER clients take one device more.
	BindIoTBenchmark = "iot-benchmark"
)

// ClientDevices is the devices client owns, as DEVICE_BINDING splits them.
func ClientDevices(c *config.Config, s *ts.Schema, client int) []ts.Device {
	if c.DeviceBinding != BindIoTBenchmark {
		lo, hi := clientRange(len(s.Devices), c.Clients, client)
		return s.Devices[lo:hi]
	}
	pos := clientPositions(c, s, client)
	out := make([]ts.Device, len(pos))
	for i, p := range pos {
		out[i] = s.Devices[p]
	}
	return out
}

// clientPositions is the positions of the devices client owns.
func clientPositions(c *config.Config, s *ts.Schema, client int) []int {
	n := len(s.Devices)
	if c.DeviceBinding != BindIoTBenchmark {
		lo, hi := clientRange(n, c.Clients, client)
		pos := make([]int, 0, hi-lo)
		for p := lo; p < hi; p++ {
			pos = append(pos, p)
		}
		return pos
	}
	order := make([]int, n)
	for p := range order {
		order[p] = p
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(s.Devices[a].Group, s.Devices[b].Group) })
	each, left := n/c.Clients, n%c.Clients
	lo := client*each + min(client, left)
	hi := lo + each
	if client < left {
		hi++
	}
	return order[lo:hi]
}

// clientRange is the positions [lo, hi) of the devices client owns.
func clientRange(devices, clients, client int) (lo, hi int) {
	return client * devices / clients, (client + 1) * devices / clients
}
