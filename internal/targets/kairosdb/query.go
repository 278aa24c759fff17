package kairosdb

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/ts"
)

// maxTime ends the ranges of "every point" (Q5, Q8, Count without a range):
// far beyond any benchmark timestamp, yet a valid end_absolute.
const maxTime = int64(1) << 62

// queryRequest is the body of /api/v1/datapoints/query.
type queryRequest struct {
	StartAbsolute int64         `json:"start_absolute"`
	EndAbsolute   int64         `json:"end_absolute"` // inclusive
	Metrics       []metricQuery `json:"metrics"`
}

type metricQuery struct {
	Name        string              `json:"name"`
	Tags        map[string][]string `json:"tags,omitempty"`
	Aggregators []aggregator        `json:"aggregators,omitempty"`
	Order       string              `json:"order,omitempty"`
	Limit       int                 `json:"limit,omitempty"`
}

type aggregator struct {
	Name           string    `json:"name"`
	Sampling       *sampling `json:"sampling,omitempty"`
	AlignStartTime bool      `json:"align_start_time,omitempty"`
	FilterOp       string    `json:"filter_op,omitempty"`
	Threshold      *float64  `json:"threshold,omitempty"`
}

type sampling struct {
	Value int64  `json:"value"`
	Unit  string `json:"unit"`
}

// queryResponse is the answer of /api/v1/datapoints/query: one entry per
// metric query, in request order, each with one result per group (KairosDB
// groups by data type on its own).
type queryResponse struct {
	Queries []struct {
		Results []struct {
			Values [][2]json.RawMessage `json:"values"`
		} `json:"results"`
	} `json:"queries"`
}

// everything is the start of "every point": before the epoch only if the
// schema starts there.
func everything(s *ts.Schema) int64 { return min(0, s.StartTime) }

// buildQuery translates q into one request with a metric query per (device,
// sensor), devices first. empty is true when the range selects nothing.
func buildQuery(q *ts.Query, s *ts.Schema, metrics []string, n serverNames) (req queryRequest, empty bool, err error) {
	switch q.Kind {
	case ts.PrecisePoint:
		req.StartAbsolute, req.EndAbsolute = q.Start, q.Start
	case ts.AggValue, ts.LatestPoint:
		req.StartAbsolute, req.EndAbsolute = everything(s), maxTime
	default:
		req.StartAbsolute, req.EndAbsolute = q.Start, q.End-1
	}
	if req.EndAbsolute < req.StartAbsolute {
		return req, true, nil
	}
	var aggs []aggregator
	if q.Kind.HasValueFilter() {
		// filter drops the points that match: keep value > Lower.
		lower := q.Lower
		aggs = append(aggs, aggregator{Name: "filter", FilterOp: "lte", Threshold: &lower})
	}
	if q.Kind.Aggregates() {
		name, err := aggName(q.Agg)
		if err != nil {
			return req, false, err
		}
		width := req.EndAbsolute - req.StartAbsolute + 1 // one interval over the range
		if q.Kind == ts.GroupBy {
			if q.Bucket <= 0 {
				return req, false, fmt.Errorf("kairosdb: group by: bucket %d ms must be positive", q.Bucket)
			}
			if q.ClockBuckets {
				// Its sampling aligns to the query's start, or to a whole
				// unit with align_sampling, never to a clipped clock bucket.
				return req, false, fmt.Errorf("kairosdb: group by buckets on the clock: %w", targets.ErrUnsupported)
			}
			width = q.Bucket
		}
		aggs = append(aggs, aggregator{Name: name, Sampling: &sampling{Value: width, Unit: "milliseconds"},
			AlignStartTime: true})
	}
	order, limit := "", 0
	switch {
	case q.Kind.Descending():
		order = "desc"
	case q.Kind == ts.LatestPoint:
		order, limit = "desc", 1
	}
	if q.Across {
		// One metric query per sensor over all the devices: KairosDB feeds
		// every series a metric query matches into its aggregator as one
		// stream, so each bucket's value is over every device's points.
		names := make([]string, len(q.Devices))
		for i, d := range q.Devices {
			names[i] = n.device(d.Name)
		}
		for _, sn := range q.Sensors {
			if sn < 0 || sn >= len(metrics) {
				return req, false, fmt.Errorf("kairosdb: sensor %d is not in the schema", sn)
			}
			req.Metrics = append(req.Metrics, metricQuery{Name: metrics[sn],
				Tags: map[string][]string{"device": names}, Aggregators: aggs})
		}
		return req, false, nil
	}
	for _, d := range q.Devices {
		for _, sn := range q.Sensors {
			if sn < 0 || sn >= len(metrics) {
				return req, false, fmt.Errorf("kairosdb: sensor %d is not in the schema", sn)
			}
			req.Metrics = append(req.Metrics, metricQuery{Name: metrics[sn],
				Tags: map[string][]string{"device": {n.device(d.Name)}}, Aggregators: aggs, Order: order, Limit: limit})
		}
	}
	return req, false, nil
}

func aggName(a ts.Aggregate) (string, error) {
	switch a {
	case ts.Count, ts.Sum, ts.Avg, ts.Min, ts.Max:
		return a.String(), nil // KairosDB's aggregators have the same names
	}
	return "", fmt.Errorf("kairosdb: aggregate %s: unknown", a)
}

// post runs a query request and returns one slice of results per metric
// query.
func (t *Target) post(ctx context.Context, req *queryRequest) (*queryResponse, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("kairosdb: encode query: %w", err)
	}
	data, err := t.do(ctx, http.MethodPost, "/api/v1/datapoints/query", body,
		map[string]string{"Content-Type": "application/json"})
	if err != nil {
		return nil, err
	}
	var r queryResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("kairosdb: decode query answer: %w", err)
	}
	if len(r.Queries) != len(req.Metrics) {
		return nil, fmt.Errorf("kairosdb: query answer has %d queries, asked %d", len(r.Queries), len(req.Metrics))
	}
	return &r, nil
}

// point reads one [timestamp, value] pair; text values count as 0.
func point(p [2]json.RawMessage) (int64, float64, error) {
	tm, err := strconv.ParseInt(string(p[0]), 10, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("kairosdb: timestamp %s: %w", p[0], err)
	}
	if len(p[1]) > 0 && p[1][0] == '"' {
		return tm, 0, nil
	}
	v, err := strconv.ParseFloat(string(p[1]), 64)
	if err != nil {
		return 0, 0, fmt.Errorf("kairosdb: value %s: %w", p[1], err)
	}
	return tm, v, nil
}

// bound is the bound schema with its metric names and the names as
// stored, read under the lock: a query does not hold it while KairosDB
// answers.
func (t *Target) bound() (*ts.Schema, []string, serverNames, error) {
	t.Mu.Lock()
	defer t.Mu.Unlock()
	s, err := t.Binding.Schema()
	return s, t.Series.Metrics, t.names, err
}

// Query runs one of Q1..Q10 as one request (see the package doc).
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	s, metrics, nm, err := t.bound()
	var res ts.Result
	if err != nil {
		return res, fmt.Errorf("kairosdb: query: %w", err)
	}
	req, empty, err := buildQuery(q, s, metrics, nm)
	if err != nil || empty || len(req.Metrics) == 0 {
		return res, err
	}
	r, err := t.post(ctx, &req)
	if err != nil {
		return res, err
	}
	if q.Across {
		return across(q, r)
	}
	desc := q.Kind.Descending()
	for _, mq := range r.Queries {
		var one ts.Result // one series: points in the order KairosDB returned them
		for _, g := range mq.Results {
			for _, p := range g.Values {
				tm, v, err := point(p)
				if err != nil {
					return res, err
				}
				one.Add(tm, v)
			}
		}
		res.Merge(one, desc)
	}
	if q.Kind.Aggregates() || q.Kind == ts.LatestPoint {
		res.First, res.Last = 0, 0
	}
	return res, nil
}

// across reads the answer to a Q7 with Across: one metric query per
// sensor, each value the bucket's aggregate over every device. KairosDB's
// limit counts raw points before aggregation, not buckets, so Limit is
// applied here: clientside.Partials, given each bucket's one value, orders
// the buckets newest first and keeps the newest Limit.
func across(q *ts.Query, r *queryResponse) (ts.Result, error) {
	p := clientside.NewPartials(q)
	for i, mq := range r.Queries {
		for _, g := range mq.Results {
			for _, pt := range g.Values {
				tm, v, err := point(pt)
				if err != nil {
					return ts.Result{}, err
				}
				p.Add(i, tm, v, 1) // an average of one part is its value
			}
		}
	}
	return p.Result(), nil
}

// countRequest counts the points of every sensor of the listed devices (all
// when none) in a range with the count aggregator over one interval.
func countRequest(r ts.CountRange, s *ts.Schema, metrics []string, n serverNames) (req queryRequest, empty bool) {
	req.StartAbsolute, req.EndAbsolute = r.Start, r.End-1
	if r.End <= r.Start {
		req.StartAbsolute, req.EndAbsolute = everything(s), maxTime
	}
	var tags map[string][]string
	if len(r.Devices) > 0 {
		names := make([]string, len(r.Devices))
		for i, d := range r.Devices {
			names[i] = n.device(d.Name)
		}
		tags = map[string][]string{"device": names}
	}
	agg := []aggregator{{Name: "count", Sampling: &sampling{Value: req.EndAbsolute - req.StartAbsolute + 1, Unit: "milliseconds"}}}
	for _, m := range metrics {
		req.Metrics = append(req.Metrics, metricQuery{Name: m, Tags: tags, Aggregators: agg})
	}
	return req, len(req.Metrics) == 0
}

// Count returns the number of points stored in the range: KairosDB keeps
// one point per series and timestamp, so this is the distinct count.
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	s, metrics, nm, err := t.bound()
	if err != nil {
		return 0, fmt.Errorf("kairosdb: count: %w", err)
	}
	req, empty := countRequest(r, s, metrics, nm)
	if empty {
		return 0, nil
	}
	ans, err := t.post(ctx, &req)
	if err != nil {
		return 0, fmt.Errorf("kairosdb: count: %w", err)
	}
	var n int64
	for _, mq := range ans.Queries {
		for _, g := range mq.Results {
			for _, p := range g.Values {
				_, v, err := point(p)
				if err != nil {
					return 0, fmt.Errorf("kairosdb: count: %w", err)
				}
				n += int64(v)
			}
		}
	}
	return n, nil
}
