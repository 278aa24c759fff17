package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// measurement is one side's figures in one turn.
type measurement struct {
	Rate float64 // queries a second, or tpmC
	Ops  int64   // queries, or transactions
	CPU  time.Duration
	// P50 and P99 are latencies in milliseconds; 0 where not measured.
	P50, P99 float64
	// ClientIO is the client I/O tsbench's run settled on (auto's
	// choice); empty for a peer's turn.
	ClientIO string
	// WaitP50 and WaitP99 are tsbench's client wait (the event loops'
	// answers waiting, after they arrived, for the loop), in milliseconds,
	// and Clock what ended its latencies; zero and empty where not
	// measured.
	WaitP50, WaitP99 float64
	Clock            string
}

// cpuPerOp is the side's client CPU per operation, in microseconds.
func (m measurement) cpuPerOp() float64 {
	if m.Ops == 0 {
		return 0
	}
	return float64(m.CPU.Microseconds()) / float64(m.Ops)
}

// takeTurns runs the peer and then tsbench, n times: neither side always
// meets the server's state (its caches, its background work) first.
func takeTurns(n int, stderr io.Writer, peerName string, peer, ours func() (measurement, error)) (peers, tsb []measurement, err error) {
	for i := 1; i <= n; i++ {
		fmt.Fprintf(stderr, "turn %d of %d: %s\n", i, n, peerName)
		p, err := peer()
		if err != nil {
			return nil, nil, fmt.Errorf("%s, turn %d: %w", peerName, i, err)
		}
		fmt.Fprintf(stderr, "turn %d of %d: tsbench\n", i, n)
		t, err := ours()
		if err != nil {
			return nil, nil, fmt.Errorf("tsbench, turn %d: %w", i, err)
		}
		peers, tsb = append(peers, p), append(tsb, t)
	}
	return peers, tsb, nil
}

// child runs a command in dir and returns its standard output and the
// CPU time (user and system) the process used; its standard error goes
// to stderr. A command that fails says what it printed.
func child(dir string, stderr io.Writer, name string, args ...string) ([]byte, time.Duration, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, io.MultiWriter(&errb, stderr)
	err := cmd.Run()
	var cpu time.Duration
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && cmd.ProcessState != nil {
		cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if err != nil {
		return out.Bytes(), cpu, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, lastLine(errb.String()+out.String()))
	}
	return out.Bytes(), cpu, nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// tsbenchRun runs tsbench with args, its summary written to a file of
// dir, and returns the summary and the process's CPU.
func tsbenchRun(binary, dir string, stderr io.Writer, args ...string) (*summary.Summary, time.Duration, error) {
	js := filepath.Join(dir, "tsbench.json")
	args = append(args, "--quiet", "--results", "off", "--resources=false", "--data-dir", dir, "--json", js)
	_, cpu, err := child(dir, stderr, binary, append([]string{"run"}, args...)...)
	if err != nil {
		return nil, 0, err
	}
	b, err := os.ReadFile(js)
	if err != nil {
		return nil, 0, err
	}
	var s summary.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, 0, fmt.Errorf("tsbench's summary: %w", err)
	}
	return &s, cpu, nil
}

// findTool is a tool's path: the flag's, else the name on PATH, else the
// first of the fallbacks that exists.
func findTool(flag, name string, fallbacks ...string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, pattern := range fallbacks {
		if m, _ := filepath.Glob(pattern); len(m) > 0 {
			slices.Sort(m)
			return m[len(m)-1], nil
		}
	}
	return "", usage{fmt.Sprintf("%s: not found on PATH; give its path with --%s", name, name)}
}

// tsbenchBinary is the tsbench binary beside this command's own, else on
// PATH, unless the flag names one.
func tsbenchBinary(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if self, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(self), "tsbench"); isFile(p) {
			return p, nil
		}
	}
	if p, err := exec.LookPath("tsbench"); err == nil {
		return p, nil
	}
	return "", usage{"tsbench: no binary beside this one nor on PATH; build it (go build -o tsbench ./cmd/tsbench) and give --tsbench PATH"}
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// column is one figure of the table: its heading, how to read it off a
// measurement, and whether more is better (for the ratio's sense).
type column struct {
	name   string
	value  func(measurement) float64
	format string
}

// writeTable prints each side's medians over the turns and tsbench's ratio
// to the peer's, with each turn's values after.
func writeTable(w io.Writer, title, peerName string, peers, tsb []measurement, cols []column) {
	fmt.Fprintf(w, "%s (medians of %d turns, each side taking its turn)\n", title, len(peers))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "side\t"
	for _, c := range cols {
		head += c.name + "\t"
	}
	fmt.Fprintln(tw, head)
	row := func(name string, ms []measurement) []float64 {
		line := name + "\t"
		var meds []float64
		for _, c := range cols {
			var xs []float64
			for _, m := range ms {
				xs = append(xs, c.value(m))
			}
			med := median(xs)
			meds = append(meds, med)
			line += fmt.Sprintf(c.format, med) + "\t"
		}
		fmt.Fprintln(tw, line)
		return meds
	}
	p, t := row(peerName, peers), row("tsbench", tsb)
	ratio := "tsbench / " + peerName + "\t"
	for i := range cols {
		r := 0.0
		if p[i] != 0 {
			r = t[i] / p[i]
		}
		ratio += fmt.Sprintf("%.3f", r) + "\t"
	}
	fmt.Fprintln(tw, ratio)
	tw.Flush()
}

// median of xs (the mean of the middle two for an even count).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

// repeated is a flag that may be given many times.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, " ") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }
