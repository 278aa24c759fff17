package monitor

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// Run samples every interval until ctx ends, handing each sample (stamped
// with the host name) and its index to emit: the server mode of 'tsbench
// monitor', run on a database host. The first sample is taken after one
// interval, when rates are known. An error from emit ends Run. It returns
// the number of samples emitted.
func Run(ctx context.Context, opts Options, interval time.Duration, emit func(seq int, s summary.ResourceSample) error) (int, error) {
	if interval <= 0 {
		interval = time.Second
	}
	opts.Hostname = true
	s := NewSampler(opts)
	s.Sample(ctx, time.Now()) // baseline
	tick := time.NewTicker(interval)
	defer tick.Stop()
	n := 0
	for {
		select {
		case <-ctx.Done():
			return n, nil
		case now := <-tick.C:
			if err := emit(n, s.Sample(context.WithoutCancel(ctx), now)); err != nil {
				return n, err
			}
			n++
		}
	}
}

// JSONLines returns an emit function for Run that writes each sample as
// one line of JSON to w, synced when w is a file: a killed monitor keeps
// what it wrote.
func JSONLines(w io.Writer) func(int, summary.ResourceSample) error {
	enc := json.NewEncoder(w)
	return func(_ int, smp summary.ResourceSample) error {
		if err := enc.Encode(&smp); err != nil {
			return err
		}
		if f, ok := w.(interface{ Sync() error }); ok {
			_ = f.Sync()
		}
		return nil
	}
}

// ReadFile reads the samples of a 'tsbench monitor' file. A torn last line
// (the monitor was killed while writing) is ignored.
func ReadFile(path string) ([]summary.ResourceSample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []summary.ResourceSample
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	line := 0
	var pending error
	for sc.Scan() {
		line++
		if len(sc.Bytes()) == 0 {
			continue
		}
		if pending != nil {
			return nil, pending // a bad line that was not the last
		}
		var s summary.ResourceSample
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil || s.Time.IsZero() {
			pending = fmt.Errorf("%s:%d: not a monitor sample (write the file with 'tsbench monitor --out')", path, line)
			continue
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(out) == 0 && pending != nil {
		return nil, pending
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out, nil
}

// Merge adds to s the samples taken during its measured phase (with a
// second's margin either side), with T counted from the phase's start. A
// sample s already holds (same host, same time: it came from a file and
// from the results store both) is not added again. It returns how many
// were merged; 0 also when s has no measured-phase start.
func Merge(s *summary.Summary, samples []summary.ResourceSample) int {
	if s.MeasureStarted.IsZero() {
		return 0
	}
	start := s.MeasureStarted
	end := start.Add(time.Duration(s.Elapsed * float64(time.Second)))
	type key struct {
		host string
		at   int64
	}
	held := map[key]bool{}
	if s.Resources != nil {
		for _, smp := range s.Resources.Remote {
			held[key{smp.Hostname, smp.Time.UnixNano()}] = true
		}
	}
	var picked []summary.ResourceSample
	for _, smp := range samples {
		if smp.Time.Before(start.Add(-time.Second)) || smp.Time.After(end.Add(time.Second)) {
			continue
		}
		k := key{smp.Hostname, smp.Time.UnixNano()}
		if held[k] {
			continue
		}
		held[k] = true
		smp.T = smp.Time.Sub(start).Seconds()
		picked = append(picked, smp)
	}
	if len(picked) == 0 {
		return 0
	}
	if s.Resources == nil {
		s.Resources = &summary.Resources{IntervalSeconds: 1}
	}
	s.Resources.Remote = append(s.Resources.Remote, picked...)
	sort.Slice(s.Resources.Remote, func(i, j int) bool { return s.Resources.Remote[i].Time.Before(s.Resources.Remote[j].Time) })
	return len(picked)
}
