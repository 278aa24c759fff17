package clientside

import (
	"math"
	"sort"

	"github.com/tsbench/tsbench/internal/ts"
)

// Partials combines the aggregates a server computed for parts of a Q7
// with Across — one per bucket of each group of devices (an InfluxDB
// measurement, a QuestDB table) or of each series — into the one value per
// sensor and bucket across all the query's devices, when the server cannot
// aggregate across the parts itself. Count and Sum add up, Min and Max take
// the extreme; Avg needs each part's sum and count (a mean of means would
// weigh the parts wrongly). Its Result orders and limits the buckets as
// AcrossDevices does, which also serves a server that aggregates across
// devices but cannot limit buckets (KairosDB: one part per bucket).
type Partials struct {
	q     *ts.Query
	parts map[bucketKey]*acc
}

// NewPartials starts combining the parts of q.
func NewPartials(q *ts.Query) *Partials {
	return &Partials{q: q, parts: map[bucketKey]*acc{}}
}

// Add accounts for one part's aggregate of the bucket that holds time t, of
// the sensor at position sensor of q.Sensors: value is the part's q.Agg
// (for Avg, its sum) and n its number of points (only Avg reads it). A part
// with no point in the bucket is not added.
func (p *Partials) Add(sensor int, t int64, value float64, n int64) {
	a := bucketAcc(p.q, p.parts, sensor, t)
	switch p.q.Agg {
	case ts.Count:
		a.n += int64(value)
	case ts.Avg:
		a.n += n
		a.sum += value
	default:
		a.n += max(n, 1)
		a.sum += value
		a.min = math.Min(a.min, value)
		a.max = math.Max(a.max, value)
	}
}

// Result is the combined answer: one value per sensor and bucket; with
// q.Limit the newest Limit buckets, newest first, with First and Last
// their times.
func (p *Partials) Result() ts.Result { return bucketResult(p.q, p.parts) }

// bucketAcc is the aggregate of the sensor's bucket that holds time t,
// created empty the first time.
func bucketAcc(q *ts.Query, groups map[bucketKey]*acc, sensor int, t int64) *acc {
	k := bucketKey{sensor: sensor}
	if q.Bucket > 0 {
		k.bucket = (t - q.BucketOrigin()) / q.Bucket
	}
	a := groups[k]
	if a == nil {
		a = &acc{min: math.Inf(1), max: math.Inf(-1)}
		groups[k] = a
	}
	return a
}

// bucketResult lists the aggregates of q's sensors and buckets: newest
// bucket first, then by sensor (the order of ORDER BY bucket DESC), only
// the Limit newest buckets with q.Limit.
func bucketResult(q *ts.Query, groups map[bucketKey]*acc) ts.Result {
	keys := make([]bucketKey, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].bucket != keys[j].bucket {
			return keys[i].bucket > keys[j].bucket
		}
		return keys[i].sensor < keys[j].sensor
	})
	if q.Limit > 0 {
		keys = keepNewestBuckets(keys, q.Limit)
	}
	var r ts.Result
	for _, k := range keys {
		r.Add(q.BucketOrigin()+k.bucket*q.Bucket, groups[k].value(q.Agg))
	}
	if q.Limit == 0 {
		r.First, r.Last = 0, 0 // without a limit the row order is not defined
	}
	return r
}
