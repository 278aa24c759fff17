// Command tsbench-memcheck checks that tsbench's memory stays flat over a
// long run. It runs the real tsbench binary as a child process against the
// null target, closed loop (no rate: as fast as tsbench goes), samples the
// child's resident set size (VmRSS in /proc/PID/status) once a second, and
// prints the RSS at --first and at the end of --duration, the peak, and the
// growth between the two. It exits 1 when the growth exceeds --max-growth,
// or when the run could not be measured (tsbench failed or ended early);
// bad flags exit 2. Each of the two figures the growth compares is the
// highest reading in the --window (10 s) up to it, so that the GC's
// sawtooth cannot decide the check; the single readings are printed too.
//
//	go run ./cmd/tsbench-memcheck                                  # 10 min, tsbench's default shape
//	go run ./cmd/tsbench-memcheck --clients 1000 --devices 1000 --batch 1
//	go run ./cmd/tsbench-memcheck --first 10s --duration 60s       # CI's short form
//
// It is a command rather than a test because the figure only means something
// for the binary users run, for minutes, at full speed: a unit test in the
// same process would measure the test harness too, and would hold a CI test
// run for ten minutes.
//
// What the child writes is left at tsbench's defaults — the results store
// (an SQLite file under the data directory), the run directory, the progress
// lines (to a file: not a terminal, so one plain line every 5 s), resource
// sampling — because those are what grows if anything does. Only the data
// directory is a temporary one, so that a check run leaves nothing in the
// user's store, and --json is added (written once, at the end) for the
// throughput the run reached.
//
// Sizes are decimal megabytes (10^6 bytes), as tsbench prints them.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1 // memory grew too much, or the check could not be made
	exitUsage  = 2
)

// killGrace is how long past --duration the child may take (start-up,
// final summary, results store) before it is killed.
const killGrace = 60 * time.Second

const mb = 1e6

// options are the command line.
type options struct {
	tsbench   string
	duration  time.Duration
	first     time.Duration
	maxGrowth float64 // MB
	window    time.Duration
	clients   int
	devices   int
	sensors   int
	batch     int
	sets      []string
	keep      bool
}

// setFlags collects repeated --set values.
type setFlags []string

func (s *setFlags) String() string     { return strings.Join(*s, " ") }
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	o, err := parseFlags(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK // -h: the usage was printed
	case errors.Is(err, errPrinted):
		return exitUsage
	case err != nil:
		fmt.Fprintln(os.Stderr, "tsbench-memcheck:", err)
		return exitUsage
	}
	work, err := os.MkdirTemp("", "tsbench-memcheck-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "tsbench-memcheck:", err)
		return exitFailed
	}
	if o.keep {
		fmt.Printf("work directory (kept): %s\n", work)
	} else {
		defer os.RemoveAll(work)
	}
	bin := o.tsbench
	if bin == "" {
		if bin, err = build(work); err != nil {
			fmt.Fprintln(os.Stderr, "tsbench-memcheck:", err)
			return exitFailed
		}
	}
	res, err := measure(o, bin, work)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tsbench-memcheck:", err)
		return exitFailed
	}
	return res.print(o)
}

// errPrinted is a flag error the flag package has already printed, naming
// the flag and the value, with the usage.
var errPrinted = errors.New("bad flag")

func parseFlags(args []string) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("tsbench-memcheck", flag.ContinueOnError)
	fs.StringVar(&o.tsbench, "tsbench", "", "the tsbench binary to check (default: go build ./cmd/tsbench into a temporary directory)")
	fs.DurationVar(&o.duration, "duration", 10*time.Minute, "length of the measured run (tsbench run --duration)")
	fs.DurationVar(&o.first, "first", time.Minute, "when the reference RSS is taken; the growth is RSS at the end minus RSS here")
	growth := fs.String("max-growth", "10MB", "largest allowed growth from --first to the end, in MB (10^6 bytes); the MB suffix is optional")
	fs.DurationVar(&o.window, "window", 10*time.Second, "each RSS figure is the highest reading in this window up to its time (0: the single reading)")
	// 0 leaves a key at tsbench's default, so that the default shape is
	// the one users get without flags.
	fs.IntVar(&o.clients, "clients", 0, "CLIENT_NUMBER (0: tsbench's default)")
	fs.IntVar(&o.devices, "devices", 0, "DEVICE_NUMBER, at least --clients (0: tsbench's default)")
	fs.IntVar(&o.sensors, "sensors", 0, "SENSOR_NUMBER (0: tsbench's default)")
	fs.IntVar(&o.batch, "batch", 0, "BATCH_SIZE_PER_WRITE, rows per device per write (0: tsbench's default)")
	fs.Var((*setFlags)(&o.sets), "set", "pass KEY=VALUE to tsbench run --set (repeatable), e.g. OPERATION_PROPORTION=1")
	fs.BoolVar(&o.keep, "keep", false, "keep the work directory (the child's output, results store and summary)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, errPrinted
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q: everything is a flag (see -h)", fs.Arg(0))
	}
	var err error
	if o.maxGrowth, err = parseMB(*growth); err != nil {
		return nil, fmt.Errorf("--max-growth %q: %w", *growth, err)
	}
	switch {
	case o.duration <= 0:
		return nil, fmt.Errorf("--duration %v: must be positive", o.duration)
	case o.first <= 0:
		return nil, fmt.Errorf("--first %v: must be positive", o.first)
	case o.first >= o.duration:
		// The end sample is taken a second before the end (see endAt).
		return nil, fmt.Errorf("--first %v: must be less than --duration (%v)", o.first, o.duration)
	case o.duration-o.first < 2*time.Second:
		return nil, fmt.Errorf("--first %v: leaves less than 2s before the end of --duration %v: nothing to compare", o.first, o.duration)
	case o.window < 0:
		return nil, fmt.Errorf("--window %v: must be 0 or more", o.window)
	case o.window >= o.duration-o.first:
		// Overlapping windows would share their highest reading and hide
		// any growth.
		return nil, fmt.Errorf("--window %v: must be less than --duration - --first (%v)", o.window, o.duration-o.first)
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"clients", o.clients}, {"devices", o.devices}, {"sensors", o.sensors}, {"batch", o.batch}} {
		if f.v < 0 {
			return nil, fmt.Errorf("--%s %d: must be 0 (tsbench's default) or more", f.name, f.v)
		}
	}
	for _, s := range o.sets {
		if k, _, ok := strings.Cut(s, "="); !ok || k == "" {
			return nil, fmt.Errorf("--set %q: want KEY=VALUE", s)
		}
	}
	if o.tsbench != "" {
		if st, err := os.Stat(o.tsbench); err != nil {
			return nil, fmt.Errorf("--tsbench %q: %w", o.tsbench, err)
		} else if st.IsDir() {
			return nil, fmt.Errorf("--tsbench %q: is a directory, want the tsbench binary", o.tsbench)
		}
	}
	return o, nil
}

// parseMB reads "10", "10MB" or "2.5 MB".
func parseMB(s string) (float64, error) {
	t := strings.TrimSpace(strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(s)), "MB"))
	v, err := strconv.ParseFloat(t, 64)
	// ParseFloat takes NaN and Inf, and against NaN every growth would pass.
	if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, errors.New("want a number of MB >= 0, e.g. 10MB")
	}
	return v, nil
}

// build compiles the tsbench command of this module into dir. The package is
// named by import path so that it builds from any directory of the module.
func build(dir string) (string, error) {
	bin := filepath.Join(dir, "tsbench")
	fmt.Fprintln(os.Stderr, "tsbench-memcheck: building tsbench (go build -o", bin, "github.com/tsbench/tsbench/cmd/tsbench)")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/tsbench/tsbench/cmd/tsbench")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build tsbench: %w (give a binary with --tsbench)", err)
	}
	return bin, nil
}

// childArgs is the tsbench command line: the null target, closed loop, for
// the duration, every output at its default except the data directory.
func childArgs(o *options, work string) []string {
	args := []string{"run", "--target", "null", "--duration", o.duration.String(),
		"--data-dir", filepath.Join(work, "data"), "--json", filepath.Join(work, "summary.json")}
	for _, f := range []struct {
		flag string
		v    int
	}{{"--clients", o.clients}, {"--devices", o.devices}, {"--sensors", o.sensors}, {"--batch-size", o.batch}} {
		if f.v > 0 {
			args = append(args, f.flag, strconv.Itoa(f.v))
		}
	}
	for _, s := range o.sets {
		args = append(args, "--set", s)
	}
	return args
}

// childEnv is this process's environment without the variables that would
// send the run's results elsewhere: a user's TSBENCH_RESULTS could be a
// shared PostgreSQL store, which a check must not write to. Without them the
// store is tsbench's default, an SQLite file in the (temporary) data
// directory.
func childEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TSBENCH_RESULTS=") || strings.HasPrefix(kv, "TSBENCH_DATA_DIR=") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// sample is one RSS reading, at elapsed since the child started.
type sample struct {
	elapsed time.Duration
	rss     int64 // bytes
}

// result is what one check saw.
type result struct {
	args     []string
	samples  []sample
	exitErr  error // the child's exit (nil: status 0)
	killed   bool  // killed at duration + killGrace
	summary  *childSummary
	sumErr   error
	stderr   string // the child's stderr file
	sampling error  // why sampling stopped early, if it did
}

// measure runs the child and samples its RSS once a second until it exits.
func measure(o *options, bin, work string) (*result, error) {
	res := &result{args: childArgs(o, work), stderr: filepath.Join(work, "stderr.txt")}
	stdout, err := os.Create(filepath.Join(work, "stdout.txt"))
	if err != nil {
		return nil, err
	}
	defer stdout.Close()
	stderr, err := os.Create(res.stderr)
	if err != nil {
		return nil, err
	}
	defer stderr.Close()

	ctx, cancel := context.WithTimeout(context.Background(), o.duration+killGrace)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, res.args...)
	cmd.Stdout, cmd.Stderr, cmd.Env = stdout, stderr, childEnv()
	fmt.Printf("running: %s %s\n", bin, strings.Join(res.args, " "))
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	start := time.Now()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		res.samples, res.sampling = sampleRSS(cmd.Process.Pid, start, done)
	}()
	res.exitErr = cmd.Wait()
	close(done)
	wg.Wait()
	res.killed = ctx.Err() != nil
	res.summary, res.sumErr = readSummary(filepath.Join(work, "summary.json"))
	return res, nil
}

// sampleRSS reads the process's VmRSS once a second, ticking from start,
// until done is closed or the process is gone. Reading stops with done (the
// child has been waited for), so that a recycled pid is never read.
func sampleRSS(pid int, start time.Time, done <-chan struct{}) ([]sample, error) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var out []sample
	for {
		select {
		case <-done:
			return out, nil
		case now := <-tick.C:
			rss, err := vmRSS(pid)
			if err != nil {
				select {
				case <-done: // it just exited: not an error
					return out, nil
				default:
				}
				if errors.Is(err, errNoRSS) {
					continue // a zombie about to be reaped
				}
				return out, err
			}
			out = append(out, sample{elapsed: now.Sub(start), rss: rss})
		}
	}
}

var errNoRSS = errors.New("no VmRSS line")

// vmRSS reads the resident set size from /proc/PID/status (Linux): the
// figure top and ps show and a memory limit counts. Unlike the Go runtime's
// own statistics it includes the binary's pages and memory outside the Go
// heap, and leaves out heap pages never touched.
func vmRSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("read RSS (this command needs Linux's /proc): %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:")
		if !ok {
			continue
		}
		f := strings.Fields(rest) // "  65432 kB"
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("/proc/%d/status: unexpected VmRSS line %q", pid, sc.Text())
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/status: VmRSS %q: %w", pid, f[0], err)
		}
		return kb * 1024, nil
	}
	return 0, errNoRSS
}

// childSummary is the part of tsbench's JSON summary the check reports.
type childSummary struct {
	StopReason string  `json:"stop_reason"`
	Elapsed    float64 `json:"elapsed_s"`
	Operations []struct {
		Name       string  `json:"name"`
		OKOps      int64   `json:"ok_operations"`
		OKPoints   int64   `json:"ok_points"`
		FailOps    int64   `json:"fail_operations"`
		Throughput float64 `json:"throughput_points_per_s"`
	} `json:"operations"`
	Config struct {
		Clients    int    `json:"client_number"`
		Devices    int    `json:"device_number"`
		Sensors    int    `json:"sensor_number"`
		Batch      int    `json:"batch_size_per_write"`
		Proportion string `json:"operation_proportion"`
	} `json:"config"`
}

func readSummary(path string) (*childSummary, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s childSummary
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}

// at returns the first sample taken at or after t (less half a second, for
// the ticker's phase), or false.
func (r *result) at(t time.Duration) (sample, bool) {
	for _, s := range r.samples {
		if s.elapsed >= t-500*time.Millisecond {
			return s, true
		}
	}
	return sample{}, false
}

// highest returns the highest reading in the window that ends with s.
// RSS goes up and down by several MB with each GC cycle and each return of
// memory to the OS (about 60-68 MB within seconds in tsbench's default
// shape), so two single readings could differ by most of a 10 MB limit
// with nothing growing; the tops of that sawtooth are steady unless
// something does grow.
func (r *result) highest(s sample, window time.Duration) sample {
	h := s
	for _, x := range r.samples {
		if x.elapsed > s.elapsed-window && x.elapsed <= s.elapsed && x.rss > h.rss {
			h = x
		}
	}
	return h
}

// endAt is when the end figure is taken: one second before --duration
// after the child started. The measured phase begins a little after the
// process does (start-up, schema), so a sample at exactly --duration could
// fall after it, into the final summary and results-store write, which is
// not what a long run accumulates.
func endAt(o *options) time.Duration { return o.duration - time.Second }

func (r *result) peak() sample {
	var p sample
	for _, s := range r.samples {
		if s.rss > p.rss {
			p = s
		}
	}
	return p
}

// print reports the check and returns the exit status.
func (r *result) print(o *options) int {
	status := "0"
	if r.exitErr != nil {
		status = r.exitErr.Error()
	}
	if r.killed {
		status += fmt.Sprintf(" (killed: still running at --duration + %v)", killGrace)
	}
	fmt.Printf("tsbench exit status: %s\n", status)
	if s := r.summary; s != nil {
		c := s.Config
		fmt.Printf("shape: %d clients, %d devices x %d sensors, batch %d, OPERATION_PROPORTION %s, closed loop\n",
			c.Clients, c.Devices, c.Sensors, c.Batch, c.Proportion)
		var ops, fails int64
		var points float64
		for _, op := range s.Operations {
			ops += op.OKOps
			fails += op.FailOps
			if op.Name == "INGESTION" {
				points = op.Throughput
			}
		}
		opsPerSec := 0.0
		if s.Elapsed > 0 {
			opsPerSec = float64(ops) / s.Elapsed
		}
		fmt.Printf("tsbench reported: %.0f points/s written, %.0f operations/s (all kinds), %d failed, %.1f s measured, stop reason %s\n",
			points, opsPerSec, fails, s.Elapsed, s.StopReason)
	} else {
		fmt.Printf("tsbench summary: none (%v)\n", r.sumErr)
	}
	if r.sampling != nil {
		fmt.Printf("RSS sampling stopped early: %v\n", r.sampling)
	}
	r.printSeries(o)

	first, okFirst := r.at(o.first)
	end, okEnd := r.at(endAt(o))
	if !okFirst || !okEnd || end.elapsed < first.elapsed {
		fmt.Printf("FAIL: no RSS sample at %v and %v: tsbench ran %v (see its output below)\n",
			o.first, endAt(o), r.lastElapsed().Round(time.Second))
		r.tail()
		return exitFailed
	}
	p := r.peak()
	hf, he := r.highest(first, o.window), r.highest(end, o.window)
	growth := float64(he.rss-hf.rss) / mb
	for _, f := range []struct {
		name    string
		s, high sample
	}{{"first", first, hf}, {"end  ", end, he}} {
		fmt.Printf("RSS %s at %5.1fs: %8.1f MB", f.name, f.s.elapsed.Seconds(), float64(f.s.rss)/mb)
		if o.window > 0 {
			fmt.Printf(", highest in the %v up to it %8.1f MB", o.window, float64(f.high.rss)/mb)
		}
		fmt.Println()
	}
	fmt.Printf("RSS peak  at %5.1fs: %8.1f MB (whole process life, final summary included)\n", p.elapsed.Seconds(), float64(p.rss)/mb)
	what := "of the highest readings"
	if o.window == 0 {
		what = "of the readings"
	}
	fmt.Printf("growth end - first:  %+8.1f MB (%s; limit %.1f MB)\n", growth, what, o.maxGrowth)
	if r.exitErr != nil {
		fmt.Println("FAIL: tsbench did not exit 0, so the figures are not of a normal run")
		r.tail()
		return exitFailed
	}
	if growth > o.maxGrowth {
		fmt.Printf("FAIL: RSS grew %.1f MB between %v and %v, more than --max-growth %.1f MB\n",
			growth, first.elapsed.Round(time.Second), end.elapsed.Round(time.Second), o.maxGrowth)
		return exitFailed
	}
	fmt.Println("OK: memory is flat")
	return exitOK
}

// printSeries prints about a dozen RSS readings spread over the run, so a
// reader can tell a slope from a step.
func (r *result) printSeries(o *options) {
	if len(r.samples) == 0 {
		return
	}
	every := max(1, len(r.samples)/12)
	var b strings.Builder
	for i := 0; i < len(r.samples); i += every {
		s := r.samples[i]
		fmt.Fprintf(&b, " %.0fs:%.1f", s.elapsed.Seconds(), float64(s.rss)/mb)
	}
	fmt.Printf("RSS MB over time:%s\n", b.String())
}

func (r *result) lastElapsed() time.Duration {
	if len(r.samples) == 0 {
		return 0
	}
	return r.samples[len(r.samples)-1].elapsed
}

// tail shows the end of the child's stderr, where tsbench explains itself.
func (r *result) tail() {
	b, err := os.ReadFile(r.stderr)
	if err != nil || len(b) == 0 {
		return
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	fmt.Println("tsbench stderr (last lines):")
	for _, l := range lines[max(0, len(lines)-15):] {
		fmt.Println("  " + l)
	}
}
