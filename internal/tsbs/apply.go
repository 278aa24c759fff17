package tsbs

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/ts"
)

// The steps of a TSBS run besides its query types (TSBS_PHASE).
const (
	PhaseLoad  = "load"  // write every host's rows from TSBS_START to TSBS_END
	PhaseMixed = "mixed" // tsbench's own: the load again with queries between the writes
)

// ValueRange is where every TSBS field's values lie: TSBS's cpu fields are
// percentages, and tsbench gives every field the same bounded walk.
var ValueRange = gen.Bound{Lo: 0, Hi: 100}

// Active reports whether c is a TSBS run.
func Active(c *config.Config) bool { return c.TSBSUseCase != "" }

// WorkloadPrefix begins the name of a TSBS use case as a workload
// (WORKLOAD, --workload, the scenarios): tsbs-cpu-only.
const WorkloadPrefix = "tsbs-"

// WorkloadUseCase is the use case a workload names (cpu-only for
// tsbs-cpu-only, in any case), and false for a workload that is no TSBS
// one (timeseries, tpcc).
func WorkloadUseCase(workload string) (string, bool) {
	w := strings.ToLower(strings.TrimSpace(workload))
	uc, ok := strings.CutPrefix(w, WorkloadPrefix)
	return uc, ok && uc != ""
}

// Error is a TSBS key's bad value.
type Error struct{ Key, Value, Allowed, Reason string }

func (e *Error) Error() string {
	msg := fmt.Sprintf("%s = %q", e.Key, e.Value)
	if e.Allowed != "" {
		msg += ": allowed: " + e.Allowed
	}
	if e.Reason != "" {
		msg += ": " + e.Reason
	}
	return msg
}

// Span is a TSBS run's rows per host and its first row's time.
type Span struct {
	Start time.Time
	Step  time.Duration
	Rows  int64
}

// SpanOf reads TSBS_START, TSBS_END and TSBS_LOG_INTERVAL.
func SpanOf(c *config.Config) (Span, error) {
	start, err := time.Parse(time.RFC3339, strings.TrimSpace(c.TSBSStart))
	if err != nil {
		return Span{}, &Error{Key: "TSBS_START", Value: c.TSBSStart, Allowed: "an RFC 3339 time such as 2016-01-01T00:00:00Z"}
	}
	end, err := time.Parse(time.RFC3339, strings.TrimSpace(c.TSBSEnd))
	if err != nil {
		return Span{}, &Error{Key: "TSBS_END", Value: c.TSBSEnd, Allowed: "an RFC 3339 time such as 2016-01-02T00:00:00Z"}
	}
	step := c.TSBSLogInterval
	if step < time.Millisecond || step%time.Millisecond != 0 {
		return Span{}, &Error{Key: "TSBS_LOG_INTERVAL", Value: step.String(), Allowed: "a whole number of milliseconds >= 1ms, e.g. 10s"}
	}
	rows := int64(end.Sub(start) / step)
	if rows < 1 {
		return Span{}, &Error{Key: "TSBS_END", Value: c.TSBSEnd, Allowed: "at least one TSBS_LOG_INTERVAL after TSBS_START = " + c.TSBSStart}
	}
	return Span{Start: start, Step: step, Rows: rows}, nil
}

// Apply turns a TSBS run's keys into tsbench's: the devices, sensors,
// times, rows and, for a query phase, the query kind and its parameters.
// It does nothing when TSBS_USE_CASE is empty. The keys it sets carry the
// TSBS key they come from as their origin, so a conflict names it.
func Apply(c *config.Config) error {
	if err := workloadUseCase(c); err != nil {
		return err
	}
	if !Active(c) {
		return nil
	}
	u, err := Lookup(c.TSBSUseCase)
	if err != nil {
		return &Error{Key: "TSBS_USE_CASE", Value: c.TSBSUseCase, Allowed: strings.Join(Names(), ", ")}
	}
	span, err := SpanOf(c)
	if err != nil {
		return err
	}
	if c.TSBSScale < 1 {
		return &Error{Key: "TSBS_SCALE", Value: strconv.Itoa(c.TSBSScale), Allowed: "an integer >= 1 (hosts)"}
	}
	if _, err := OwnValues(c); err != nil {
		return err
	}
	set := func(key, value, why string) error {
		if ownedKeys[key] {
			return config.DeriveOwned(c, key, value, why)
		}
		return config.Derive(c, key, value, why)
	}
	d := deriver{set: set}
	d.do("DEVICE_NUMBER", strconv.Itoa(c.TSBSScale), "TSBS_SCALE")
	d.do("SENSOR_NUMBER", strconv.Itoa(len(u.Fields)), "TSBS_USE_CASE")
	d.do("INSERT_DATATYPE_PROPORTION", "0:0:0:0:1:0", "TSBS_USE_CASE")
	d.do("GROUP_NUMBER", "1", "TSBS_USE_CASE")
	d.do("TAG_NUMBER", "0", "TSBS_USE_CASE") // the use case's own tags (workload.Schema)
	d.do("DEVICE_NAME_PREFIX", u.DevicePrefix, "TSBS_USE_CASE")
	d.do("POINT_STEP", strconv.FormatInt(span.Step.Milliseconds(), 10), "TSBS_LOG_INTERVAL")
	d.do("START_TIME", span.Start.UTC().Format(time.RFC3339Nano), "TSBS_START")
	d.do("FIRST_ROW_AT", "start", "TSBS_START")
	d.do("QUERY_DEVICE_SELECTION", "random", "TSBS_PHASE")
	if d.err != nil {
		return d.err
	}
	if c.TSBSPhase == PhaseLoad || c.TSBSPhase == PhaseMixed {
		d.writePhase(c, u, span)
		return d.err
	}
	return d.queryPhase(c, u, span)
}

// writePhase sets a load or mixed phase's keys: the load's writes, and for
// a mixed phase queries in between.
func (d *deriver) writePhase(c *config.Config, u *UseCase, span Span) {
	clients := max(1, min(c.Clients, c.TSBSScale))
	batch := divisorAtMost(span.Rows, int64(max(1, c.BatchSize)))
	d.do("BATCH_SIZE_PER_WRITE", strconv.FormatInt(batch, 10), "TSBS_END")
	d.do("CLIENT_NUMBER", strconv.Itoa(clients), "TSBS_SCALE")
	d.do("IS_OUT_OF_ORDER", strconv.FormatBool(u.OutOfOrder), "TSBS_USE_CASE")
	writes := span.Rows / batch
	if c.TSBSPhase == PhaseLoad {
		d.do("OPERATION_PROPORTION", "1:0:0:0:0:0:0:0:0:0:0", "TSBS_PHASE")
		d.do("LOOP", strconv.FormatInt(writes, 10), "TSBS_END")
		return
	}
	// Mixed: as many writes as the load's, and as many queries of
	// each of three kinds in between (single-groupby-1-1-1's
	// GROUP_BY, high-cpu-1's VALUE_RANGE, lastpoint's LATEST_POINT,
	// or last-loc's alone for iot).
	q := QueryType{Kind: ts.GroupBy, Agg: ts.Max, Fields: 1, FieldPool: min(cpuPool, len(u.Fields)), Hosts: 1,
		Interval: time.Hour, Bucket: time.Minute, Lower: 90}
	d.query(q, span, c.TSBSScale)
	d.do("OPERATION_PROPORTION", "1:0:0:1:0:0:0:1:1:0:0", "TSBS_PHASE")
	d.do("LOOP", strconv.FormatInt(4*writes, 10), "TSBS_END")
}

// queryPhase sets a query phase's keys: its query type's, and the
// queries' number split between the clients.
func (d *deriver) queryPhase(c *config.Config, u *UseCase, span Span) error {
	q, ok := u.Query(c.TSBSPhase)
	if !ok {
		var names []string
		for _, q := range u.Queries {
			names = append(names, q.Name)
		}
		return &Error{Key: "TSBS_PHASE", Value: c.TSBSPhase,
			Allowed: PhaseLoad + ", " + PhaseMixed + ", " + strings.Join(names, ", ")}
	}
	if q.Kind == 0 {
		// Never run (the scenario reports the reason); a valid query
		// phase keeps the configuration checks quiet.
		q = QueryType{Kind: ts.LatestPoint, Fields: 1, FieldPool: 1}
	}
	if q.Hosts > c.TSBSScale {
		return &Error{Key: "TSBS_SCALE", Value: strconv.Itoa(c.TSBSScale), Allowed: fmt.Sprintf("at least %d", q.Hosts),
			Reason: fmt.Sprintf("%s reads %d hosts (TSBS refuses it too)", q.Name, q.Hosts)}
	}
	queries := max(1, c.TSBSQueries)
	qclients := int64(divisorAtMost(queries, int64(max(1, c.Clients))))
	d.do("CLIENT_NUMBER", strconv.FormatInt(qclients, 10), "TSBS_QUERIES")
	d.do("LOOP", strconv.FormatInt(queries/qclients, 10), "TSBS_QUERIES")
	d.do("OPERATION_PROPORTION", proportion(q.Kind), "TSBS_PHASE")
	d.do("CREATE_SCHEMA", "false", "TSBS_PHASE")
	d.do("IS_DELETE_DATA", "false", "TSBS_PHASE")
	d.query(q, span, c.TSBSScale)
	return d.err
}

// workloadUseCase checks a TSBS workload (WORKLOAD = tsbs-cpu-only)
// against TSBS_USE_CASE, which 'tsbench run' and 'generate' set from it
// (the scenario's settings): two use cases, or a TSBS workload where
// nothing turned it into one, are refused rather than one of them run.
func workloadUseCase(c *config.Config) error {
	uc, ok := WorkloadUseCase(c.Workload)
	switch {
	case !ok:
		return nil
	case c.TSBSUseCase == "":
		return &Error{Key: "WORKLOAD", Value: c.Workload, Reason: "a TSBS workload is a run of several phases: " +
			"'tsbench run --workload " + c.Workload + "' runs it, 'tsbench generate --workload " + c.Workload + "' writes its load"}
	case !strings.EqualFold(c.TSBSUseCase, uc):
		return &Error{Key: "TSBS_USE_CASE", Value: c.TSBSUseCase,
			Reason: fmt.Sprintf("WORKLOAD = %s is TSBS's %s use case: give one of the two, or both the same", c.Workload, uc)}
	}
	return nil
}

// ownedKeys are the keys a TSBS run sets itself from its TSBS keys. A
// different value given for one would be replaced without a word (a --loop
// that still ran every query), so it is refused, naming the TSBS key to set
// instead (config.DeriveOwned). CLIENT_NUMBER and BATCH_SIZE_PER_WRITE are
// not here: a run takes them, lowered only to what divides the work evenly.
var ownedKeys = map[string]bool{
	"DEVICE_NUMBER": true, "SENSOR_NUMBER": true, "INSERT_DATATYPE_PROPORTION": true,
	"GROUP_NUMBER": true, "TAG_NUMBER": true, "DEVICE_NAME_PREFIX": true,
	"IS_OUT_OF_ORDER": true, "POINT_STEP": true, "START_TIME": true,
	"FIRST_ROW_AT": true, "LOOP": true,
	"OPERATION_PROPORTION": true, "QUERY_DEVICE_SELECTION": true, "QUERY_SENSOR_NUM": true,
	"QUERY_DEVICE_NUM": true, "QUERY_INTERVAL": true, "GROUP_BY_TIME_UNIT": true,
	"QUERY_AGGREGATE_FUN": true, "QUERY_LOWER_VALUE": true, "STEP_SIZE": true,
	"GROUP_BY_ACROSS_DEVICES": true, "GROUP_BY_LIMIT": true,
}

// deriver sets keys until the first error.
type deriver struct {
	set func(key, value, why string) error
	err error
}

func (d *deriver) do(key, value, from string) {
	if d.err == nil {
		if err := d.set(key, value, from); err != nil {
			d.err = fmt.Errorf("tsbs: %s from %s: %w", key, from, err)
		}
	}
}

// query sets a query phase's parameters. Its windows start at random, as
// TSBS's (WindowStarts).
func (d *deriver) query(q QueryType, span Span, scale int) {
	hosts := q.Hosts
	if hosts == 0 {
		hosts = scale // all hosts
	}
	fields := q.Fields
	if fields == 0 {
		fields = q.FieldPool
	}
	interval := q.Interval
	if interval == 0 {
		interval = span.Step * time.Duration(span.Rows) // LATEST_POINT: unused, any valid window
	}
	bucket := q.Bucket
	if bucket == 0 {
		bucket = time.Minute
	}
	d.do("QUERY_SENSOR_NUM", strconv.Itoa(fields), "TSBS_PHASE")
	d.do("QUERY_INTERVAL", strconv.FormatInt(interval.Milliseconds(), 10), "TSBS_PHASE")
	d.do("GROUP_BY_TIME_UNIT", strconv.FormatInt(bucket.Milliseconds(), 10), "TSBS_PHASE")
	d.do("QUERY_AGGREGATE_FUN", q.Agg.String(), "TSBS_PHASE")
	d.do("QUERY_LOWER_VALUE", strconv.FormatFloat(q.Lower, 'g', -1, 64), "TSBS_PHASE")
	d.do("STEP_SIZE", "0", "TSBS_PHASE") // windows drawn at random: WindowStarts
	d.do("QUERY_DEVICE_NUM", strconv.Itoa(hosts), "TSBS_PHASE")
	d.do("GROUP_BY_ACROSS_DEVICES", strconv.FormatBool(q.Across), "TSBS_PHASE")
	d.do("GROUP_BY_LIMIT", strconv.Itoa(q.Limit), "TSBS_PHASE")
}

// proportion is OPERATION_PROPORTION with weight only on kind.
func proportion(kind ts.QueryKind) string {
	w := make([]string, 11)
	for i := range w {
		w[i] = "0"
	}
	w[kind] = "1"
	return strings.Join(w, ":")
}

// divisorAtMost is the largest divisor of n that is at most limit, so that
// n rows (queries) split into whole batches (clients' shares).
func divisorAtMost(n, limit int64) int64 {
	for d := min(n, limit); d > 1; d-- {
		if n%d == 0 {
			return d
		}
	}
	return 1
}

// useCaseOf is the use case of a TSBS run, nil when c is not one (or names
// a use case there is not, which Apply refuses).
func useCaseOf(c *config.Config) *UseCase {
	if !Active(c) {
		return nil
	}
	u, err := Lookup(c.TSBSUseCase)
	if err != nil {
		return nil
	}
	return u
}

// FieldPool is how many leading sensors a query phase draws its fields
// from (0 = all): the cpu fields, usage_user alone for high-cpu, latitude
// and longitude for last-loc.
func FieldPool(c *config.Config) int {
	u := useCaseOf(c)
	if u == nil {
		return 0
	}
	if c.TSBSPhase == PhaseMixed {
		return min(cpuPool, len(u.Fields))
	}
	if q, ok := u.Query(c.TSBSPhase); ok && q.Kind != 0 {
		return q.FieldPool
	}
	return 0
}

// OneFleet reports whether c's query phase asks the trucks of one fleet
// per query, drawn at random (last-loc), and the tag that names a truck's
// fleet.
func OneFleet(c *config.Config) (tag string, ok bool) {
	if u := useCaseOf(c); u != nil {
		if q, found := u.Query(c.TSBSPhase); found && q.OneFleet {
			return "fleet", true
		}
	}
	return "", false
}

// WindowStarts is, for a TSBS run's queries, how many milliseconds a
// window's start is drawn among, from TSBS_START on: as TSBS's
// RandWindow, every start from which the window (QUERY_INTERVAL) ends by
// TSBS_END. 0 when c is not a TSBS run or the window does not fit, and the
// windows then start where the workload steps them.
func WindowStarts(c *config.Config) int64 {
	if useCaseOf(c) == nil {
		return 0
	}
	span, err := SpanOf(c)
	if err != nil {
		return 0
	}
	return max(0, span.Rows*span.Step.Milliseconds()-c.QueryInterval)
}

// Bound is the generator's value range of a TSBS run, none otherwise.
func Bound(c *config.Config) gen.Bound {
	if !Active(c) {
		return gen.Bound{}
	}
	return ValueRange
}

// Bounds are the per-field value ranges of a TSBS run whose use case has
// them (iot), nil otherwise.
func Bounds(c *config.Config) []gen.Bound {
	if u := useCaseOf(c); u != nil {
		return u.Bounds
	}
	return nil
}

// Fleet is the iot question a TSBS query phase asks, 0 when it asks none.
func Fleet(c *config.Config) ts.FleetKind {
	if u := useCaseOf(c); u != nil {
		if q, ok := u.Query(c.TSBSPhase); ok {
			return q.Fleet
		}
	}
	return 0
}

// Fleets are the values of the trucks' fleet tag.
func Fleets() []string { return fleets }

// Missing is the share of values a TSBS run leaves out (iot's), 0 else.
func Missing(c *config.Config) float64 {
	u := useCaseOf(c)
	if u == nil {
		return 0
	}
	return u.Missing
}

// SensorNames are the use case's field names, nil when c is not a TSBS run.
func SensorNames(c *config.Config) []string {
	u := useCaseOf(c)
	if u == nil {
		return nil
	}
	return u.Fields
}

// DeviceTags are device index's tags in a TSBS run; ok is false otherwise.
func DeviceTags(c *config.Config, index int) (tags []ts.Tag, ok bool) {
	u := useCaseOf(c)
	if u == nil {
		return nil, false
	}
	if tags, ok := ownTags(c, index); ok {
		return tags, true
	}
	return u.Tags(c.DataSeed, index), true
}
