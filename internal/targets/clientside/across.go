package clientside

import (
	"math"
	"sort"

	"github.com/tsbench/tsbench/internal/ts"
)

// bucketKey is one aggregate of a Q7 across devices: a sensor's bucket.
type bucketKey struct {
	sensor int // index into the query's Sensors
	bucket int64
}

// AcrossDevices computes a Q7 with Across: one value per sensor and bucket
// over the points of every device in it. all holds the series device by
// device, each device's in the order of q.Sensors (series i is sensor
// i mod len(q.Sensors)), as Answer's callers build it. With q.Limit only
// the newest Limit buckets count, newest first, and First and Last are the
// first and last returned bucket's times so that Diff checks the order.
func AcrossDevices(q *ts.Query, all []Series) ts.Result {
	groups := map[bucketKey]*acc{}
	for i, sr := range all {
		sensor := i % max(1, len(q.Sensors))
		for _, p := range sr {
			if !keep(q, p) {
				continue
			}
			k := bucketKey{sensor: sensor}
			if q.Bucket > 0 {
				k.bucket = (p.T - q.Start) / q.Bucket
			}
			a := groups[k]
			if a == nil {
				a = &acc{min: math.Inf(1), max: math.Inf(-1)}
				groups[k] = a
			}
			a.add(p.V)
		}
	}
	keys := make([]bucketKey, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	// Newest bucket first, then by sensor: the order of ORDER BY bucket DESC.
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
		r.Add(q.Start+k.bucket*q.Bucket, groups[k].value(q.Agg))
	}
	if q.Limit == 0 {
		r.First, r.Last = 0, 0 // without a limit the row order is not defined
	}
	return r
}

// keepNewestBuckets keeps the keys of the n newest buckets of keys, which
// are sorted newest first.
func keepNewestBuckets(keys []bucketKey, n int) []bucketKey {
	seen := 0
	for i, k := range keys {
		if i == 0 || k.bucket != keys[i-1].bucket {
			seen++
			if seen > n {
				return keys[:i]
			}
		}
	}
	return keys
}
