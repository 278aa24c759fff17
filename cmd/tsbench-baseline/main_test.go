package main

import (
	"context"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/target/targettest"
)

// The comparison writes the same points on both sides and both are stored in
// full. Speed is not asserted here (noisy machines): run the command for the
// ratio.
func TestCompare(t *testing.T) {
	for name, addr := range map[string]string{"influxdb": "127.0.0.1:8086", "victoriametrics": "127.0.0.1:8428"} {
		t.Run(name, func(t *testing.T) {
			targettest.RequireServer(t, name, addr)
			compareSmall(t, name)
		})
	}
}

func compareSmall(t *testing.T, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r, err := Compare(ctx, name, 200_000)
	if err != nil {
		t.Fatal(err)
	}
	if r.Points != 200_000 || r.TsbenchStored != 200_000 || r.BaselineStored != 200_000 {
		t.Fatalf("points %d, stored by tsbench %d, by the baseline %d", r.Points, r.TsbenchStored, r.BaselineStored)
	}
	if r.Ratio <= 0 || r.TsbenchCPUPerMillion <= 0 {
		t.Fatalf("result %+v", r)
	}
}
