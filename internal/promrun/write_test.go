package promrun

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/golang/snappy"
	"github.com/prometheus/prometheus/prompb"

	"github.com/tsbench/tsbench/internal/promshape"
	"github.com/tsbench/tsbench/internal/remotewrite"
	"github.com/tsbench/tsbench/internal/targets/promql"
)

// BenchmarkWriteRequest builds a worker's remote write requests: whole
// scrapes of 1,000 targets (41,000 samples each), computed, encoded and
// compressed, as the worker sends them. Its CPU per sample is the tool's
// own cost of the prometheus workload's writes, beside the store's.
func BenchmarkWriteRequest(b *testing.B) {
	c := Plan(Config{Shape: promshape.Config{Targets: 1000, Interval: 15 * time.Second, ChurnShare: 0.05,
		ChurnPeriod: time.Minute, Seed: 1}, Scrapes: 10, Engine: promql.EnginePrometheus}, time.UnixMilli(1_700_000_000_000), "bench")
	c.WriteOnly = true
	r, err := New(c)
	if err != nil {
		b.Fatal(err)
	}
	w := &worker{r: r, sc: r.m.NewScraper(), lo: 0, hi: c.Shape.Targets}
	var samples, bytes int64
	b.ReportAllocs()
	b.ResetTimer()
	for k := int64(0); k < int64(b.N); k++ {
		n, _, err := w.encode(k)
		if err != nil {
			b.Fatal(err)
		}
		samples += n
		bytes += int64(len(w.body))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(samples), "ns/sample")
	b.ReportMetric(float64(bytes)/float64(samples), "bytes/sample")
}

// Every request a worker sends decodes, with Prometheus' own types, to
// the samples of its slots' scrape in the Scraper's order, staleness
// markers (bit for bit) and replaced targets included.
func TestWriteRequestIsTheScrape(t *testing.T) {
	r := testRun(t)
	w := &worker{r: r, sc: r.m.NewScraper(), lo: 1, hi: 4}
	ref := r.m.NewScraper()
	var stale int64
	for k := range r.cfg.Scrapes {
		var want []string
		if err := ref.ScrapeSlots(k, 1, 4, func(ls []remotewrite.Label, ts int64, v float64) {
			want = append(want, sampleText(ls, ts, v))
		}); err != nil {
			t.Fatal(err)
		}
		n, st, err := w.encode(k)
		if err != nil {
			t.Fatal(err)
		}
		stale += st
		raw, err := snappy.Decode(nil, w.body)
		if err != nil {
			t.Fatal(err)
		}
		var req prompb.WriteRequest
		if err := req.Unmarshal(raw); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range req.Timeseries {
			ls := make([]remotewrite.Label, len(s.Labels))
			for i, l := range s.Labels {
				ls[i] = remotewrite.Label{Name: l.Name, Value: l.Value}
			}
			for _, p := range s.Samples {
				got = append(got, sampleText(ls, p.Timestamp, p.Value))
			}
		}
		if int(n) != len(want) || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("scrape %d: %d samples\n%s\nwant\n%s", k, n, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if stale == 0 {
		t.Error("no staleness marker in 20 scrapes with churn: the test misses the replaced targets")
	}
}

func sampleText(ls []remotewrite.Label, t int64, v float64) string {
	return fmt.Sprintf("%s %d %#x", promshape.Key(ls), t, math.Float64bits(v))
}
