// Command tsbench-baseline checks that tsbench is not the bottleneck it
// measures. It writes the same data to a database twice in one run — once
// through tsbench's runner and target, once through a minimal writer that
// sends pre-serialised line-protocol bodies (serialised before the clock
// starts) over the same HTTP API with the same concurrency — and prints both
// throughputs, their ratio and tsbench's CPU seconds per million points.
// With --floor, a third writer sends the same bodies as whole requests to a
// bare socket: the least CPU per point the exchange can cost here.
//
//	go run ./cmd/tsbench-baseline --target influxdb --points 10000000
//	go run ./cmd/tsbench-baseline --target victoriametrics --points 3000000 --runs 5 # and the medians
//	go run ./cmd/tsbench-baseline --target influxdb --points 3000000 --runs 5 --floor
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
	"runtime/debug"
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
	"github.com/tsbench/tsbench/internal/targets"
	_ "github.com/tsbench/tsbench/internal/targets/all"
	"github.com/tsbench/tsbench/internal/targets/victoriametrics"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/workload"
)

// Result is one comparison: what each side measured, writing the same
// points.
type Result struct {
	Target string
	Points int64
	// Tsbench is tsbench's own side: generation, serialisation and
	// sending, through the runner.
	Tsbench Side
	// Baseline sends bodies serialised before its clock started, with
	// fasthttp: what the HTTP exchange alone (the client and the kernel's
	// loopback, charged to the sender) costs on this machine.
	Baseline Side
	// Floor (--floor) sends the same bodies as whole HTTP requests
	// written to a bare socket (sendBare); nil without it.
	Floor *Side
	Ratio float64  // Tsbench's throughput over the Baseline's
	Order []string // the sides in the order they wrote
}

// Side is what one side of a comparison measured.
type Side struct {
	Seconds       float64
	PointsPerSec  float64
	CPUPerMillion float64 // CPU seconds per million points while it sent
	Stored        int64   // points the server counted afterwards
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
	runs := flag.Int("runs", 1, "comparisons to run one after another, the sides taking turns to go first; with more than one, their medians are printed too")
	floor := flag.Bool("floor", false, "add a third side: the same bodies as whole HTTP requests built before the clock, written to a bare socket (no HTTP library), whose CPU is the exchange's floor on this machine")
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
		r, err := Compare(ctx, *name, Plan{Points: *points, First: i, Settle: *settle, Floor: *floor})
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
		if *floor {
			fmt.Printf("== medians of %d runs: floor %.3f CPU s per million points; tsbench above it %.3f\n", *runs, m.FloorCPUPerMillion, m.AboveFloor)
		}
	}
}

func (r *Result) print() {
	fmt.Printf("target %s, %d points each, 100 devices x 10 DOUBLE sensors, 10 clients, 100-row batches; in turn: %s\n", r.Target, r.Points, strings.Join(r.Order, ", "))
	r.Tsbench.print("tsbench:  ")
	r.Baseline.print("baseline: ")
	fmt.Printf("ratio tsbench/baseline: %.3f\n", r.Ratio)
	fmt.Printf("tsbench CPU: %.3f s per million points (generation, serialisation, sending)\n", r.Tsbench.CPUPerMillion)
	fmt.Printf("baseline CPU: %.3f s per million points (sending pre-serialised bodies only)\n", r.Baseline.CPUPerMillion)
	if f := r.Floor; f != nil {
		f.print("floor:    ")
		fmt.Printf("floor CPU: %.3f s per million points (whole requests built before the clock, written to a bare socket); tsbench above it: %.3f\n",
			f.CPUPerMillion, r.Tsbench.CPUPerMillion-f.CPUPerMillion)
	}
}

func (s *Side) print(label string) {
	fmt.Printf("%s%12.0f points/s (%.2f s, stored %d)\n", label, s.PointsPerSec, s.Seconds, s.Stored)
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
	// With the floor: its CPU per point, and tsbench's above it run by
	// run (generation, serialisation and measurement).
	FloorCPUPerMillion float64
	AboveFloor         float64
}

func medians(rs []*Result) Medians {
	pick := func(f func(*Result) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		return median(v)
	}
	m := Medians{
		Ratio:                 pick(func(r *Result) float64 { return r.Ratio }),
		TsbenchCPUPerMillion:  pick(func(r *Result) float64 { return r.Tsbench.CPUPerMillion }),
		BaselineCPUPerMillion: pick(func(r *Result) float64 { return r.Baseline.CPUPerMillion }),
		CPURatio:              pick(func(r *Result) float64 { return r.Tsbench.CPUPerMillion / r.Baseline.CPUPerMillion }),
	}
	if rs[0].Floor != nil {
		m.FloorCPUPerMillion = pick(func(r *Result) float64 { return r.Floor.CPUPerMillion })
		m.AboveFloor = pick(func(r *Result) float64 { return r.Tsbench.CPUPerMillion - r.Floor.CPUPerMillion })
	}
	return m
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

// Plan is how one comparison runs.
type Plan struct {
	Points int64         // on each side, rounded up to 100,000
	First  int           // the side that writes first, counted round the sides
	Settle time.Duration // pause before each side
	Floor  bool          // add the bare-socket side
}

// Compare writes the same data through tsbench, through the baseline
// writer and, with p.Floor, through the bare socket, each into a fresh
// database, after a pause of p.Settle each. Runs that turn p.First round
// the sides give a server that is still warming up (a fresh process,
// caches, the first series) to none of them, and the pause keeps one
// side's background work (a compaction of what it wrote) out of the next
// side's time.
func Compare(ctx context.Context, name string, p Plan) (*Result, error) {
	loop := max(1, (p.Points+99_999)/100_000)
	cfg, err := config100x10(name, loop)
	if err != nil {
		return nil, err
	}
	d, err := targets.Lookup(name)
	if err != nil {
		return nil, err
	}
	r, err := runner.New(cfg, d, targets.Options{Database: cfg.Database})
	if err != nil {
		return nil, err
	}
	res := &Result{Target: name, Points: loop * 100_000}
	sides := []struct {
		name string
		run  func() error
	}{
		{"tsbench", func() error { return res.runTsbench(ctx, r) }},
		{"the baseline", func() (err error) {
			res.Baseline, err = res.runLean(ctx, cfg, d, r, send)
			return err
		}},
		{"the floor", func() error {
			f, err := res.runLean(ctx, cfg, d, r, sendBare)
			res.Floor = &f
			return err
		}},
	}
	if !p.Floor {
		sides = sides[:2]
	}
	for i := range sides {
		side := sides[(p.First+i)%len(sides)]
		res.Order = append(res.Order, side.name)
		// The last side's bodies (some 100 MB) are garbage now: collect
		// them and give their pages back before this side's clock starts,
		// so that no side pays for another's memory.
		debug.FreeOSMemory()
		select {
		case <-time.After(p.Settle):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if err := side.run(); err != nil {
			return nil, fmt.Errorf("%s: %w", side.name, err)
		}
	}
	res.Ratio = res.Tsbench.PointsPerSec / res.Baseline.PointsPerSec
	return res, nil
}

// runTsbench is tsbench's side: the runner, with its verification. Its
// CPU is the runner's while it measured, as the other sides' is while they
// send: neither counts setting up the database or counting what it stored.
func (res *Result) runTsbench(ctx context.Context, r *runner.Runner) error {
	s, err := r.Run(ctx)
	if err != nil {
		return fmt.Errorf("tsbench run: %w", err)
	}
	w := s.Op("INGESTION")
	res.Tsbench = Side{Seconds: s.Elapsed, PointsPerSec: w.Throughput,
		CPUPerMillion: sysinfo.CPUPerMillionPoints(s.Tool.MeasuredCPUSeconds, w.OKPoints)}
	if s.Verify != nil {
		res.Tsbench.Stored = s.Verify.StoredPoints
	}
	return nil
}

// sender posts every client's bodies, the clients in parallel, and says
// how long that took.
type sender func(ctx context.Context, url string, bodies [][][]byte) (float64, error)

// runLean is a side that sends pre-serialised bodies: the runner's data,
// serialised before the clock starts, sent by send into a fresh database
// and counted.
func (res *Result) runLean(ctx context.Context, cfg *config.Config, d *targets.Driver, r *runner.Runner, send sender) (Side, error) {
	admin, err := d.Open(ctx, targets.Options{Database: cfg.Database})
	if err != nil {
		return Side{}, err
	}
	defer admin.Close()
	if err := admin.Setup(ctx, r.Schema(), true); err != nil {
		return Side{}, err
	}
	format := lineProtocol
	if vm, ok := admin.(*victoriametrics.Target); ok {
		format = importLines(vm)
	}
	bodies := serialise(cfg, r.Generator(), format)
	before := sysinfo.SelfUsage()
	secs, err := send(ctx, endpoints[res.Target], bodies)
	if err != nil {
		return Side{}, err
	}
	s := Side{
		Seconds:       secs,
		PointsPerSec:  float64(res.Points) / secs,
		CPUPerMillion: sysinfo.CPUPerMillionPoints(sysinfo.CPUSince(before), res.Points),
	}
	s.Stored, err = admin.Count(ctx, ts.CountRange{})
	return s, err
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
		devs := workload.ClientDevices(cfg, s, c)
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
