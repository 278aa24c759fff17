// Package tsbs gives tsbench the Time Series Benchmark Suite's workloads
// (github.com/timescale/tsbs): its cpu-only, devops and iot use cases (hosts
// or trucks with TSBS's tags and fields) and its query types, each mapped
// onto one of tsbench's query kinds (ts.QueryKind) with the parameters TSBS
// gives it, or declared unsupported with the reason. TSBS's value lists
// (regions, teams, truck models...) are public facts of its data; the code
// here is tsbench's own.
//
// A TSBS run is a scenario whose phases set TSBS_USE_CASE and TSBS_PHASE;
// Apply turns those and TSBS's own keys (TSBS_SCALE, TSBS_LOG_INTERVAL,
// TSBS_START, TSBS_END, TSBS_QUERIES) into tsbench's keys before the
// configuration is resolved.
package tsbs

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/ts"
)

// UseCase is one of TSBS's use cases.
type UseCase struct {
	Name string // cpu-only, devops, iot
	// What is TSBS's description of a device: host or truck.
	What string
	// DevicePrefix makes TSBS's names: host_0, truck_0.
	DevicePrefix string
	// Fields are the sensors of a device, in order; queries on cpu fields
	// use the first len(CPUFields) of them.
	Fields []string
	// Mapping says how TSBS's measurements became one device's sensors.
	Mapping string
	// Queries are TSBS's query types of the use case, in TSBS's order.
	Queries []QueryType
	// OutOfOrder: TSBS delivers some of the use case's rows late (iot).
	OutOfOrder bool
	// Missing is the share of values left out (iot: TSBS leaves out 10 %
	// of its entries and a field of 10 % of the others; tsbench leaves out
	// 10 % of the values, each on its own).
	Missing float64
	// Bounds are the fields' value ranges, by position; nil: every field
	// in ValueRange.
	Bounds []gen.Bound
	tags   func(seed int64, index int) []ts.Tag
}

// CPUFields are TSBS's cpu measurement's ten fields.
var CPUFields = []string{"usage_user", "usage_system", "usage_idle", "usage_nice", "usage_iowait",
	"usage_irq", "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice"}

// devopsMeasurements are TSBS's nine devops measurements and their fields,
// in TSBS's order. Measurement-level tags (disk's path and fstype, net's
// interface, nginx's and redis's port and server, diskio's serial) are not
// kept: tsbench has one device per host.
var devopsMeasurements = []struct {
	name   string
	fields []string
}{
	{"cpu", CPUFields},
	{"diskio", []string{"reads", "writes", "read_bytes", "write_bytes", "read_time", "write_time", "io_time"}},
	{"disk", []string{"total", "free", "used", "used_percent", "inodes_total", "inodes_free", "inodes_used"}},
	{"kernel", []string{"boot_time", "interrupts", "context_switches", "processes_forked", "disk_pages_in", "disk_pages_out"}},
	{"mem", []string{"total", "available", "used", "free", "cached", "buffered", "used_percent", "available_percent", "buffered_percent"}},
	{"net", []string{"bytes_sent", "bytes_recv", "packets_sent", "packets_recv", "err_in", "err_out", "drop_in", "drop_out"}},
	{"nginx", []string{"accepts", "active", "handled", "reading", "requests", "waiting", "writing"}},
	{"postgresql", []string{"numbackends", "xact_commit", "xact_rollback", "blks_read", "blks_hit", "tup_returned",
		"tup_fetched", "tup_inserted", "tup_updated", "tup_deleted", "conflicts", "temp_files", "temp_bytes", "deadlocks",
		"blk_read_time", "blk_write_time"}},
	{"redis", []string{"uptime_in_seconds", "total_connections_received", "expired_keys", "evicted_keys", "keyspace_hits",
		"keyspace_misses", "instantaneous_ops_per_sec", "instantaneous_input_kbps", "instantaneous_output_kbps",
		"connected_clients", "used_memory", "used_memory_rss", "used_memory_peak", "used_memory_lua",
		"rdb_changes_since_last_save", "sync_full", "sync_partial_ok", "sync_partial_err", "pubsub_channels",
		"pubsub_patterns", "latest_fork_usec", "connected_slaves", "master_repl_offset", "repl_backlog_active",
		"repl_backlog_size", "repl_backlog_histlen", "mem_fragmentation_ratio", "used_cpu_sys", "used_cpu_user",
		"used_cpu_sys_children", "used_cpu_user_children"}},
}

// devopsFields names every devops field measurement_field, cpu's first, so
// that the cpu query types read the same sensor positions as in cpu-only.
func devopsFields() []string {
	var out []string
	for _, m := range devopsMeasurements {
		for _, f := range m.fields {
			out = append(out, m.name+"_"+f)
		}
	}
	return out
}

// iotFields are TSBS's readings (7) and diagnostics (3) fields, and
// iotBounds their ranges and precision in TSBS's truck simulator
// (velocity, load and status whole numbers, fuel to a tenth).
var (
	iotFields = []string{"latitude", "longitude", "elevation", "velocity", "heading", "grade", "fuel_consumption",
		"fuel_state", "current_load", "status"}
	iotBounds = []gen.Bound{{Lo: -90, Hi: 90}, {Lo: -180, Hi: 180}, {Lo: 0, Hi: 5000, Step: 1}, {Lo: 0, Hi: 100, Step: 1},
		{Lo: 0, Hi: 360, Step: 1}, {Lo: 0, Hi: 100, Step: 1}, {Lo: 0, Hi: 50, Step: 0.1},
		{Lo: 0, Hi: 1, Step: 0.1}, {Lo: 0, Hi: 5000, Step: 1}, {Lo: 0, Hi: 5, Step: 1}}
)

var useCases = map[string]*UseCase{}

func init() {
	for _, u := range []*UseCase{
		{Name: "cpu-only", What: "host", DevicePrefix: "host_", Fields: CPUFields, tags: hostTags,
			Mapping: "a host is a device with TSBS's ten host tags; cpu's ten fields are its ten DOUBLE sensors",
			Queries: cpuQueries()},
		{Name: "devops", What: "host", DevicePrefix: "host_", Fields: devopsFields(), tags: hostTags,
			Mapping: "a host is a device with TSBS's ten host tags; the nine measurements' 101 fields are its sensors, " +
				"named measurement_field (cpu_usage_user ... redis_used_cpu_user_children), cpu's first; " +
				"measurement tags (disk path, net interface, ...) are not kept",
			Queries: cpuQueries()},
		{Name: "iot", What: "truck", DevicePrefix: "truck_", Fields: iotFields, tags: truckTags, OutOfOrder: true, Missing: 0.1, Bounds: iotBounds,
			Mapping: "a truck is a device with TSBS's eight truck tags; readings' seven and diagnostics' three fields " +
				"are its ten DOUBLE sensors, one row per reading time",
			Queries: iotQueries()},
	} {
		useCases[u.Name] = u
	}
}

// Lookup finds a use case by name.
func Lookup(name string) (*UseCase, error) {
	if u, ok := useCases[name]; ok {
		return u, nil
	}
	return nil, fmt.Errorf("unknown TSBS use case %q (allowed: %s)", name, strings.Join(Names(), ", "))
}

// Names lists the use cases.
func Names() []string {
	var out []string
	for n := range useCases {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Query finds one of the use case's query types.
func (u *UseCase) Query(name string) (QueryType, bool) {
	for _, q := range u.Queries {
		if q.Name == name {
			return q, true
		}
	}
	return QueryType{}, false
}

// Tags are device index's tags, chosen by hashes of the seed and index, so
// that every run with the same seed gives a host the same tags.
func (u *UseCase) Tags(seed int64, index int) []ts.Tag { return u.tags(seed, index) }

// The value lists of TSBS's host tags.
var (
	regions = []struct {
		name        string
		datacenters []string
	}{
		{"us-east-1", []string{"us-east-1a", "us-east-1b", "us-east-1c", "us-east-1e"}},
		{"us-west-1", []string{"us-west-1a", "us-west-1b"}},
		{"us-west-2", []string{"us-west-2a", "us-west-2b", "us-west-2c"}},
		{"eu-west-1", []string{"eu-west-1a", "eu-west-1b", "eu-west-1c"}},
		{"eu-central-1", []string{"eu-central-1a", "eu-central-1b"}},
		{"ap-southeast-1", []string{"ap-southeast-1a", "ap-southeast-1b"}},
		{"ap-southeast-2", []string{"ap-southeast-2a", "ap-southeast-2b"}},
		{"ap-northeast-1", []string{"ap-northeast-1a", "ap-northeast-1c"}},
		{"sa-east-1", []string{"sa-east-1a", "sa-east-1b", "sa-east-1c"}},
	}
	teams        = []string{"SF", "NYC", "LON", "CHI"}
	oses         = []string{"Ubuntu16.10", "Ubuntu16.04LTS", "Ubuntu15.10"}
	arches       = []string{"x64", "x86"}
	environments = []string{"production", "staging", "test"}
)

// The counts of TSBS's numbered host tag values.
const (
	racks           = 100 // per datacenter
	services        = 20
	serviceVersions = 2
)

// hostTags are TSBS's ten host tags.
func hostTags(seed int64, i int) []ts.Tag {
	pick := func(tag, n int) int { return int(draw(seed, i, tag) % uint64(n)) }
	r := regions[pick(1, len(regions))]
	return []ts.Tag{
		{Key: "hostname", Value: "host_" + strconv.Itoa(i)},
		{Key: "region", Value: r.name},
		{Key: "datacenter", Value: r.datacenters[pick(2, len(r.datacenters))]},
		{Key: "rack", Value: strconv.Itoa(pick(3, racks))},
		{Key: "os", Value: oses[pick(4, len(oses))]},
		{Key: "arch", Value: arches[pick(5, len(arches))]},
		{Key: "team", Value: teams[pick(6, len(teams))]},
		{Key: "service", Value: strconv.Itoa(pick(7, services))},
		{Key: "service_version", Value: strconv.Itoa(pick(8, serviceVersions))},
		{Key: "service_environment", Value: environments[pick(9, len(environments))]},
	}
}

// The value lists of TSBS's truck tags; a model fixes the three capacities.
var (
	fleets   = []string{"East", "West", "North", "South"}
	drivers  = []string{"Derek", "Rodney", "Albert", "Andy", "Seth", "Trish"}
	versions = []string{"v1.0", "v1.5", "v2.0", "v2.3"}
	models   = []struct{ name, load, fuel, consumption string }{
		{"F-150", "2000", "200", "15"},
		{"G-2000", "5000", "300", "19"},
		{"H-2", "1500", "150", "12"},
	}
)

// truckTags are TSBS's eight truck tags.
func truckTags(seed int64, i int) []ts.Tag {
	pick := func(tag, n int) int { return int(draw(seed, i, tag) % uint64(n)) }
	m := models[pick(3, len(models))]
	return []ts.Tag{
		{Key: "name", Value: "truck_" + strconv.Itoa(i)},
		{Key: "fleet", Value: fleets[pick(1, len(fleets))]},
		{Key: "driver", Value: drivers[pick(2, len(drivers))]},
		{Key: "model", Value: m.name},
		{Key: "device_version", Value: versions[pick(4, len(versions))]},
		{Key: "load_capacity", Value: m.load},
		{Key: "fuel_capacity", Value: m.fuel},
		{Key: "nominal_fuel_consumption", Value: m.consumption},
	}
}

// draw hashes (seed, device, tag) with splitmix64's finaliser.
func draw(seed int64, device, tag int) uint64 {
	x := uint64(seed)*0x9e3779b97f4a7c15 ^ uint64(device)*0xc2b2ae3d27d4eb4f ^ uint64(tag)*0x165667b19e3779f9
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
