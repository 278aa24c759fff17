package workload

import (
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/tsbs"
)

// Queries builds the parameters of one client's queries as seed 002 (table
// 1-6) and IoT-benchmark define them: QUERY_DEVICE_NUM devices and
// QUERY_SENSOR_NUM sensors drawn without repeats; a window starting at
// START_TIME + n*STEP_SIZE*POINT_STEP, where n counts this client's earlier
// queries of the same kind (Q9 counting with Q2, Q10 with Q3: windowKind), and QUERY_INTERVAL long, its end included as in
// IoT-benchmark (closedEnd). Draws are hashes of
// (QUERY_SEED, client, query number), so a client's queries are the same in
// every run. Value filters and sum/avg/min/max use numeric sensors only.
type Queries struct {
	cfg     *config.Config
	schema  *ts.Schema
	client  uint64
	seed    uint64
	made    [NumOps]int64
	drawn   int64
	all     []int
	numeric []int
	base    int64       // where the first window of each kind starts
	owned   []ts.Device // QUERY_DEVICE_SELECTION=owned: the client's devices
	java    *javaDraws  // QUERY_DEVICE_SELECTION=iot-benchmark
	devs    []*ts.Device
	sens    []int
	draw    picker // scratch of the draws, reused: a query allocates nothing
	fleet   *fleetDraws
	// starts, when > 0, draws each window's start among that many
	// milliseconds from base (TSBS's random windows: tsbs.WindowStarts).
	starts int64
	// fleets, for a query asking one fleet's trucks (tsbs.OneFleet), are
	// the devices of each fleet that has any, in the order of first sight.
	fleets [][]*ts.Device
}

// NewQueries prepares the query builder of one client.
func NewQueries(c *config.Config, s *ts.Schema, client int) *Queries {
	q := &Queries{cfg: c, schema: s, client: uint64(client), seed: uint64(c.QuerySeed), base: windowBase(c, s),
		starts: tsbs.WindowStarts(c)}
	switch c.QuerySelection {
	case SelectOwned:
		q.owned = ClientDevices(c, s, client)
	case SelectIoTBenchmark:
		q.java = newJavaDraws(c.QuerySeed, client)
	}
	q.fleet = newFleetDraws(c, s)
	if tag, ok := tsbs.OneFleet(c); ok {
		q.fleets = devicesByTag(s, tag)
	}
	sensors := s.Sensors
	if n := tsbs.FieldPool(c); n > 0 && n < len(sensors) {
		sensors = sensors[:n] // a TSBS query type's fields: cpu's, or usage_user alone
	}
	for i, sn := range sensors {
		q.all = append(q.all, i)
		if sn.Type.Numeric() {
			q.numeric = append(q.numeric, i)
		}
	}
	return q
}

// Next fills dst with the next query of the kind. dst's slices are reused:
// the query is valid until the next call.
func (q *Queries) Next(kind ts.QueryKind, dst *ts.Query) {
	c := q.cfg
	n := q.made[windowKind(kind)]
	q.made[windowKind(kind)]++
	q.drawn++
	key := mixKey(q.seed, q.client, uint64(q.drawn))

	pool := q.all
	if kind.HasValueFilter() || (kind.Aggregates() && c.QueryAggregate.NeedsNumeric()) {
		pool = q.numeric
	}
	switch {
	case q.owned != nil:
		q.inTurn(pool, q.drawn-1)
	case q.java != nil:
		q.devs, q.sens = q.java.draw(q.schema, c.QueryDevices, c.QuerySensors, len(pool) < len(q.all), q.devs[:0], q.sens[:0])
	default:
		q.devs = q.devs[:0]
		for _, i := range q.draw.pick(len(q.schema.Devices), c.QueryDevices, key) {
			q.devs = append(q.devs, &q.schema.Devices[i])
		}
		q.sens = q.sens[:0]
		for _, i := range q.draw.pick(len(pool), c.QuerySensors, key^0x5e45) {
			q.sens = append(q.sens, pool[i])
		}
	}
	if len(q.fleets) > 0 {
		q.devs = append(q.devs[:0], q.fleets[mixKey(key, 0x666c656574, 0)%uint64(len(q.fleets))]...)
	}
	start, end := q.window(kind, n, key)
	*dst = ts.Query{
		ClockBuckets: q.starts > 0, // TSBS's buckets are on the clock
		Kind:         kind,
		Devices:      q.devs,
		Sensors:      q.sens,
		Start:        start,
		End:          end,
		Lower:        c.QueryLower,
		Agg:          c.QueryAggregate,
		Bucket:       c.GroupByUnit,
	}
	if q.fleet != nil {
		q.fleet.fill(dst, key)
		return
	}
	if kind == ts.GroupBy {
		dst.Across, dst.Limit = c.GroupByAcross, c.GroupByLimit
		if dst.Limit > 0 {
			// The newest buckets before the window's end, wherever they
			// are: SQL's ORDER BY bucket DESC LIMIT n has no lower bound,
			// and no row is older than the data's start.
			dst.Start = q.base
		}
	}
}

// window is the n-th window of a kind: in a TSBS run TSBS's, its start
// drawn at random and [s, e) whatever the kind; otherwise IoT-benchmark's,
// stepped by STEP_SIZE, closed but for GROUP_BY (windowEnd).
func (q *Queries) window(kind ts.QueryKind, n int64, key uint64) (start, end int64) {
	c := q.cfg
	if q.starts > 0 {
		start = q.base + int64(mixKey(key, 0x77696e646f77, 0)%uint64(q.starts))
		return start, start + c.QueryInterval
	}
	start = q.base + n*c.StepSize*q.schema.PointStep
	return start, windowEnd(kind, start+c.QueryInterval)
}

// devicesByTag groups s's devices by their value of tag, groups in the
// order their first device comes; devices without the tag are left out.
func devicesByTag(s *ts.Schema, tag string) [][]*ts.Device {
	index := map[string]int{}
	var out [][]*ts.Device
	for i := range s.Devices {
		d := &s.Devices[i]
		for _, t := range d.Tags {
			if t.Key != tag {
				continue
			}
			k, seen := index[t.Value]
			if !seen {
				k = len(out)
				index[t.Value] = k
				out = append(out, nil)
			}
			out[k] = append(out[k], d)
		}
	}
	return out
}

// windowBase is where the query windows start: at START_TIME, one
// POINT_STEP before row 0 when FIRST_ROW_AT = step; at a replayed file's
// first time, which the schema holds.
func windowBase(c *config.Config, s *ts.Schema) int64 {
	if c.Data == "" && c.FirstRowAt == FirstRowAtStep {
		return s.StartTime - s.PointStep
	}
	return s.StartTime
}

// The device selections of QUERY_DEVICE_SELECTION.
const (
	SelectRandom       = "random"        // tsbench's hash draws
	SelectOwned        = "owned"         // each client's own devices in turn
	SelectIoTBenchmark = "iot-benchmark" // IoT-benchmark's java.util.Random draws
)

// windowKind is the kind whose window sequence a kind follows: Q9 and Q10
// are Q2 and Q3 in descending order, and in IoT-benchmark they draw their
// windows from Q2's and Q3's sequence (it builds them with the same
// getRangeQuery and getValueRangeQuery), so the four share two sequences.
func windowKind(kind ts.QueryKind) ts.QueryKind {
	switch kind {
	case ts.RangeQueryDesc:
		return ts.TimeRange
	case ts.ValueRangeQueryDesc:
		return ts.ValueRange
	}
	return kind
}

// windowEnd is the half-open end of a query's window: closed (closedEnd)
// for every kind but GROUP_BY, whose buckets IoT-benchmark asks over
// [start, start + QUERY_INTERVAL) (IoTDB's GROUP BY ([start, end), unit)).
func windowEnd(kind ts.QueryKind, end int64) int64 {
	if kind == ts.GroupBy {
		return end
	}
	return closedEnd(end)
}

// closedEnd turns IoT-benchmark's closed window end into ts.Query's
// half-open one. IoT-benchmark selects time >= start AND time <= start +
// QUERY_INTERVAL (its query generator and every database module), so at a
// 250 s window and 5 s steps it returns 51 points per series, where a
// half-open window returns 50; with the end one millisecond (the finest
// time unit of the schema) further, the two tools' Result Matrices compare
// line by line.
func closedEnd(end int64) int64 { return end + 1 }

// inTurn makes query i read the next block of the client's own series:
// QUERY_DEVICE_NUM devices by QUERY_SENSOR_NUM sensors, devices first, so
// that a client reading len(owned)*sensors/(blocks) queries reads every
// series it owns exactly once.
func (q *Queries) inTurn(pool []int, i int64) {
	c := q.cfg
	devBlocks := (len(q.owned) + c.QueryDevices - 1) / c.QueryDevices
	senBlocks := (len(pool) + c.QuerySensors - 1) / c.QuerySensors
	p := i % int64(devBlocks*senBlocks)
	d0, s0 := int(p%int64(devBlocks))*c.QueryDevices, int(p/int64(devBlocks))*c.QuerySensors
	q.devs = q.devs[:0]
	for d := d0; d < min(d0+c.QueryDevices, len(q.owned)); d++ {
		q.devs = append(q.devs, &q.owned[d])
	}
	q.sens = append(q.sens[:0], pool[s0:min(s0+c.QuerySensors, len(pool))]...)
}

// picker draws distinct indexes; its buffers are reused from draw to draw.
type picker struct {
	chosen  []int
	swapped map[int]int // the slots a draw touched, and the index each holds
}

// pick draws k distinct indexes from [0, n) in draw order, with a partial
// Fisher-Yates shuffle driven by hashes of key. Only the slots it touches
// are kept, so a draw from millions of devices costs k steps, and with the
// buffers reused (cleared, not remade) a draw allocates nothing. The
// result is valid until the next pick.
func (p *picker) pick(n, k int, key uint64) []int {
	k = min(k, n)
	if p.swapped == nil {
		p.swapped = map[int]int{}
	}
	clear(p.swapped)
	p.chosen = p.chosen[:0]
	at := func(i int) int {
		if v, ok := p.swapped[i]; ok {
			return v
		}
		return i
	}
	for i := 0; i < k; i++ {
		j := i + int(mixKey(key, uint64(i), 0x9d)%uint64(n-i))
		vi, vj := at(i), at(j)
		p.swapped[i], p.swapped[j] = vj, vi
		p.chosen = append(p.chosen, vj)
	}
	return p.chosen
}

// mixKey hashes three values (splitmix64 finaliser over a combination).
func mixKey(a, b, c uint64) uint64 {
	x := a*0x9e3779b97f4a7c15 ^ b*0xc2b2ae3d27d4eb4f ^ c*0x165667b19e3779f9
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
