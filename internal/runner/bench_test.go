package runner

import (
	"context"
	"fmt"
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/sysinfo"
	"github.com/tsbench/tsbench/internal/targets"
	_ "github.com/tsbench/tsbench/internal/targets/null"
)

// BenchmarkNullTarget measures the tool's own cost: a whole run (generation,
// clients, timing, HDR recording) against the null target, which keeps
// nothing. The shape is the lean-client comparison's: 100 devices x 10 DOUBLE
// sensors, 10 clients, 100-row batches; 10 million points per run.
// points/CPU-s is the figure to watch (IoT-benchmark's FakeDB: ~14.6 M).
func BenchmarkNullTarget(b *testing.B) {
	runs, cpu := benchNull(b, "DEVICE_NUMBER=100", "SENSOR_NUMBER=10", "CLIENT_NUMBER=10", "BATCH_SIZE_PER_WRITE=100", "LOOP=100")
	var points int64
	for _, s := range runs {
		points += s.Op("INGESTION").OKPoints
	}
	if points != int64(b.N)*10_000_000 {
		b.Fatalf("%d points acknowledged, want %d", points, int64(b.N)*10_000_000)
	}
	b.ReportMetric(float64(points)/cpu, "points/CPU-s")
	b.ReportMetric(float64(points)/b.Elapsed().Seconds(), "points/s")
}

// BenchmarkCRRCNull measures the tool's cost per operation in seed 002's
// CRRC shape, where the client's own cost per request decides what a
// benchmark can show: 100 clients, 100 devices x 300 DOUBLE sensors, one
// row per write, against the null target; and the same with 1,000 clients
// and devices. It reports CPU-µs per operation (the goal: at most 4) and
// the cores the run kept busy (CPU seconds over wall seconds: close to the
// machine's cores when nothing serialises the clients).
//
//	go test -run '^$' -bench CRRCNull -count 3 ./internal/runner
func BenchmarkCRRCNull(b *testing.B) {
	for _, clients := range []int64{100, 1000} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			loop := 200_000 / clients
			runs, cpu := benchNull(b, fmt.Sprintf("DEVICE_NUMBER=%d", clients), "SENSOR_NUMBER=300",
				fmt.Sprintf("CLIENT_NUMBER=%d", clients), "BATCH_SIZE_PER_WRITE=1", fmt.Sprintf("LOOP=%d", loop))
			var ops int64
			for _, s := range runs {
				ops += s.Op("INGESTION").OKOperations
			}
			if ops != int64(b.N)*clients*loop {
				b.Fatalf("%d operations acknowledged, want %d", ops, int64(b.N)*clients*loop)
			}
			b.ReportMetric(cpu/float64(ops)*1e6, "CPU-µs/op")
			b.ReportMetric(cpu/b.Elapsed().Seconds(), "cores")
			b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "ops/s")
		})
	}
}

// benchNull runs b.N write-only runs of shape against the null target and
// returns their summaries and the CPU seconds the process spent on them.
func benchNull(b *testing.B, shape ...string) ([]*summary.Summary, float64) {
	args := append([]string{"DB_SWITCH=null", "INSERT_DATATYPE_PROPORTION=0:0:0:0:1:0",
		"OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0", "verify=false"}, shape...)
	c, err := config.FromArgs(args...)
	if err != nil {
		b.Fatal(err)
	}
	d, err := targets.Lookup("null")
	if err != nil {
		b.Fatal(err)
	}
	var runs []*summary.Summary
	before := sysinfo.SelfUsage()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := New(c, d, targets.Options{})
		if err != nil {
			b.Fatal(err)
		}
		s, err := r.Run(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		runs = append(runs, s)
	}
	b.StopTimer()
	return runs, sysinfo.SelfUsage().CPUSeconds - before.CPUSeconds
}
