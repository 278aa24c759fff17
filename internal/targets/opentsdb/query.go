package opentsdb

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/ts"
)

// maxTime ends the ranges of "every point" (Q5, Q8, Count without a range):
// beyond any benchmark timestamp (year 2096) and still accepted as an end.
const maxTime = int64(4_000_000_000_000)

// queryRequest is the body of /api/query.
type queryRequest struct {
	Start        int64      `json:"start"`
	End          int64      `json:"end"` // inclusive
	MsResolution bool       `json:"msResolution"`
	Delete       bool       `json:"delete,omitempty"`
	Queries      []subQuery `json:"queries"`
}

type subQuery struct {
	Aggregator string            `json:"aggregator"`
	Metric     string            `json:"metric"`
	Downsample string            `json:"downsample,omitempty"`
	Tags       map[string]string `json:"tags,omitempty"`
}

// series is one series of an answer: its tags and its points by
// millisecond timestamp.
type series struct {
	Metric string             `json:"metric"`
	Tags   map[string]string  `json:"tags"`
	DPS    map[string]float64 `json:"dps"`
}

// post runs a query request; an unknown metric (nothing written yet) is an
// empty answer.
func (t *Target) post(ctx context.Context, req *queryRequest) ([]series, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode query: %w", err)
	}
	data, err := t.do(ctx, http.MethodPost, "/api/query", body)
	if err != nil {
		if strings.Contains(string(data), "No such name for") {
			return nil, nil
		}
		return nil, err
	}
	var out []series
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("decode query answer: %w", err)
	}
	return out, nil
}

// points turns an answer's series into clientside series.
func points(all []series) ([]clientside.Series, error) {
	out := make([]clientside.Series, 0, len(all))
	for _, s := range all {
		cs := make(clientside.Series, 0, len(s.DPS))
		for k, v := range s.DPS {
			tm, err := strconv.ParseInt(k, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("timestamp %q: %w", k, err)
			}
			cs = append(cs, clientside.Point{T: tm, V: v, Numeric: true})
		}
		out = append(out, cs)
	}
	return out, nil
}

// window is the inclusive [start, end] OpenTSDB is asked for; ok is false
// when the half-open range is empty.
func window(q *ts.Query) (start, end int64, ok bool) {
	switch q.Kind {
	case ts.PrecisePoint:
		// OpenTSDB wants end > start: ask for one more millisecond and
		// keep the points at the exact time.
		start, end = q.Start, q.Start+1
	case ts.AggValue, ts.LatestPoint:
		start, end = 1, maxTime
	default:
		start, end = q.Start, q.End-1
	}
	return start, end, end >= start && end > 0
}

// buildQuery translates q into one request with a sub-query per (device,
// sensor): one series each, never interpolated with another.
func buildQuery(q *ts.Query, metrics []string, n serverNames) (queryRequest, bool, error) {
	start, end, ok := window(q)
	req := queryRequest{Start: max(start, 1), End: end, MsResolution: true}
	if !ok {
		return req, false, nil
	}
	down := ""
	if q.Kind == ts.AggRange {
		name, err := downsampler(q.Agg)
		if err != nil {
			return req, false, err
		}
		down = "0all-" + name
		req.End = allEnd(q.End)
	}
	for _, d := range q.Devices {
		for _, sn := range q.Sensors {
			if sn < 0 || sn >= len(metrics) {
				return req, false, fmt.Errorf("opentsdb: sensor %d is not in the schema", sn)
			}
			req.Queries = append(req.Queries, subQuery{Aggregator: "none", Metric: metrics[sn], Downsample: down,
				Tags: map[string]string{"device": n.device(d.Name)}})
		}
	}
	return req, len(req.Queries) > 0, nil
}

func downsampler(a ts.Aggregate) (string, error) {
	switch a {
	case ts.Count, ts.Sum, ts.Avg, ts.Min, ts.Max:
		return a.String(), nil // OpenTSDB's downsamplers have the same names
	}
	return "", fmt.Errorf("opentsdb: aggregate %s: unknown", a)
}

// bound is the metric names of the bound schema and its names as stored,
// read under the lock (an error when Setup or Bind has not run): a query
// does not hold it while OpenTSDB answers.
func (t *Target) bound() ([]string, serverNames, error) {
	t.Mu.Lock()
	defer t.Mu.Unlock()
	_, err := t.Binding.Schema()
	return t.Series.Metrics, t.names, err
}

// Query runs one of Q1..Q10 as one request (see the package doc).
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	metrics, names, err := t.bound()
	if err != nil {
		return ts.Result{}, fmt.Errorf("opentsdb: query: %w", err)
	}
	req, any, err := buildQuery(q, metrics, names)
	if err != nil || !any {
		return ts.Result{}, err
	}
	ans, err := t.post(ctx, &req)
	if err != nil {
		return ts.Result{}, fmt.Errorf("opentsdb: query: %w", err)
	}
	var all []clientside.Series
	if q.Across {
		all, err = inQueryOrder(q, metrics, names, ans)
	} else {
		all, err = points(ans)
	}
	if err != nil {
		return ts.Result{}, fmt.Errorf("opentsdb: query: %w", err)
	}
	if q.Kind == ts.AggRange {
		// The server's one value per series over the whole range.
		var r ts.Result
		for _, s := range all {
			for _, p := range s {
				r.Add(p.T, p.V)
			}
		}
		r.First, r.Last = 0, 0
		return r, nil
	}
	if q.Kind == ts.PrecisePoint {
		all = exactly(all, q.Start)
	}
	return clientside.Answer(q, all), nil
}

// inQueryOrder turns an answer's series into clientside series device by
// device, each device's in the order of q.Sensors, as
// clientside.AcrossDevices reads a series' sensor from its position: the
// answer leaves out a sub-query that matched nothing, so each series is
// placed by its metric and device tag rather than by its rank.
func inQueryOrder(q *ts.Query, metrics []string, n serverNames, ans []series) ([]clientside.Series, error) {
	type key struct{ metric, device string }
	pos := make(map[key]int, len(q.Devices)*len(q.Sensors))
	for i, d := range q.Devices {
		for j, sn := range q.Sensors {
			pos[key{metrics[sn], n.device(d.Name)}] = i*len(q.Sensors) + j
		}
	}
	out := make([]clientside.Series, len(q.Devices)*len(q.Sensors))
	for _, s := range ans {
		i, ok := pos[key{s.Metric, s.Tags["device"]}]
		if !ok {
			return nil, fmt.Errorf("series %s %v is none of the query's", s.Metric, s.Tags)
		}
		pts, err := points([]series{s})
		if err != nil {
			return nil, err
		}
		out[i] = append(out[i], pts[0]...)
	}
	return out, nil
}

// exactly keeps the points at time tm.
func exactly(all []clientside.Series, tm int64) []clientside.Series {
	for i, s := range all {
		kept := s[:0]
		for _, p := range s {
			if p.T == tm {
				kept = append(kept, p)
			}
		}
		all[i] = kept
	}
	return all
}

// Count returns the number of points stored in the range, with OpenTSDB's
// count downsampler over the whole range, one series per device and sensor.
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	metrics, names, err := t.bound()
	if err != nil {
		return 0, fmt.Errorf("opentsdb: count: %w", err)
	}
	n, err := t.count(ctx, r, metrics, names)
	if err != nil {
		return 0, fmt.Errorf("opentsdb: count: %w", err)
	}
	return n, nil
}

// count adds up the per-series counts of countRequest's answer.
func (t *Target) count(ctx context.Context, r ts.CountRange, metrics []string, names serverNames) (int64, error) {
	ans, err := t.post(ctx, countRequest(r, metrics, names))
	if err != nil {
		return 0, err
	}
	var n int64
	for _, s := range ans {
		for _, v := range s.DPS {
			n += int64(v)
		}
	}
	return n, nil
}

// allEnd is the end to ask a "0all" downsampler for, to cover up to end
// (exclusive): the downsampler's one interval leaves out a point at the
// query's end, where a raw query keeps it (a Q4 window ending on a row
// counted 50 of its 51 points), so it is asked for the half-open end as is.
func allEnd(end int64) int64 { return end }

// countRequest asks for the count of every sensor's points of the listed
// devices (all when none), grouped by device so no two series meet.
func countRequest(r ts.CountRange, metrics []string, n serverNames) *queryRequest {
	req := &queryRequest{Start: max(r.Start, 1), End: allEnd(r.End), MsResolution: true}
	if r.End <= r.Start {
		req.Start, req.End = 1, maxTime
	}
	devices := "*"
	if len(r.Devices) > 0 {
		names := make([]string, len(r.Devices))
		for i, d := range r.Devices {
			names[i] = n.device(d.Name)
		}
		devices = strings.Join(names, "|")
	}
	for _, m := range metrics {
		req.Queries = append(req.Queries, subQuery{Aggregator: "none", Metric: m, Downsample: "0all-count",
			Tags: map[string]string{"device": devices}})
	}
	return req
}
