package promrun

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang/snappy"
	"github.com/prometheus/prometheus/prompb"
	writev2 "github.com/prometheus/prometheus/prompb/io/prometheus/write/v2"

	"github.com/tsbench/tsbench/internal/promshape"
	"github.com/tsbench/tsbench/internal/remotewrite"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/promql"
)

// BenchmarkWriteRequest builds a worker's requests in each protocol
// (remote write 1.0 and 2.0, OTLP): whole scrapes of 1,000 targets
// (41,000 samples each),
// computed, encoded and compressed, as the worker sends them. Its CPU per
// sample is the tool's own cost of the prometheus workload's writes,
// beside the store's; bytes/sample is what goes on the wire.
func BenchmarkWriteRequest(b *testing.B) {
	for _, v := range []remotewrite.Version{remotewrite.V1, remotewrite.V2, remotewrite.OTLP} {
		b.Run(v.String(), func(b *testing.B) {
			c := Plan(Config{Shape: promshape.Config{Targets: 1000, Interval: 15 * time.Second, ChurnShare: 0.05,
				ChurnPeriod: time.Minute, Seed: 1}, Scrapes: 10, Engine: promql.EnginePrometheus}, time.UnixMilli(1_700_000_000_000), "bench")
			c.WriteOnly = true
			r, err := New(c)
			if err != nil {
				b.Fatal(err)
			}
			w := &worker{r: r, store: versionStore{v: v}, sc: r.m.NewScraper(), lo: 0, hi: c.Shape.Targets}
			var samples, bytes int64
			b.ReportAllocs()
			b.ResetTimer()
			for k := int64(0); k < int64(b.N); k++ {
				for part := range r.requests(w.lo, w.hi).n {
					n, _, err := w.encode(k, part)
					if err != nil {
						b.Fatal(err)
					}
					samples += n
					bytes += int64(len(w.body))
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(samples), "ns/sample")
			b.ReportMetric(float64(bytes)/float64(samples), "bytes/sample")
		})
	}
}

// versionStore is a store that takes remote write of version v, and is
// never written to (the benchmark only encodes).
type versionStore struct {
	targets.PromStore
	v remotewrite.Version
}

func (s versionStore) RemoteWriteVersion() remotewrite.Version { return s.v }

// Every request a worker sends decodes, with Prometheus' own types, to
// the samples of its slots' scrape in the Scraper's order, staleness
// markers (bit for bit) and replaced targets included, in either version.
func TestWriteRequestIsTheScrape(t *testing.T) {
	for _, v := range []remotewrite.Version{remotewrite.V1, remotewrite.V2} {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) {
			requestsAreTheScrape(t, testRun(t), v, func(t *testing.T, body []byte) []string {
				return decodeRequest(t, v, body)
			}, false)
		})
	}
}

// requestsAreTheScrape has a worker of slots 1 to 3 encode every scrape of
// r by protocol v, and checks that decode reads each request back as the
// scrape's samples, in the Scraper's order (or sorted, when the protocol
// has an order of its own and decode sorts: an OTLP request groups the
// samples by metric), staleness markers included.
func requestsAreTheScrape(t *testing.T, r *Run, v remotewrite.Version, decode func(*testing.T, []byte) []string, sorted bool) {
	t.Helper()
	w := &worker{r: r, store: versionStore{v: v}, sc: r.m.NewScraper(), lo: 1, hi: 4}
	ref := r.m.NewScraper()
	var stale int64
	for k := range r.cfg.Scrapes {
		var want []string
		if err := ref.ScrapeSlots(k, 1, 4, func(ls []remotewrite.Label, ts int64, v float64) {
			want = append(want, sampleText(ls, ts, v))
		}); err != nil {
			t.Fatal(err)
		}
		n, st, err := w.encode(k, 0)
		if err != nil {
			t.Fatal(err)
		}
		stale += st
		got := decode(t, w.body)
		if sorted {
			slices.Sort(want)
		}
		if int(n) != len(want) || !slices.Equal(got, want) {
			t.Fatalf("scrape %d: %d samples\n%s\nwant\n%s", k, n, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if stale == 0 {
		t.Error("no staleness marker in 20 scrapes with churn: the test misses the replaced targets")
	}
}

// decodeRequest is a compressed request's samples as sampleText writes
// them, read with Prometheus' types of the version.
func decodeRequest(t *testing.T, v remotewrite.Version, body []byte) []string {
	t.Helper()
	raw, err := snappy.Decode(nil, body)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	if v == remotewrite.V1 {
		var req prompb.WriteRequest
		if err := req.Unmarshal(raw); err != nil {
			t.Fatal(err)
		}
		for _, s := range req.Timeseries {
			ls := make([]remotewrite.Label, len(s.Labels))
			for i, l := range s.Labels {
				ls[i] = remotewrite.Label{Name: l.Name, Value: l.Value}
			}
			for _, p := range s.Samples {
				out = append(out, sampleText(ls, p.Timestamp, p.Value))
			}
		}
		return out
	}
	var req writev2.Request
	if err := req.Unmarshal(raw); err != nil {
		t.Fatal(err)
	}
	for _, s := range req.Timeseries {
		var ls []remotewrite.Label
		for i := 0; i+1 < len(s.LabelsRefs); i += 2 {
			ls = append(ls, remotewrite.Label{Name: req.Symbols[s.LabelsRefs[i]], Value: req.Symbols[s.LabelsRefs[i+1]]})
		}
		for _, p := range s.Samples {
			out = append(out, sampleText(ls, p.Timestamp, p.Value))
		}
	}
	return out
}

// A client's scrape of more targets than MaxRequestSamples holds goes in
// requests as even as they can be, none over the bound (staleness markers
// aside), that together are the scrape in its order; the plan counts
// them as operations.
func TestScrapeSplitIntoRequests(t *testing.T) {
	c := Plan(Config{Shape: promshape.Config{Targets: 1000, Interval: time.Second, ChurnShare: 0.1, ChurnPeriod: 2 * time.Second,
		Seed: 1}, Scrapes: 5, Engine: promql.EnginePrometheus}, time.UnixMilli(1_700_000_000_000), "split")
	c.WriteOnly = true
	r, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	// Two clients of 500 targets (20,500 samples): 3 requests of 167,
	// 167 and 166 targets each.
	if got := r.Operations(0, 2, 2); got != 5*2*3 {
		t.Errorf("%d operations, want 30", got)
	}
	w := &worker{r: r, store: versionStore{v: remotewrite.V1}, sc: r.m.NewScraper(), lo: 500, hi: 1000}
	ref := r.m.NewScraper()
	series := int64(r.m.SeriesPerTarget())
	for k := range c.Scrapes {
		var want, got []string
		if err := ref.ScrapeSlots(k, 500, 1000, func(ls []remotewrite.Label, ts int64, v float64) {
			want = append(want, sampleText(ls, ts, v))
		}); err != nil {
			t.Fatal(err)
		}
		for part := range 3 {
			n, stale, err := w.encode(k, part)
			if err != nil {
				t.Fatal(err)
			}
			if live := n - stale; live > MaxRequestSamples || live < 166*series {
				t.Errorf("scrape %d, request %d: %d live samples", k, part, live)
			}
			got = append(got, decodeRequest(t, remotewrite.V1, w.body)...)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("scrape %d: the requests are not the scrape: %d samples, want %d", k, len(got), len(want))
		}
	}
}

func sampleText(ls []remotewrite.Label, t int64, v float64) string {
	return fmt.Sprintf("%s %d %#x", promshape.Key(ls), t, math.Float64bits(v))
}
