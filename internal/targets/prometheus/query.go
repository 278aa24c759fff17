package prometheus

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/targets/promql"
	"github.com/tsbench/tsbench/internal/ts"
)

// selector matches the series of devices x sensors of the current
// generation (promql.Selector).
func (t *Target) selector(s *ts.Schema, devs []*ts.Device, sensors []int) string {
	return promql.Selector(t.db, t.gen, s, devs, sensors)
}

// post sends a query to path (below the query API's base) as a form, the
// way the query API takes expressions of any length (a URL's length is
// limited; Count's and a many-device selector's are long), and reads the
// answer into into (see do).
func (t *Target) post(ctx context.Context, path, form string, into *bytes.Buffer) ([]byte, error) {
	return t.do(ctx, http.MethodPost, t.query+path, strings.NewReader(form+t.f.QueryParams), into, formHeader)
}

// formHeader is a form's content type.
var formHeader = http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}

// instant evaluates expr at time at (ms) and returns its vector, with the
// labels named of each series.
func (t *Target) instant(ctx context.Context, expr string, at int64, labels ...string) ([]promql.Vector, error) {
	data, err := t.post(ctx, "/api/v1/query", "query="+url.QueryEscape(expr)+"&time="+promql.Seconds(at), nil)
	if err != nil {
		return nil, err
	}
	vec, err := promql.DecodeVector(data, expr, labels...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.f.Name, err)
	}
	return vec, nil
}

// span is the range selector of [start, end) evaluated at end - 1 ms,
// whose window (end - 1 - (end - start), end - 1] is that range in whole
// milliseconds. A window beyond promql.MaxExactWindow is exact only where
// nothing lies before start (start at START_TIME or earlier: the series
// hold no sample there), by reaching a second further back, past any
// rounding; ok is false for any other: the caller splits the range.
func span(s *ts.Schema, start, end int64) (window string, ok bool) {
	w := end - start
	switch {
	case w <= promql.MaxExactWindow:
		return promql.Window(w), true
	case start <= s.StartTime:
		return promql.Window(w + 1000), true
	}
	return "", false
}

// pieces calls each with [start, end) cut into ranges span can select,
// in time order.
func pieces(s *ts.Schema, start, end int64, each func(start, end int64, window string) error) error {
	for start < end {
		to := end
		window, ok := span(s, start, end)
		if !ok {
			to = start + promql.MaxExactWindow
			window, _ = span(s, start, to)
		}
		if err := each(start, to, window); err != nil {
			return err
		}
		start = to
	}
	return nil
}

// points returns the raw samples of each series sel matches with
// timestamps in [start, end): instant queries of a range selector at the
// end of each piece of the range (see span). With place, each series goes
// to the position place gives its labels (nil: in the order of the
// answer).
func (t *Target) points(ctx context.Context, s *ts.Schema, sel string, start, end int64, place *seriesOrder) ([]clientside.Series, error) {
	var out []clientside.Series
	if place != nil {
		out = make([]clientside.Series, place.n)
	}
	d := promql.GetDecoder()
	defer promql.PutDecoder(d)
	bySeries := map[seriesKey]int{} // without place: each series' position in out, across pieces
	err := pieces(s, start, end, func(from, to int64, window string) error {
		expr := sel + window
		data, err := t.post(ctx, "/api/v1/query", "query="+url.QueryEscape(expr)+"&time="+promql.Seconds(to-1), &d.Body)
		if err != nil {
			return err
		}
		series, err := d.Decode(data, expr, nil, "__name__", "device")
		if err != nil {
			return fmt.Errorf("%s: %w", t.f.Name, err)
		}
		for _, sr := range series {
			var ss clientside.Series
			for i, tm := range sr.Times {
				if tm >= from && tm < to {
					ss = append(ss, clientside.Point{T: tm, V: sr.Values[i], Numeric: true})
				}
			}
			key := seriesKey{device: sr.Labels[1], name: sr.Labels[0]}
			if place == nil {
				i, ok := bySeries[key]
				if !ok {
					i = len(out)
					bySeries[key] = i
					out = append(out, nil)
				}
				out[i] = append(out[i], ss...)
				continue
			}
			i, ok := place.pos[key]
			if !ok {
				return fmt.Errorf("%s: %s: series %v is none of the query's", t.f.Name, expr, sr.Labels)
			}
			out[i] = append(out[i], ss...)
		}
		return nil
	})
	return out, err
}

// seriesKey names a series by its labels: the device and the metric (the
// sensor).
type seriesKey struct{ device, name string }

// seriesOrder maps each series of a query to its position device by
// device, each device's in the order of q.Sensors: the order
// clientside.AcrossDevices reads a sensor from a series' position by.
type seriesOrder struct {
	pos map[seriesKey]int
	n   int
}

func newSeriesOrder(s *ts.Schema, q *ts.Query) *seriesOrder {
	o := &seriesOrder{pos: map[seriesKey]int{}, n: len(q.Devices) * len(q.Sensors)}
	for i, d := range q.Devices {
		for j, sn := range q.Sensors {
			o.pos[seriesKey{device: d.Name, name: s.Sensors[sn].Name}] = i*len(q.Sensors) + j
		}
	}
	return o
}

// Query runs one of Q1..Q10 (see the package doc for where each is
// computed). Queries without an end of their own are bounded by
// promql.Horizon, never by the wall clock.
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	t.mu.Lock()
	s, err := t.binding.Schema()
	sel := ""
	var perSensor []string // a rollup drops the metric name: one selector per sensor
	if err == nil {
		sel = t.selector(s, q.Devices, q.Sensors)
		for _, sn := range q.Sensors {
			perSensor = append(perSensor, t.selector(s, q.Devices, []int{sn}))
		}
	}
	t.mu.Unlock()
	if err != nil {
		return ts.Result{}, err
	}
	var res ts.Result
	switch q.Kind {
	case ts.AggRange, ts.LatestPoint:
		var expr func(k int) string
		at := promql.Horizon
		if q.Kind == ts.AggRange {
			fn, err := promql.Rollups.Of(t.f.Name, q.Agg)
			if err != nil {
				return res, err
			}
			start, ok := promql.Clamp(s, q.Start, q.End)
			if !ok {
				return res, nil
			}
			window, exact := span(s, start, q.End)
			if !exact {
				t.fallbacks.Add(fallbackLongRange)
				break // from raw points, below
			}
			at = q.End - 1
			expr = func(k int) string { return fn + "(" + perSensor[k] + window + ")" }
		} else {
			window, _ := span(s, s.StartTime, at+1) // from START_TIME: always exact
			expr = func(k int) string { return "last_over_time(" + perSensor[k] + window + ")" }
		}
		vec, err := t.instant(ctx, promql.EachSensor(len(perSensor), expr), at)
		if err != nil {
			return res, err
		}
		for _, v := range vec {
			res.Add(0, v.Value)
		}
		res.First, res.Last = 0, 0
		return res, nil
	case ts.GroupBy: // on the server when it can
		res, way, err := t.groupBy(ctx, s, q, perSensor)
		if way == onServer || err != nil {
			return res, err
		}
		t.fallbacks.Add(way)
	}
	start, end, ok := promql.RawRange(s, q)
	if !ok {
		return clientside.Answer(q, nil), nil
	}
	var place *seriesOrder
	if q.Across {
		place = newSeriesOrder(s, q)
	}
	series, err := t.points(ctx, s, sel, start, end, place)
	if err != nil {
		return res, err
	}
	return clientside.Answer(q, series), nil
}

// The reasons a Q7 is answered from raw points instead of the server's
// rollups, as the run's notes count them (targets.Fallbacks).
const (
	fallbackBucket   = "GROUP_BY with a bucket <= 0, computed from raw points"
	fallbackBuckets  = "GROUP_BY with more buckets than query_range serves, computed from raw points"
	fallbackUnusable = "GROUP_BY whose query_range answer was unusable, computed from raw points"
	// A rollup's window longer than promql.MaxExactWindow from inside
	// the data could lose its first millisecond.
	fallbackLongBucket = "GROUP_BY with buckets over 20 days (PromQL reads longer windows inexactly), computed from raw points"
	fallbackLongRange  = "AGG_RANGE over more than 20 days from inside the data (PromQL reads longer windows inexactly), computed from raw points"
)

// onServer is groupBy's way when the server's rollups answered.
const onServer = ""

// groupBy answers a Q7 from query_range's rollups (promql.PlanBuckets,
// GroupByExpr, Buckets). way is onServer, or why the query is to be
// answered from raw points instead: a plan the server cannot serve
// exactly, or an unusable answer.
func (t *Target) groupBy(ctx context.Context, s *ts.Schema, q *ts.Query, perSensor []string) (res ts.Result, way string, err error) {
	if q.Bucket <= 0 {
		return res, fallbackBucket, nil
	}
	if q.Bucket > promql.MaxExactWindow {
		return res, fallbackLongBucket, nil
	}
	grids, ok := promql.PlanBuckets(q, s.StartTime)
	if !ok {
		return res, fallbackBuckets, nil
	}
	expr := func(window int64) (string, error) {
		return promql.GroupByExpr(q, func(k int) string { return perSensor[k] }, window)
	}
	res, usable, err := promql.Gather(ctx, q, s.StartTime, grids, expr, t.queryRange, sensorIndex)
	if err != nil {
		return ts.Result{}, onServer, err
	}
	if !usable {
		return ts.Result{}, fallbackUnusable, nil
	}
	return res, onServer, nil
}

// sensorIndex reads the sensor position a rollup's marking label holds.
func sensorIndex(label string) (int, bool) {
	pos, err := strconv.Atoi(label)
	return pos, err == nil
}

// queryRange evaluates expr on grid g. A transport error is returned as
// it is; an error status or an answer that does not decode, or has a
// value at a time off the grid, as a promql.UnusableError. The series are
// d's, valid until d's next use, each with its labels tsbench_sensor and
// tsbench_part.
func (t *Target) queryRange(ctx context.Context, d *promql.Decoder, expr string, g promql.Grid) ([]promql.Series, error) {
	form := "query=" + url.QueryEscape(expr) + "&start=" + promql.Seconds(g.From) + "&end=" + promql.Seconds(g.To) +
		"&step=" + promql.Seconds(g.Step)
	data, err := t.post(ctx, "/api/v1/query_range", form, &d.Body)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) || ctx.Err() != nil {
			return nil, err
		}
		return nil, &promql.UnusableError{Err: err}
	}
	series, err := d.Decode(data, expr, &g, promql.SensorLabel, promql.PartLabel)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.f.Name, err)
	}
	return series, nil
}

// Count counts the stored samples with rollups over the range
// (everything from the schema's start time to the horizon when the range
// is empty): sum(count_over_time(...)) of each sensor's series, the
// sensors in requests of at most countChunk expression bytes (a rollup
// drops the metric name, so one rollup over all sensors would hold two
// series of one labelset; see promql.EachSensor). The stores make a sample
// visible once they acknowledged it: nothing needs to settle first.
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	t.mu.Lock()
	s, err := t.binding.Schema()
	var sels []string
	if err == nil {
		for sn := range s.Sensors {
			sels = append(sels, t.selector(s, r.Devices, []int{sn}))
		}
	}
	t.mu.Unlock()
	if err != nil {
		return 0, err
	}
	start, end := r.Start, r.End
	if end <= start {
		start, end = s.StartTime, promql.Horizon+1
	}
	start, ok := promql.Clamp(s, start, end)
	if !ok {
		return 0, nil
	}
	var n int64
	err = pieces(s, start, end, func(_, to int64, window string) error {
		one := func(sel string) string { return "sum(count_over_time(" + sel + window + "))" }
		for rest := sels; len(rest) > 0; {
			k, size := 0, 0
			for k < len(rest) && (k == 0 || size+len(rest[k]) < countChunk) {
				size += len(rest[k]) + 80
				k++
			}
			chunk := rest[:k]
			rest = rest[k:]
			vec, err := t.instant(ctx, promql.EachSensor(len(chunk), func(i int) string { return one(chunk[i]) }), to-1)
			if err != nil {
				return err
			}
			for _, v := range vec {
				n += int64(v.Value)
			}
		}
		return nil
	})
	return n, err
}

// countChunk bounds the expression of one of Count's requests, in bytes.
const countChunk = 64 << 10

var _ targets.StatementRunner = (*Target)(nil)

// RunStatement runs one of the user's own PromQL queries as an instant
// query (/api/v1/query) at st.At, or now when it is zero; its answer's
// rows are promql.DecodeInstant's (sort() in the query makes the order of
// a vector's a known one).
func (t *Target) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	if len(st.Args) > 0 {
		return targets.Rows{}, fmt.Errorf("%s: a PromQL query binds no parameters (%d given)", t.f.Name, len(st.Args))
	}
	at := st.At
	if at.IsZero() {
		at = time.Now()
	}
	data, err := t.get(ctx, t.query+"/api/v1/query", url.Values{"query": {st.Text}, "time": {promql.Seconds(at.UnixMilli())}})
	if err != nil {
		return targets.Rows{}, err
	}
	rows, err := promql.DecodeInstant(data)
	if err != nil {
		return rows, fmt.Errorf("%s: %w", t.f.Name, err)
	}
	return rows, nil
}

// buildVersion reads the version out of /api/v1/status/buildinfo's answer.
func buildVersion(data []byte) (string, error) {
	var r struct {
		Status string `json:"status"`
		Data   struct {
			Version string `json:"version"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return "", err
	}
	if r.Status != "success" {
		return "", fmt.Errorf("status %q", r.Status)
	}
	return r.Data.Version, nil
}

// storesStart reads Thanos Query's /api/v1/stores answer: the latest of
// the times its stores say their data starts (ms), math.MaxInt64 when it
// lists none.
func storesStart(data []byte) (int64, error) {
	var r struct {
		Status string `json:"status"`
		Data   map[string][]struct {
			MinTime int64 `json:"minTime"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return 0, err
	}
	if r.Status != "success" {
		return 0, fmt.Errorf("status %q", r.Status)
	}
	from, any := int64(math.MinInt64), false
	for _, stores := range r.Data {
		for _, st := range stores {
			from, any = max(from, st.MinTime), true
		}
	}
	if !any {
		return math.MaxInt64, nil
	}
	return from, nil
}

// sumMetrics is the sum of the samples of the named metrics in a
// Prometheus text exposition.
func sumMetrics(data []byte, names []string) int64 {
	var n float64
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		name := line
		if i := strings.IndexAny(line, "{ "); i >= 0 {
			name = line[:i]
		}
		for _, want := range names {
			if name == want {
				rest := line[len(name):]
				if i := strings.LastIndexByte(rest, '}'); i >= 0 {
					rest = rest[i+1:]
				}
				f := strings.Fields(rest)
				if len(f) > 0 {
					if v, err := strconv.ParseFloat(f[0], 64); err == nil {
						n += v
					}
				}
				break
			}
		}
	}
	return int64(n)
}
