package findmax

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/threshold"
)

// MinOps is the number of operations an objective's metric needs to be a
// measurement rather than one operation's latency: ten beyond the
// percentile on its narrower side (a p99 from 1,000 operations rests on
// the ten slowest, a p999 needs 10,000, a median 20); a mean, minimum or
// maximum 100; a count or a throughput one.
func MinOps(metric string) int64 {
	var q float64
	switch metric {
	case "median":
		q = 0.5
	case "p999":
		q = 0.999
	case "avg", "min", "max":
		return 100
	default:
		pct, err := strconv.ParseFloat(strings.TrimPrefix(metric, "p"), 64)
		if err != nil || !strings.HasPrefix(metric, "p") || pct <= 0 || pct >= 100 {
			return 1
		}
		q = pct / 100
	}
	return int64(math.Ceil(10/min(q, 1-q) - 1e-9))
}

func (s Search) minOps(o threshold.Threshold) int64 {
	if o.Operation == "" {
		return 0
	}
	if s.MinOps > 0 {
		return s.MinOps
	}
	return MinOps(o.Metric)
}

// measureFor is how long the step at rate is measured: Measure, or longer,
// up to MaxMeasure, where the last step's share of each objective's
// operation says that at this rate Measure would complete fewer than it
// needs. The probe (rate 0) and a first step know no share: Measure.
func (s Search) measureFor(rate float64, shares map[string]float64) time.Duration {
	d := s.Measure
	if rate <= 0 || shares == nil || s.MaxMeasure <= d {
		return d
	}
	for _, o := range s.Objectives {
		need := s.minOps(o)
		if need == 0 {
			continue
		}
		share := shares[o.Operation]
		if share <= 0 {
			return s.MaxMeasure
		}
		secs := headroom * float64(need) / (rate * share)
		d = max(d, time.Duration(math.Ceil(secs*10)/10*float64(time.Second)))
	}
	return min(d, s.MaxMeasure)
}

// headroom lengthens a step past the time its operations need at the
// offered rate: a step's first and last moments complete fewer (a step at
// 48.6 ops/s measured for exactly 1,000 operations completed 996).
const headroom = 1.1

// longer is how long to measure again a step that completed got of the
// need operations in measure: in proportion, with headroom, up to
// MaxMeasure.
func (s Search) longer(measure time.Duration, got, need int64) time.Duration {
	if got <= 0 {
		return s.MaxMeasure
	}
	d := time.Duration(float64(measure) * headroom * float64(need) / float64(got))
	return min(max(d, measure), s.MaxMeasure)
}

// operationShares is each operation's share of a run's completed
// operations.
func operationShares(run *summary.Summary) map[string]float64 {
	var all int64
	for _, o := range run.Operations {
		all += o.OKOperations + o.FailOperations
	}
	out := map[string]float64{}
	if all == 0 {
		return out
	}
	for _, o := range run.Operations {
		out[o.Name] = float64(o.OKOperations+o.FailOperations) / float64(all)
	}
	return out
}
