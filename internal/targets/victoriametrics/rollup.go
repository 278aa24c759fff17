package victoriametrics

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/tsbench/tsbench/internal/targets/promql"
	"github.com/tsbench/tsbench/internal/ts"
)

// Q7 on the server. VictoriaMetrics evaluates a rollup such as
// max_over_time(sel[w]) at time t over the samples in (t-w, t]; with
// whole-millisecond timestamps, evaluated at t = Start + (i+1)*Bucket - 1
// with w = Bucket it covers exactly bucket i, [Start + i*Bucket,
// Start + (i+1)*Bucket). One /api/v1/query_range with start = Start +
// Bucket - 1 ms and step = Bucket therefore answers every whole bucket,
// one value per series (or, aggregated by (__name__), per sensor) and
// bucket that has a point: a window without samples yields no value (the
// explicit window is used as it is; no lookback, no previous sample, no
// gap filling — checked on 1.79 and 1.148). A bucket clipped by the query's
// End, or by the schema's START_TIME (before which the series hold only
// their registration sample, see register), is evaluated on its own, at
// its clipped end - 1 ms with the clipped width as window
// (promql.PlanBuckets; promql.Buckets gathers the answers). The requests carry nocache=1, so that a server with its
// result cache on neither aligns start and end to the step nor serves
// cached answers.
//
// The export path (clientside) remains for what the server cannot answer
// exactly or usefully (see groupBy): a Bucket <= 0, too many buckets,
// buckets near the wall clock (query_range replaces the last points within
// -search.latencyOffset of "now" by earlier values), and answers that are
// unusable (an error status, something that does not decode, values at
// times that are none of the buckets').

// nowMargin keeps query_range away from the wall clock: its answers' points
// later than now - latency_offset are replaced by earlier values. The
// requests ask for a 1 ms latency_offset; the margin covers the clocks of
// client and server disagreeing.
const nowMargin = 10 * time.Minute

// groupByPart labels the two halves of an average across devices (see
// groupByExpr), as the PromQL targets' answers do.
const groupByPart = promql.PartLabel

// groupByExpr is the MetricsQL of a Q7 over the series sel selects, with a
// window of window ms:
//   - per series: <agg>_over_time(sel[w]) keep_metric_names (the names tell
//     the sensors' series of a device apart);
//   - across devices, one series per sensor (by (__name__)): count and sum
//     add up, min and max take the extreme, of each series' rollup;
//   - the average across devices weighs every point alike, not every
//     device: the sum and the count, in one answer, told apart by the label
//     tsbench_part, divided by tsbench (clientside.Partials); a division on
//     the server would match series without their names and fail.
func groupByExpr(q *ts.Query, sel string, window int64) (string, error) {
	roll := func(fn string) string {
		return fn + "(" + sel + "[" + strconv.FormatInt(window, 10) + "ms]) keep_metric_names"
	}
	fn, err := rollup(q.Agg)
	if err != nil {
		return "", err
	}
	if !q.Across {
		return roll(fn), nil
	}
	by := func(agg, fn string) string { return agg + "(" + roll(fn) + ") by (__name__)" }
	switch q.Agg {
	case ts.Count, ts.Sum:
		return by("sum", fn), nil
	case ts.Min:
		return by("min", fn), nil
	case ts.Max:
		return by("max", fn), nil
	}
	return `label_set(` + by("sum", "sum_over_time") + `, "` + groupByPart + `", "sum") or label_set(` +
		by("sum", "count_over_time") + `, "` + groupByPart + `", "count")`, nil
}

// queryRange evaluates expr on grid g. A transport error is returned as
// it is; an error status or an answer that does not decode, or has a value
// at a time off the grid, as a promql.UnusableError. The series are d's,
// valid until d's next use, each with its labels __name__ and
// tsbench_part.
func (t *Target) queryRange(ctx context.Context, d *promql.Decoder, expr string, g promql.Grid) ([]promql.Series, error) {
	// Written out rather than with url.Values, whose map and sorted Encode
	// were a tenth of a small query's CPU.
	q := "query=" + url.QueryEscape(expr) + "&start=" + promql.Seconds(g.From) + "&end=" + promql.Seconds(g.To) +
		"&step=" + promql.Seconds(g.Step) + "&nocache=1&latency_offset=1ms"
	data, err := t.doInto(ctx, http.MethodGet, "/api/v1/query_range", q, nil, &d.Body)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) || ctx.Err() != nil {
			return nil, err
		}
		return nil, &promql.UnusableError{Err: err}
	}
	series, err := d.Decode(data, expr, &g, "__name__", groupByPart)
	if err != nil {
		return nil, fmt.Errorf("victoriametrics: %w", err)
	}
	return series, nil
}

// The reasons a Q7 is answered from the export instead of the server's
// rollups, as the run's notes count them (targets.Fallbacks).
const (
	fallbackBucket   = "GROUP_BY with a bucket <= 0, answered from /api/v1/export"
	fallbackBuckets  = "GROUP_BY with more buckets than query_range serves, answered from /api/v1/export"
	fallbackNow      = "GROUP_BY within 10 minutes of the wall clock (query_range replaces the newest points there), answered from /api/v1/export"
	fallbackUnusable = "GROUP_BY whose query_range answer was unusable, answered from /api/v1/export"
)

// onServer is groupBy's way when the server's rollups answered.
const onServer = ""

// groupBy answers a Q7 from the server's rollups (see the top of the
// file). way is onServer, or why the query is to be answered from the
// export instead: a plan the server cannot serve exactly, or an unusable
// answer.
func (t *Target) groupBy(ctx context.Context, s *ts.Schema, q *ts.Query, sel string) (res ts.Result, way string, err error) {
	if q.Bucket <= 0 {
		return res, fallbackBucket, nil
	}
	grids, ok := promql.PlanBuckets(q, s.StartTime)
	if !ok {
		return res, fallbackBuckets, nil
	}
	if n := len(grids); n > 0 && grids[n-1].To > time.Now().Add(-nowMargin).UnixMilli() {
		return res, fallbackNow, nil
	}
	sensor := map[string]int{} // metric name -> position in q.Sensors
	for i, sn := range q.Sensors {
		sensor[s.Sensors[sn].Name] = i
	}
	// Across sensors a series must name one of them; a single sensor's
	// answer is that sensor's whatever its name.
	sensorOf := func(name string) (int, bool) {
		pos, known := sensor[name]
		return pos, known || !q.Across
	}
	expr := func(window int64) (string, error) { return groupByExpr(q, sel, window) }
	res, usable, err := promql.Gather(ctx, q, s.StartTime, grids, expr, t.queryRange, sensorOf)
	if err != nil {
		return ts.Result{}, onServer, err
	}
	if !usable {
		return ts.Result{}, fallbackUnusable, nil
	}
	return res, onServer, nil
}
