package tsbs

import (
	"time"

	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/ts"
)

// QueryType is one of TSBS's query types as tsbench runs it.
type QueryType struct {
	Name string
	// Kind is the tsbench query kind that runs it; 0 when unsupported.
	Kind ts.QueryKind
	// Unsupported says why no tsbench kind expresses the query.
	Unsupported string
	// Differs says where tsbench's answer differs from TSBS's (TSBS
	// aggregates across hosts where tsbench's kinds keep one value per
	// series, or returns whole rows where tsbench returns the asked field).
	Differs string
	// The query's parameters. Hosts 0 means all hosts, Fields 0 all of
	// FieldPool.
	Agg       ts.Aggregate
	Fields    int
	FieldPool int // queries draw fields among the first FieldPool sensors
	Hosts     int
	Interval  time.Duration
	Bucket    time.Duration
	Lower     float64 // VALUE_RANGE: value > Lower
	// Across aggregates GROUP_BY across the hosts (one value per field and
	// bucket), as TSBS does; set where it changes the answer (more than
	// one host), so that a target without ts.Query's Across still runs
	// the one-host types.
	Across bool
	Limit  int // GROUP_BY: the newest Limit buckets only
	// Fleet makes the query type one of TSBS's iot questions (0: not).
	Fleet ts.FleetKind
	// OneFleet asks the trucks of one fleet, drawn per query (last-loc).
	OneFleet bool
}

// Notes shared by several query types.
const (
	// windows says how every windowed type's window differs (docs/tsbs.md).
	windows     = "; buckets on the clock and windows drawn at random as TSBS's, to the millisecond (TSBS: the nanosecond)"
	acrossHosts = "the maximum across the hosts per field and minute (GROUP_BY_ACROSS_DEVICES), of TSBS's first fields" + windows
	oneHost     = "the maximum per field and minute of one host, of TSBS's first fields" + windows
	cpuPool     = 10 // the cpu fields lead every host's sensors
)

// highCPU is how high-cpu's answer differs from TSBS's.
const highCPU = "TSBS returns whole cpu rows where usage_user > 90 in [s, e); tsbench returns the usage_user values of those rows"

// cpuQueries are TSBS's fifteen cpu-only (and devops) query types. A type
// of M fields reads TSBS's first M (usage_user, usage_system, ...): its
// FieldPool is M.
func cpuQueries() []QueryType {
	single := func(name string, fields, hosts int, hours time.Duration) QueryType {
		q := QueryType{Name: name, Kind: ts.GroupBy, Agg: ts.Max, Fields: fields, FieldPool: fields, Hosts: hosts,
			Interval: hours * time.Hour, Bucket: time.Minute, Across: hosts > 1, Differs: acrossHosts}
		if hosts == 1 {
			q.Differs = oneHost
		}
		return q
	}
	double := func(name string, fields int) QueryType {
		return QueryType{Name: name, Kind: ts.GroupBy, Agg: ts.Avg, Fields: fields, FieldPool: fields,
			Interval: 12 * time.Hour, Bucket: time.Hour,
			Differs: "the mean per host, field and hour of TSBS's first fields (TSBS also returns the host name per row)" + windows}
	}
	return []QueryType{
		single("single-groupby-1-1-1", 1, 1, 1),
		single("single-groupby-1-1-12", 1, 1, 12),
		single("single-groupby-1-8-1", 1, 8, 1),
		single("single-groupby-5-1-1", 5, 1, 1),
		single("single-groupby-5-1-12", 5, 1, 12),
		single("single-groupby-5-8-1", 5, 8, 1),
		{Name: "cpu-max-all-1", Kind: ts.GroupBy, Agg: ts.Max, Fields: cpuPool, FieldPool: cpuPool, Hosts: 1,
			Interval: 8 * time.Hour, Bucket: time.Hour, Differs: "the maximum per field and hour of one host" + windows},
		{Name: "cpu-max-all-8", Kind: ts.GroupBy, Agg: ts.Max, Fields: cpuPool, FieldPool: cpuPool, Hosts: 8,
			Interval: 8 * time.Hour, Bucket: time.Hour, Across: true,
			Differs: "the maximum across the 8 hosts per field and hour (GROUP_BY_ACROSS_DEVICES)" + windows},
		double("double-groupby-1", 1),
		double("double-groupby-5", 5),
		double("double-groupby-all", cpuPool),
		{Name: "high-cpu-1", Kind: ts.ValueRange, Fields: 1, FieldPool: 1, Hosts: 1, Interval: 12 * time.Hour, Lower: 90,
			Differs: highCPU},
		{Name: "high-cpu-all", Kind: ts.ValueRange, Fields: 1, FieldPool: 1, Interval: 12 * time.Hour, Lower: 90,
			Differs: highCPU},
		{Name: "lastpoint", Kind: ts.LatestPoint, Fields: cpuPool, FieldPool: cpuPool,
			Differs: "TSBS returns each host's newest cpu row; tsbench the newest point of each host's field (the same values when rows are whole)"},
		{Name: "groupby-orderby-limit", Kind: ts.GroupBy, Agg: ts.Max, Fields: 1, FieldPool: 1,
			Interval: time.Hour, Bucket: time.Minute, Across: true, Limit: 5,
			Differs: "the maximum usage_user across all hosts of the 5 newest minutes before the window's end, " +
				"newest first, minutes on the clock; the window starts at the data's start (TSBS's has no lower bound: no row is older)"},
	}
}

// iotQueries are TSBS's twelve iot query types. last-loc is each truck's
// newest latitude and longitude; the other eleven are fleet questions
// (ts.FleetKind, answers defined in internal/fleet), timed as the tsbench
// kind nearest in shape: the newest points (LATEST_POINT), 10-minute
// periods (GROUP_BY) or aggregates over the data (AGG_RANGE). Windowed
// questions read TSBS's window (10 minutes, 4 or 24 hours); the others
// the whole data.
func iotQueries() []QueryType {
	ask := func(k ts.FleetKind, kind ts.QueryKind, differs string) QueryType {
		return QueryType{Name: k.String(), Kind: kind, Fleet: k, Fields: 1, FieldPool: 1,
			Interval: time.Duration(fleet.Windows[k]) * time.Millisecond, Bucket: fleet.Period * time.Millisecond, Differs: differs}
	}
	newest := "TSBS takes each truck's newest diagnostics row and finds the field empty when the row lacks it; " +
		"tsbench takes each truck's newest value of the field"
	sessions := "the same trucks; tsbench also returns the count of driving periods"
	return []QueryType{
		{Name: "last-loc", Kind: ts.LatestPoint, Fields: 2, FieldPool: 2, OneFleet: true,
			Differs: "one random fleet's trucks, as TSBS's, but each field's own newest value (TSBS returns each truck's newest " +
				"readings row, with name and driver, where a field may be empty); the fleet is drawn among those that have trucks"},
		ask(ts.LowFuel, ts.LatestPoint, newest),
		ask(ts.HighLoad, ts.LatestPoint, newest),
		ask(ts.StationaryTrucks, ts.GroupBy, "TSBS's question, over a 10-minute window drawn at random as TSBS's"),
		ask(ts.LongDrivingSession, ts.GroupBy, sessions),
		ask(ts.LongDailySession, ts.GroupBy, sessions),
		ask(ts.AvgVsProjectedFuel, ts.AggRange, "over the rows with both velocity and fuel_consumption (TSBS's mean of the tag also counts rows without fuel_consumption)"),
		ask(ts.AvgDailyDriving, ts.GroupBy, "hours are driving periods / 6 (TSBS divides integers and truncates them)"),
		ask(ts.AvgDailySession, ts.GroupBy, "the same sessions; tsbench gives the mean length in milliseconds and the day as a time"),
		ask(ts.AvgLoad, ts.AggRange, "TSBS's question; tsbench gives the load capacity as a number"),
		ask(ts.DailyActivity, ts.GroupBy, "tsbench counts active 10-minute periods / 144 "+
			"(TSBS counts their rows and divides integers: its share grows with the rows per period)"),
		ask(ts.BreakdownFrequency, ts.GroupBy, "tsbench finds periods with at least half their status points 0 "+
			"(TSBS's count(STATUS = 0) / count(*) counts every row with a status: its periods break down when no status is missing)"),
	}
}
