package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/tsbench/tsbench/internal/summary"
)

// Footer writes the lines under a run's matrices: its thresholds and one
// line of resource use. A finished run and a stored one end alike.
func Footer(w io.Writer, s *summary.Summary) {
	Thresholds(w, s.Thresholds)
	if line := ResourceLine(s.Resources); line != "" {
		fmt.Fprintln(w, line)
	}
}

// Thresholds lists each threshold with passed or FAILED and its actual
// value (or why there is none); nothing when there are none.
func Thresholds(w io.Writer, rs []summary.ThresholdResult) {
	if len(rs) == 0 {
		return
	}
	fmt.Fprintln(w, "Thresholds:")
	for _, r := range rs {
		state := "passed"
		if !r.Passed {
			state = "FAILED"
		}
		if r.Reason != "" {
			fmt.Fprintf(w, "  %s  %s (%s)\n", state, r.Expr, r.Reason)
			continue
		}
		fmt.Fprintf(w, "  %s  %s (actual %.4g)\n", state, r.Expr, r.Actual)
	}
}

// ResourceLine sums up resource samples in one line: mean and peak CPU
// (in cores) and peak memory of the tool, the server and the host.
func ResourceLine(r *summary.Resources) string {
	if r == nil || len(r.Samples) == 0 {
		return ""
	}
	type agg struct {
		sum, peak float64
		rss       uint64
		n         int
	}
	var tool, server, host agg
	cores := 0
	for _, s := range r.Samples {
		if p := s.Tool; p != nil {
			tool.sum += p.CPUPercent / 100
			tool.peak = max(tool.peak, p.CPUPercent/100)
			tool.rss = max(tool.rss, p.RSSBytes)
			tool.n++
		}
		if p := s.Server; p != nil {
			server.sum += p.CPUPercent / 100
			server.peak = max(server.peak, p.CPUPercent/100)
			server.rss = max(server.rss, p.RSSBytes)
			server.n++
		}
		if h := s.Host; h != nil {
			c := h.CPUPercent * float64(h.Cores) / 100
			host.sum += c
			host.peak = max(host.peak, c)
			host.rss = max(host.rss, h.MemUsedBytes)
			host.n++
			cores = h.Cores
		}
	}
	var parts []string
	part := func(name string, a agg, mem string) {
		if a.n == 0 {
			return
		}
		parts = append(parts, fmt.Sprintf("%s %.2f cores mean, %.2f peak, %s %s", name, a.sum/float64(a.n), a.peak,
			HumanBytes(int64(a.rss)), mem))
	}
	part("tool", tool, "peak RSS")
	if r.Server != nil {
		part(fmt.Sprintf("server (%s, pid %d)", r.Server.Name, r.Server.PID), server, "peak RSS")
	}
	part(fmt.Sprintf("host (%d cores)", cores), host, "peak in use")
	return "Resources: " + strings.Join(parts, "; ")
}
