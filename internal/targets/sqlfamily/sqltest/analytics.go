package sqltest

import (
	"context"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/analytics"
	"github.com/tsbench/tsbench/internal/analytics/analyticstest"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Analytics checks every analytics kind of the target against the answers
// computed from the generator, on event data with tags loaded into srv.
func Analytics(t *testing.T, srv Server, target string, o targets.Options) {
	srv.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn, g := analyticstest.Load(ctx, t, target, o,
		analyticstest.Events{Start: 1_600_000_000_000, Devices: 30, Seed: 11, Batch: 50,
			Tags: []analyticstest.TagCycle{{Key: "metro", Prefix: "m", Values: 5}, {Key: "state", Prefix: "s", Values: 3}}}, 4)
	qs := []ts.Analytic{
		{Name: "cityUsage", Kind: ts.TagAggregates, Tag: "metro", Sensor: 1},
		{Name: "peakDeviceUsageRange", Kind: ts.DeviceRange, Tag: "metro", Value: "m2", Sensor: 1, Flag: 0},
		{Name: "stateAvgUsage", Kind: ts.TagAverage, Tag: "state", Sensor: 1},
		{Name: "stateUsageDifference", Kind: ts.TagAverageDiff, Tag: "state", Sensor: 1},
		{Name: "count", Kind: ts.CountRows, Sensor: 1},
	}
	for _, out := range analytics.Run(ctx, conn, g, 200, qs, 1) {
		if !out.Checked || out.Error != "" || out.Rows == 0 {
			t.Errorf("%s: %+v", out.Name, out)
		}
	}
}
