package promshape

import (
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/remotewrite"
	"github.com/tsbench/tsbench/internal/targets/promql"
)

// BenchmarkScrape computes whole scrapes of 1,000 targets (41,000
// samples each) with 5% churn a minute, as an encoder would take them.
func BenchmarkScrape(b *testing.B) {
	m := mustNew(b, Config{Targets: 1000, Interval: 15 * time.Second, ChurnShare: 0.05,
		ChurnPeriod: time.Minute, Start: 1_700_000_000_000, Seed: 1, Job: "node"})
	sc := m.NewScraper()
	var sum float64
	fn := func(ls []remotewrite.Label, _ int64, v float64) { sum += v + float64(len(ls)) }
	b.ReportAllocs()
	b.ResetTimer()
	for k := int64(0); k < int64(b.N); k++ {
		if err := sc.Scrape(k, fn); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*float64(1000*m.SeriesPerTarget())/b.Elapsed().Seconds(), "samples/s")
}

// BenchmarkExpect computes the expected answer of every query of the
// read load (instant at the last scrape; range over the scrapes) for 2,000
// targets, as the workload does before each query it checks: the tool's
// time between two queries, which must stay far below the server's.
func BenchmarkExpect(b *testing.B) {
	const targets, scrapes = 2000, 30
	m := mustNew(b, Config{Targets: targets, Interval: 15 * time.Second, Start: 1_699_999_995_000, Seed: 1, Job: "node"})
	last := m.Time(scrapes - 1)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, q := range m.Queries() {
			var err error
			if q.Kind == Dashboard {
				start, serr := m.RangeStart(m.Time(0), q.Step)
				if serr != nil {
					b.Fatal(serr)
				}
				_, err = m.ExpectRange(q, start, start+(last-start)/q.Step.Milliseconds()*q.Step.Milliseconds(), promql.EnginePrometheus)
			} else {
				_, err = m.Expect(q, last, promql.EnginePrometheus)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/read-load")
}
