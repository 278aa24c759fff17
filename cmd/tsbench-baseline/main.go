// Command tsbench-baseline checks that tsbench is not the bottleneck it
// measures. It writes the same data to a database twice in one run — once
// through tsbench's runner and target, once through a minimal writer that
// sends pre-serialised line-protocol bodies (serialised before the clock
// starts) over the same HTTP API with the same concurrency — and prints both
// throughputs, their ratio and tsbench's CPU seconds per million points.
//
//	go run ./cmd/tsbench-baseline --target influxdb --points 10000000
//	go run ./cmd/tsbench-baseline --target victoriametrics --points 3000000 --runs 5 # and the medians
//
// The shape is the one IoT-benchmark's InfluxDB client was measured with:
// 100 devices x 10 DOUBLE sensors, 10 clients, 100-row batches.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/runner"
	"github.com/tsbench/tsbench/internal/sysinfo"
	"github.com/tsbench/tsbench/internal/target"
	_ "github.com/tsbench/tsbench/internal/target/all"
	"github.com/tsbench/tsbench/internal/target/victoriametrics"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/workload"
)

// Result is one comparison.
type Result struct {
	Target               string
	Points               int64
	TsbenchPointsPerSec  float64
	BaselinePointsPerSec float64
	Ratio                float64
	TsbenchCPUPerMillion float64
	// BaselineCPUPerMillion is the lean writer's CPU seconds per million
	// points, sending bodies serialised before its clock started: what the
	// HTTP exchange alone (fasthttp's client and the kernel's loopback,
	// charged to the sender) costs on this machine.
	BaselineCPUPerMillion float64
	TsbenchStored         int64
	BaselineStored        int64
	TsbenchSeconds        float64
	BaselineSeconds       float64
	BaselineFirst         bool // the baseline wrote before tsbench (Compare)
}

// endpoints are the write URLs (the same API tsbench's target uses) of the
// targets the baseline knows.
var endpoints = map[string]string{
	"influxdb":        "http://127.0.0.1:8086/write?db=tsbench_baseline&precision=ms",
	"victoriametrics": "http://127.0.0.1:8428/api/v1/import",
}

func main() {
	name := flag.String("target", "influxdb", "influxdb or victoriametrics")
	points := flag.Int64("points", 10_000_000, "points to write on each side (rounded up to 100,000)")
	settle := flag.Duration("settle", 10*time.Second, "pause before each side, for the server to finish the last side's background work (InfluxDB compacts what was just written)")
	runs := flag.Int("runs", 1, "comparisons to run one after another, tsbench and the baseline taking turns to go first; with more than one, their medians are printed too")
	flag.Parse()
	if _, ok := endpoints[*name]; !ok {
		fmt.Fprintf(os.Stderr, "tsbench-baseline: --target %q: allowed: influxdb, victoriametrics\n", *name)
		os.Exit(2)
	}
	if *runs < 1 || *points < 1 {
		fmt.Fprintf(os.Stderr, "tsbench-baseline: --runs %d, --points %d: both must be at least 1\n", *runs, *points)
		os.Exit(2)
	}
	if *settle < 0 {
		fmt.Fprintf(os.Stderr, "tsbench-baseline: --settle %v: must not be negative\n", *settle)
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute*time.Duration(*runs))
	defer cancel()
	var all []*Result
	for i := range *runs {
		r, err := Compare(ctx, *name, *points, i%2 == 1, *settle)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tsbench-baseline:", err)
			os.Exit(1)
		}
		if *runs > 1 {
			fmt.Printf("== run %d of %d\n", i+1, *runs)
		}
		r.print()
		all = append(all, r)
	}
	if *runs > 1 {
		m := medians(all)
		fmt.Printf("== medians of %d runs: ratio %.3f; CPU s per million points: tsbench %.3f, baseline %.3f; tsbench/baseline CPU %.2f\n",
			*runs, m.Ratio, m.TsbenchCPUPerMillion, m.BaselineCPUPerMillion, m.CPURatio)
	}
}

func (r *Result) print() {
	first := "tsbench"
	if r.BaselineFirst {
		first = "the baseline"
	}
	fmt.Printf("target %s, %d points each, 100 devices x 10 DOUBLE sensors, 10 clients, 100-row batches; %s first\n", r.Target, r.Points, first)
	fmt.Printf("tsbench:  %12.0f points/s (%.2f s, stored %d)\n", r.TsbenchPointsPerSec, r.TsbenchSeconds, r.TsbenchStored)
	fmt.Printf("baseline: %12.0f points/s (%.2f s, stored %d)\n", r.BaselinePointsPerSec, r.BaselineSeconds, r.BaselineStored)
	fmt.Printf("ratio tsbench/baseline: %.3f\n", r.Ratio)
	fmt.Printf("tsbench CPU: %.3f s per million points (generation, serialisation, sending)\n", r.TsbenchCPUPerMillion)
	fmt.Printf("baseline CPU: %.3f s per million points (sending pre-serialised bodies only)\n", r.BaselineCPUPerMillion)
}

// Medians are the middle figures of several comparisons, each taken alone
// (the medians of a noisy machine's runs, which one run cannot give).
type Medians struct {
	Ratio                 float64
	TsbenchCPUPerMillion  float64
	BaselineCPUPerMillion float64
	// CPURatio is tsbench's CPU per point over the baseline's, run by run:
	// both sides of one run share the machine's state at the time.
	CPURatio float64
}

func medians(rs []*Result) Medians {
	pick := func(f func(*Result) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		return median(v)
	}
	return Medians{
		Ratio:                 pick(func(r *Result) float64 { return r.Ratio }),
		TsbenchCPUPerMillion:  pick(func(r *Result) float64 { return r.TsbenchCPUPerMillion }),
		BaselineCPUPerMillion: pick(func(r *Result) float64 { return r.BaselineCPUPerMillion }),
		CPURatio:              pick(func(r *Result) float64 { return r.TsbenchCPUPerMillion / r.BaselineCPUPerMillion }),
	}
}

// median of v (the mean of the middle two for an even count); v is sorted.
func median(v []float64) float64 {
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// config100x10 is the comparison's workload.
func config100x10(name string, loop int64) (*config.Config, error) {
	return config.FromArgs("DB_SWITCH="+name, "DB_NAME=tsbench_baseline", "DEVICE_NUMBER=100", "SENSOR_NUMBER=10",
		"CLIENT_NUMBER=10", "BATCH_SIZE_PER_WRITE=100", "INSERT_DATATYPE_PROPORTION=0:0:0:0:1:0",
		"OPERATION_PROPORTION=1", "LOOP="+strconv.FormatInt(loop, 10), "verify=true", "IS_QUIET_MODE=true")
}

// Compare writes the same data through tsbench and through the baseline
// writer, each into a fresh database, after a pause of settle each.
// baselineFirst swaps their order: runs that alternate it give a server
// that is still warming up (a fresh process, caches, the first series) to
// neither side, and the pause keeps the first side's background work (a
// compaction of what it wrote) out of the second side's time.
func Compare(ctx context.Context, name string, points int64, baselineFirst bool, settle time.Duration) (*Result, error) {
	loop := max(1, (points+99_999)/100_000)
	cfg, err := config100x10(name, loop)
	if err != nil {
		return nil, err
	}
	d, err := target.Lookup(name)
	if err != nil {
		return nil, err
	}
	r, err := runner.New(cfg, d, target.Options{Database: cfg.Database})
	if err != nil {
		return nil, err
	}
	res := &Result{Target: name, Points: loop * 100_000, BaselineFirst: baselineFirst}
	sides := []func() error{
		func() error { return res.runTsbench(ctx, r) },
		func() error { return res.runBaseline(ctx, cfg, d, r) },
	}
	if baselineFirst {
		sides[0], sides[1] = sides[1], sides[0]
	}
	for _, side := range sides {
		select {
		case <-time.After(settle):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if err := side(); err != nil {
			return nil, err
		}
	}
	res.Ratio = res.TsbenchPointsPerSec / res.BaselinePointsPerSec
	return res, nil
}

// runTsbench is tsbench's side: the runner, with its verification.
func (res *Result) runTsbench(ctx context.Context, r *runner.Runner) error {
	before := sysinfo.SelfUsage()
	s, err := r.Run(ctx)
	if err != nil {
		return fmt.Errorf("tsbench run: %w", err)
	}
	cpu := sysinfo.SelfUsage().CPUSeconds - before.CPUSeconds
	w := s.Op("INGESTION")
	res.TsbenchSeconds = s.Elapsed
	res.TsbenchPointsPerSec = w.Throughput
	res.TsbenchCPUPerMillion = cpu / (float64(w.OKPoints) / 1e6)
	if s.Verify != nil {
		res.TsbenchStored = s.Verify.StoredPoints
	}
	return nil
}

// runBaseline is the baseline's side: the runner's data, serialised before
// the clock starts, sent by the bare writer into a fresh database and
// counted.
func (res *Result) runBaseline(ctx context.Context, cfg *config.Config, d *target.Driver, r *runner.Runner) error {
	admin, err := d.Open(ctx, target.Options{Database: cfg.Database})
	if err != nil {
		return err
	}
	defer admin.Close()
	if err := admin.Setup(ctx, r.Schema(), true); err != nil {
		return err
	}
	format := lineProtocol
	if vm, ok := admin.(*victoriametrics.Target); ok {
		format = importLines(vm)
	}
	bodies := serialise(cfg, r.Generator(), format)
	before := sysinfo.SelfUsage()
	secs, err := send(ctx, endpoints[res.Target], bodies)
	if err != nil {
		return fmt.Errorf("baseline: %w", err)
	}
	res.BaselineCPUPerMillion = (sysinfo.SelfUsage().CPUSeconds - before.CPUSeconds) / (float64(res.Points) / 1e6)
	res.BaselineSeconds = secs
	res.BaselinePointsPerSec = float64(res.Points) / secs
	res.BaselineStored, err = admin.Count(ctx, ts.CountRange{})
	return err
}

// format renders one batch of a device as a request body.
type format func(b *bytes.Buffer, s *ts.Schema, d *ts.Device, batch *ts.Batch)

// lineProtocol is InfluxDB's format: one line per row.
func lineProtocol(b *bytes.Buffer, s *ts.Schema, d *ts.Device, batch *ts.Batch) {
	var num [32]byte
	prefix := s.Groups[d.Group] + ",device=" + d.Name + " "
	for r, tm := range batch.Times {
		b.WriteString(prefix)
		for sn := range batch.Columns {
			if sn > 0 {
				b.WriteByte(',')
			}
			b.WriteString(s.Sensors[sn].Name)
			b.WriteByte('=')
			b.Write(strconv.AppendFloat(num[:0], batch.Columns[sn].Doubles[r], 'g', -1, 64))
		}
		b.WriteByte(' ')
		b.Write(strconv.AppendInt(num[:0], tm, 10))
		b.WriteByte('\n')
	}
}

// importLines is VictoriaMetrics's /api/v1/import format: one JSON line per
// series, with the labels the target gave the device.
func importLines(vm *victoriametrics.Target) format {
	return func(b *bytes.Buffer, s *ts.Schema, d *ts.Device, batch *ts.Batch) {
		var num [32]byte
		labels := vm.Labels(d)
		for sn := range batch.Columns {
			b.WriteString(`{"metric":{"__name__":"` + s.Sensors[sn].Name + `",` + labels + `},"values":[`)
			for r := range batch.Times {
				if r > 0 {
					b.WriteByte(',')
				}
				b.Write(strconv.AppendFloat(num[:0], batch.Columns[sn].Doubles[r], 'g', -1, 64))
			}
			b.WriteString(`],"timestamps":[`)
			for r, tm := range batch.Times {
				if r > 0 {
					b.WriteByte(',')
				}
				b.Write(strconv.AppendInt(num[:0], tm, 10))
			}
			b.WriteString("]}\n")
		}
	}
}

// serialise renders every batch tsbench sent, grouped by client in
// tsbench's order: client c owns a contiguous device range and writes batch n
// of each of its devices in turn.
func serialise(cfg *config.Config, g *gen.Generator, f format) [][][]byte {
	s := g.Schema()
	out := make([][][]byte, cfg.Clients)
	batch := g.NewBatch()
	for c := 0; c < cfg.Clients; c++ {
		devs := workload.ClientDevices(s, cfg.Clients, c)
		for n := int64(0); n < cfg.Loop; n++ {
			for i := range devs {
				g.Fill(batch, &devs[i], n, nil)
				var b bytes.Buffer
				f(&b, s, &devs[i], batch)
				out[c] = append(out[c], b.Bytes())
			}
		}
	}
	return out
}

// send posts every client's bodies, one request at a time per client, the
// clients in parallel, each over its own kept-alive connection. It uses
// fasthttp's client bare, with a request and response per client reused:
// an independent lean client, the one TSBS's InfluxDB loader uses, and half
// of net/http's cost per request. (tsbench's own write path, the
// httpclient.Poster, is leaner still; the baseline does not share its code,
// so that a fault in it cannot hide in both figures.)
func send(ctx context.Context, url string, bodies [][][]byte) (float64, error) {
	var wg sync.WaitGroup
	errs := make(chan error, len(bodies))
	addr := strings.SplitN(strings.TrimPrefix(url, "http://"), "/", 2)[0]
	start := time.Now()
	for _, mine := range bodies {
		wg.Add(1)
		go func(mine [][]byte) {
			defer wg.Done()
			client := &fasthttp.HostClient{Addr: addr, MaxConns: 1, WriteBufferSize: 64 << 10}
			defer client.CloseIdleConnections()
			req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			req.SetRequestURI(url)
			req.Header.SetMethod(fasthttp.MethodPost)
			for _, body := range mine {
				if ctx.Err() != nil {
					errs <- ctx.Err()
					return
				}
				req.SetBodyRaw(body)
				if err := client.DoTimeout(req, resp, time.Minute); err != nil {
					errs <- err
					return
				}
				if resp.StatusCode()/100 != 2 {
					errs <- fmt.Errorf("%d: %s", resp.StatusCode(), resp.Body())
					return
				}
			}
		}(mine)
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	close(errs)
	if err := <-errs; err != nil {
		return 0, err
	}
	return secs, nil
}
