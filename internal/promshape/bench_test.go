package promshape

import (
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/remotewrite"
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
