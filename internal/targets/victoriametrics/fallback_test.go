package victoriametrics

import (
	"context"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/ts"
)

// A Q7 the rollups cannot answer exactly says why before any request: the
// query then goes to the export, and the run's notes count the reason.
func TestGroupByFallbackReasons(t *testing.T) {
	now := time.Now().UnixMilli()
	old := time.Date(2022, 3, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	s := &ts.Schema{StartTime: old, PointStep: 1000, Sensors: []ts.Sensor{{Name: "s_0", Type: ts.Double}}}
	for _, c := range []struct {
		name string
		q    ts.Query
		want string
	}{
		{"no bucket", ts.Query{Kind: ts.GroupBy, Start: old, End: old + 60_000, Bucket: 0}, fallbackBucket},
		{"near the wall clock", ts.Query{Kind: ts.GroupBy, Start: now - 60_000, End: now, Bucket: 10_000}, fallbackNow},
		{"a millisecond bucket over days", ts.Query{Kind: ts.GroupBy, Start: old, End: old + 3*86_400_000, Bucket: 1},
			fallbackBuckets},
	} {
		t.Run(c.name, func(t *testing.T) {
			var vm Target
			_, way, err := vm.groupBy(context.Background(), s, &c.q, `{__name__="s_0"}`)
			if err != nil || way != c.want {
				t.Errorf("groupBy = %q, %v; want %q", way, err, c.want)
			}
		})
	}
	var vm Target
	vm.fallbacks.Add(fallbackNow)
	vm.fallbacks.Add(fallbackNow)
	if got := vm.Fallbacks()[fallbackNow]; got != 2 {
		t.Errorf("Fallbacks()[%q] = %d, want 2", fallbackNow, got)
	}
}
