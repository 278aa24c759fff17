package results

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/summary"
)

// ResourcesCSV is the file name of the resource samples written by WriteCSV.
const ResourcesCSV = "resources.csv"

// WriteCSV writes a run as CSV files into dir: result.csv, latency.csv and
// intervals.csv as a run directory has them, plus resources.csv when the run
// has resource samples. It returns the files written.
func WriteCSV(dir string, s *summary.Summary) ([]string, error) {
	if err := report.WriteCSV(dir, s); err != nil {
		return nil, err
	}
	files := []string{filepath.Join(dir, report.ResultCSV), filepath.Join(dir, report.LatencyCSV), filepath.Join(dir, report.IntervalsCSV)}
	if s.Resources == nil || len(s.Resources.Samples)+len(s.Resources.Remote) == 0 {
		return files, nil
	}
	var buf bytes.Buffer
	if err := writeResourcesCSV(&buf, s.Resources); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, ResourcesCSV)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return nil, err
	}
	return append(files, path), nil
}

func writeResourcesCSV(w io.Writer, r *summary.Resources) error {
	cw := csv.NewWriter(w)
	header := []string{"source", "t_s", "time", "hostname", "tool_cpu_percent", "tool_rss_bytes", "server_pid", "server_cpu_percent",
		"server_rss_bytes", "server_read_bytes_per_s", "server_write_bytes_per_s", "host_cpu_percent", "host_mem_used_bytes",
		"host_mem_total_bytes", "host_disk_read_bytes_per_s", "host_disk_write_bytes_per_s", "host_net_recv_bytes_per_s",
		"host_net_sent_bytes_per_s"}
	if err := cw.Write(header); err != nil {
		return err
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	for _, src := range []struct {
		name    string
		samples []summary.ResourceSample
	}{{"local", r.Samples}, {"remote", r.Remote}} {
		for _, s := range src.samples {
			row := []string{src.name, f(s.T), s.Time.UTC().Format(time.RFC3339Nano), s.Hostname}
			if p := s.Tool; p != nil {
				row = append(row, f(p.CPUPercent), u(p.RSSBytes))
			} else {
				row = append(row, "", "")
			}
			if p := s.Server; p != nil {
				row = append(row, strconv.Itoa(int(p.PID)), f(p.CPUPercent), u(p.RSSBytes), f(p.ReadBytesPerS), f(p.WriteBytesPerS))
			} else {
				row = append(row, "", "", "", "", "")
			}
			if h := s.Host; h != nil {
				row = append(row, f(h.CPUPercent), u(h.MemUsedBytes), u(h.MemTotalBytes), f(h.DiskReadBytesPerS),
					f(h.DiskWriteBytesPerS), f(h.NetRecvBytesPerS), f(h.NetSentBytesPerS))
			} else {
				row = append(row, "", "", "", "", "", "", "")
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteHDRLog writes the run's latency histograms in the HdrHistogram
// interval log format (as HdrHistogram's HistogramLogWriter does, readable
// by HistogramLogProcessor and hdrhistogram-go's log reader), one tag per
// operation. Values are microseconds; the Interval_Max column is in
// milliseconds. When the intervals carry their own histograms the log has
// one histogram per operation and second; otherwise one per operation for
// the whole measured phase. It returns the number of histograms written.
func WriteHDRLog(w io.Writer, s *summary.Summary) (int, error) {
	lw := hdrhistogram.NewHistogramLogWriter(w)
	start := s.MeasureStarted
	if start.IsZero() {
		start = s.Started
	}
	startMs := start.UnixMilli()
	if err := lw.OutputLogFormatVersion(); err != nil {
		return 0, err
	}
	if err := lw.OutputComment(fmt.Sprintf("[tsbench run %s, target %s: latency in microseconds, Interval_Max in milliseconds]", s.RunID, s.Target)); err != nil {
		return 0, err
	}
	// StartTime and BaseTime are written here, not with the log writer's
	// methods: those drop the milliseconds, and every interval's absolute
	// time (base + offset) would move by up to a second. Both readers take
	// the seconds as a decimal number, as HdrHistogram's Java writer has it.
	secs := float64(startMs) / 1000
	if _, err := fmt.Fprintf(w, "#[StartTime: %.3f (seconds since epoch), %s]\n#[BaseTime: %.3f (seconds since epoch)]\n",
		secs, time.UnixMilli(startMs).UTC().Format("2006-01-02T15:04:05.000Z07:00"), secs); err != nil {
		return 0, err
	}
	if err := lw.OutputLegend(); err != nil {
		return 0, err
	}
	n := 0
	perInterval := false
	for _, iv := range s.Intervals {
		for _, o := range iv.Ops {
			if o.Histogram == "" {
				continue
			}
			perInterval = true
			if err := writeLogLine(w, o.Name, iv.Start, iv.Seconds, o.Histogram); err != nil {
				return n, err
			}
			n++
		}
	}
	if perInterval {
		return n, nil
	}
	for _, o := range s.Operations {
		if o.Histogram == "" {
			continue
		}
		if err := writeLogLine(w, o.Name, 0, s.Elapsed, o.Histogram); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// writeLogLine writes one interval line: Tag=NAME,start,length,max,payload.
// The payload is the histogram in the V2 compressed encoding, base64 (what
// Encode returns; the summary wraps that once more in base64).
func writeLogLine(w io.Writer, tag string, start, length float64, encoded string) error {
	h, err := metrics.Decode(encoded)
	if err != nil {
		return fmt.Errorf("%s: stored histogram unreadable: %w", tag, err)
	}
	payload, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "Tag=%s,%.3f,%.3f,%.3f,%s\n", tag, start, length, float64(h.Max())/1000, payload)
	return err
}

// WriteHDRLogFile writes WriteHDRLog's output to dir/<run-id>.hlog and
// returns the path.
func WriteHDRLogFile(dir string, s *summary.Summary) (string, error) {
	var buf bytes.Buffer
	if _, err := WriteHDRLog(&buf, s); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, s.RunID+".hlog")
	return path, os.WriteFile(path, buf.Bytes(), 0o644)
}
