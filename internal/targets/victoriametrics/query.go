package victoriametrics

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"

	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/targets/promql"
	"github.com/tsbench/tsbench/internal/ts"
)

// selector matches the series of devices x sensors of the current
// generation (promql.Selector).
func (t *Target) selector(s *ts.Schema, devs []*ts.Device, sensors []int) string {
	return promql.Selector(t.db, t.gen, s, devs, sensors)
}

// export returns the raw samples of each matching series with timestamps in
// [start, end), start at START_TIME or later. The lines come in no
// particular order; with place, each series goes to the position place
// gives its labels (nil: in the order of the lines).
func (t *Target) export(ctx context.Context, sel string, start, end int64, place *seriesOrder) ([]clientside.Series, error) {
	q := url.Values{"match[]": {sel}, "start": {promql.Seconds(start)}, "end": {promql.Seconds(end - 1)}}
	data, _, err := t.get(ctx, "/api/v1/export", q)
	if err != nil {
		return nil, err
	}
	var out []clientside.Series
	if place != nil {
		out = make([]clientside.Series, place.n)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		var line struct {
			Metric     map[string]string `json:"metric"`
			Values     []float64         `json:"values"`
			Timestamps []int64           `json:"timestamps"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, fmt.Errorf("victoriametrics: decode export: %w", err)
		}
		var ss clientside.Series
		for i, tm := range line.Timestamps {
			if tm >= start && tm < end {
				ss = append(ss, clientside.Point{T: tm, V: line.Values[i], Numeric: true})
			}
		}
		if place == nil {
			out = append(out, ss)
			continue
		}
		i, ok := place.pos[seriesKey{device: line.Metric["device"], name: line.Metric["__name__"]}]
		if !ok {
			return nil, fmt.Errorf("victoriametrics: export of %s: series %v is none of the query's", sel, line.Metric)
		}
		out[i] = append(out[i], ss...)
	}
	return out, sc.Err()
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

// instant evaluates a MetricsQL expression at time at (ms) and returns one
// value per resulting series. Queries without an end of their own are
// bounded by promql.Horizon: both 1.79 and 1.148 answer instant queries
// at that time with a window reaching back to any benchmark's START_TIME;
// at the year 3000 they answer nothing.
func (t *Target) instant(ctx context.Context, expr string, at int64) ([]float64, error) {
	data, _, err := t.get(ctx, "/api/v1/query", url.Values{"query": {expr}, "time": {promql.Seconds(at)}})
	if err != nil {
		return nil, err
	}
	vec, err := promql.DecodeVector(data, expr)
	if err != nil {
		return nil, fmt.Errorf("victoriametrics: %w", err)
	}
	out := make([]float64, len(vec))
	for i, v := range vec {
		out[i] = v.Value
	}
	return out, nil
}

// Query runs one of Q1..Q10 (see the package doc for where each is computed).
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	t.mu.Lock()
	s, err := t.binding.Schema()
	sel := ""
	var perSensor []string // rollups drop metric names: one selector per sensor (Q4, Q8 only)
	if err == nil {
		sel = t.selector(s, q.Devices, q.Sensors)
		if q.Kind == ts.AggRange || q.Kind == ts.LatestPoint {
			for _, sn := range q.Sensors {
				perSensor = append(perSensor, t.selector(s, q.Devices, []int{sn}))
			}
		}
	}
	t.mu.Unlock()
	if err != nil {
		return ts.Result{}, err
	}
	var res ts.Result
	switch q.Kind {
	case ts.AggRange, ts.LatestPoint:
		expr, at := "", int64(0)
		if q.Kind == ts.AggRange {
			fn, err := rollup(q.Agg)
			if err != nil {
				return res, err
			}
			start, ok := promql.Clamp(s, q.Start, q.End)
			if !ok {
				return res, nil
			}
			expr, at = fn+"(%s["+strconv.FormatInt(q.End-start, 10)+"ms])", q.End-1
		} else {
			at = promql.Horizon
			expr = "last_over_time(%s[" + strconv.FormatInt(at-s.StartTime+1, 10) + "ms])"
		}
		for _, one := range perSensor {
			vals, err := t.instant(ctx, fmt.Sprintf(expr, one), at)
			if err != nil {
				return res, err
			}
			for _, v := range vals {
				res.Add(0, v)
			}
		}
		res.First, res.Last = 0, 0
		return res, nil
	}
	if q.Kind == ts.GroupBy { // on the server when it can (rollup.go)
		res, way, err := t.groupBy(ctx, s, q, sel)
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
	series, err := t.export(ctx, sel, start, end, place)
	if err != nil {
		return res, err
	}
	return clientside.Answer(q, series), nil
}

// rollup is MetricsQL's rollup function of an aggregate (PromQL's).
func rollup(a ts.Aggregate) (string, error) { return promql.Rollups.Of("victoriametrics", a) }

// Count settles (see settle: the answers that follow it, such as the
// runner's query checks, see every point written), then counts the stored
// samples with a rollup over the range (everything from the schema's start
// time to the promql.Horizon when the range is empty).
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	if err := t.settle(ctx); err != nil {
		return 0, err
	}
	t.mu.Lock()
	s, err := t.binding.Schema()
	sel := ""
	if err == nil {
		sel = t.selector(s, r.Devices, nil)
	}
	t.mu.Unlock()
	if err != nil {
		return 0, err
	}
	at, window := r.End-1, int64(0)
	if r.End <= r.Start {
		at = promql.Horizon
		window = at - s.StartTime + 1
	} else {
		start, ok := promql.Clamp(s, r.Start, r.End)
		if !ok {
			return 0, nil
		}
		window = r.End - start
	}
	vals, err := t.instant(ctx, fmt.Sprintf("sum(count_over_time(%s[%dms]))", sel, window), at)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, v := range vals {
		n += int64(v)
	}
	return n, nil
}
