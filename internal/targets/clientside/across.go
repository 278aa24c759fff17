package clientside

import "github.com/tsbench/tsbench/internal/ts"

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
			bucketAcc(q, groups, sensor, p.T).add(p.V)
		}
	}
	return bucketResult(q, groups)
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
