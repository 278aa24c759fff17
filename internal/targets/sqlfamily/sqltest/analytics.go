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
	o = srv.Options(o)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// Two tags of 4 and 3 values over 24 devices; sensor 0 (BOOLEAN) is
	// DeviceRange's flag, sensor 1 (DOUBLE) the measured one.
	conn, g := analyticstest.Load(ctx, t, target, o, analyticstest.Events{Start: 1_650_000_000_000, Devices: 24, Seed: 7,
		Batch: 40, Tags: []analyticstest.TagCycle{{Key: "zone", Prefix: "z", Values: 4}, {Key: "tier", Prefix: "t", Values: 3}}}, 3)
	var qs []ts.Analytic
	for _, k := range []ts.AnalyticKind{ts.TagAggregates, ts.TagAverage, ts.TagAverageDiff, ts.DeviceRange, ts.CountRows} {
		qs = append(qs, ts.Analytic{Name: k.String(), Kind: k, Tag: "zone", Value: "z1", Sensor: 1, Flag: 0})
	}
	qs = append(qs, ts.Analytic{Name: "by tier", Kind: ts.TagAverageDiff, Tag: "tier", Sensor: 1})
	for _, out := range analytics.Run(ctx, conn, g, 120, qs, 1) {
		if !out.Checked || out.Error != "" || out.Rows == 0 {
			t.Errorf("%s: %+v", out.Name, out)
		}
	}
}
