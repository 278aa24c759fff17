package main

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// TestMain says in one line which tests were skipped for want of a server
// or tool (see testenv).
func TestMain(m *testing.M) { testenv.Main(m) }

func TestMedians(t *testing.T) {
	cases := []struct {
		name string
		runs []*Result
		want Medians
	}{
		{"one", []*Result{{Ratio: 1.1, Tsbench: Side{CPUPerMillion: 0.09}, Baseline: Side{CPUPerMillion: 0.1}}},
			Medians{Ratio: 1.1, TsbenchCPUPerMillion: 0.09, BaselineCPUPerMillion: 0.1, CPURatio: 0.9}},
		{"odd: each figure's own middle run", []*Result{
			{Ratio: 0.9, Tsbench: Side{CPUPerMillion: 0.3}, Baseline: Side{CPUPerMillion: 0.1}},
			{Ratio: 1.2, Tsbench: Side{CPUPerMillion: 0.1}, Baseline: Side{CPUPerMillion: 0.4}},
			{Ratio: 1.0, Tsbench: Side{CPUPerMillion: 0.2}, Baseline: Side{CPUPerMillion: 0.2}}},
			Medians{Ratio: 1.0, TsbenchCPUPerMillion: 0.2, BaselineCPUPerMillion: 0.2, CPURatio: 1}},
		{"even: the middle two's mean", []*Result{
			{Ratio: 1, Tsbench: Side{CPUPerMillion: 0.1}, Baseline: Side{CPUPerMillion: 0.1}},
			{Ratio: 2, Tsbench: Side{CPUPerMillion: 0.4}, Baseline: Side{CPUPerMillion: 0.1}},
			{Ratio: 4, Tsbench: Side{CPUPerMillion: 0.2}, Baseline: Side{CPUPerMillion: 0.1}},
			{Ratio: 3, Tsbench: Side{CPUPerMillion: 0.3}, Baseline: Side{CPUPerMillion: 0.1}}},
			Medians{Ratio: 2.5, TsbenchCPUPerMillion: 0.25, BaselineCPUPerMillion: 0.1, CPURatio: 2.5}},
		{"with the floor: tsbench above it run by run", []*Result{
			{Ratio: 1, Tsbench: Side{CPUPerMillion: 0.10}, Baseline: Side{CPUPerMillion: 0.1}, Floor: &Side{CPUPerMillion: 0.09}},
			{Ratio: 1, Tsbench: Side{CPUPerMillion: 0.20}, Baseline: Side{CPUPerMillion: 0.1}, Floor: &Side{CPUPerMillion: 0.05}},
			{Ratio: 1, Tsbench: Side{CPUPerMillion: 0.12}, Baseline: Side{CPUPerMillion: 0.1}, Floor: &Side{CPUPerMillion: 0.07}}},
			Medians{Ratio: 1, TsbenchCPUPerMillion: 0.12, BaselineCPUPerMillion: 0.1, CPURatio: 1.2, FloorCPUPerMillion: 0.07, AboveFloor: 0.05}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := medians(c.runs)
			for _, f := range []struct {
				name      string
				got, want float64
			}{
				{"ratio", got.Ratio, c.want.Ratio},
				{"tsbench CPU", got.TsbenchCPUPerMillion, c.want.TsbenchCPUPerMillion},
				{"baseline CPU", got.BaselineCPUPerMillion, c.want.BaselineCPUPerMillion},
				{"CPU ratio", got.CPURatio, c.want.CPURatio},
				{"floor CPU", got.FloorCPUPerMillion, c.want.FloorCPUPerMillion},
				{"above the floor", got.AboveFloor, c.want.AboveFloor},
			} {
				if math.Abs(f.got-f.want) > 1e-9 {
					t.Errorf("%s: %v, want %v", f.name, f.got, f.want)
				}
			}
		})
	}
}

func TestContentLength(t *testing.T) {
	cases := []struct {
		head string
		want int
		err  string
	}{
		{"HTTP/1.1 204 No Content\r\nDate: x\r\n\r\n", 0, ""},
		{"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n", 40, ""},
		{"HTTP/1.1 200 OK\r\ncontent-length:7\r\n\r\n", 7, ""},
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", 0, "chunked"},
		{"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n", 0, "invalid syntax"},
	}
	for _, c := range cases {
		got, err := contentLength([]byte(c.head))
		if got != c.want || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("contentLength(%q) = %d, %v; want %d, an error with %q", c.head, got, err, c.want, c.err)
		}
	}
}

// TestCompareWithFloor runs a whole comparison of the three sides on each
// server, starting from the floor: every side must have stored every
// point it sent, and measured itself.
func TestCompareWithFloor(t *testing.T) {
	for name, addr := range map[string]string{"influxdb": "127.0.0.1:8086", "victoriametrics": "127.0.0.1:8428"} {
		t.Run(name, func(t *testing.T) {
			targettest.RequireServer(t, name, addr)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			r, err := Compare(ctx, name, Plan{Points: 1, First: 2, Floor: true})
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{"the floor", "tsbench", "the baseline"}; !slices.Equal(r.Order, want) {
				t.Errorf("order %v, want %v", r.Order, want)
			}
			if r.Points != 100_000 || r.Tsbench.Stored != r.Points || r.Baseline.Stored != r.Points || r.Floor.Stored != r.Points {
				t.Errorf("points %d; stored: tsbench %d, baseline %d, floor %d", r.Points, r.Tsbench.Stored, r.Baseline.Stored, r.Floor.Stored)
			}
			for what, v := range map[string]float64{"tsbench points/s": r.Tsbench.PointsPerSec, "baseline points/s": r.Baseline.PointsPerSec,
				"floor points/s": r.Floor.PointsPerSec, "tsbench CPU": r.Tsbench.CPUPerMillion, "baseline CPU": r.Baseline.CPUPerMillion, "floor CPU": r.Floor.CPUPerMillion} {
				if !(v > 0) || math.IsInf(v, 0) {
					t.Errorf("%s = %v", what, v)
				}
			}
		})
	}
}
