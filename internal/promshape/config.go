package promshape

import (
	"fmt"
	"math"
	"time"
)

// Config is the shape of the workload.
type Config struct {
	Targets     int           // scrape targets alive at any time
	Interval    time.Duration // scrape interval
	ChurnShare  float64       // share of the targets replaced each period, 0..1
	ChurnPeriod time.Duration // a multiple of Interval; 0 only without churn
	SpikeShare  float64       // share of the targets replaced at a spike, more than ChurnShare's
	SpikeEvery  int           // churn boundaries from one spike to the next (every SpikeEvery-th); 0: no spikes
	Start       int64         // time of scrape 0, ms since the epoch
	Seed        int64
	Job         string // the job label of every series
	Profile     Profile
	Histograms  Histograms // how the request-duration histogram is exposed
	Churn       Churn      // what a replaced target changes: its instance or its revision label
}

// Churn is what a target replaced at a churn boundary changes. Either way
// its old series get staleness markers at the boundary and it comes back
// with new series.
type Churn uint8

// The kinds of churn; ChurnInstance is the zero value, every Config's
// before revisions.
const (
	// ChurnInstance: the target comes back as another instance
	// (host-S-G:9100), as when a pod is replaced.
	ChurnInstance Churn = iota
	// ChurnRevision: the target keeps its instance (host-S:9100) and its
	// series a revision label that changes (0, 1, ...), as
	// prometheus-benchmark relabels a share of its targets every period.
	ChurnRevision
)

func (c Churn) String() string {
	switch c {
	case ChurnInstance:
		return "instance"
	case ChurnRevision:
		return "revision"
	}
	return fmt.Sprintf("churn(%d)", uint8(c))
}

// ParseChurn is the churn of the name (instance or revision).
func ParseChurn(name string) (Churn, error) {
	for _, c := range []Churn{ChurnInstance, ChurnRevision} {
		if c.String() == name {
			return c, nil
		}
	}
	return 0, fmt.Errorf("promshape: churn %q: instance or revision", name)
}

// MaxTargets bounds Targets so that every sum the queries take stays below
// 2^53 (no byte gauge a query sums exceeds 2^35): a sum of exactly
// representable values is then exact in any order, and every engine gets
// the same bits.
const MaxTargets = 100_000

// Validate reports the first setting the model cannot run with.
func (c Config) Validate() error {
	switch {
	case c.Targets < 1 || c.Targets > MaxTargets:
		return fmt.Errorf("promshape: targets %d must be between 1 and %d", c.Targets, MaxTargets)
	case c.Interval <= 0 || c.Interval%time.Millisecond != 0:
		return fmt.Errorf("promshape: interval %v must be a positive whole number of milliseconds", c.Interval)
	case c.Start < 0:
		return fmt.Errorf("promshape: start %d must not be negative (ms since the epoch)", c.Start)
	case c.Profile > Node:
		return fmt.Errorf("promshape: %v is not a profile", c.Profile)
	case c.Histograms > Native:
		return fmt.Errorf("promshape: %v is not a kind of histogram", c.Histograms)
	case c.Churn > ChurnRevision:
		return fmt.Errorf("promshape: %v is not a kind of churn", c.Churn)
	case c.Job == "":
		return fmt.Errorf("promshape: job must not be empty: Prometheus drops an empty label")
	}
	return c.validateChurn()
}

// validateChurn reports the first churn setting the model cannot run
// with (Interval already valid).
func (c Config) validateChurn() error {
	switch {
	case math.IsNaN(c.ChurnShare) || c.ChurnShare < 0 || c.ChurnShare > 1:
		return fmt.Errorf("promshape: churn share %v must be between 0 and 1", c.ChurnShare)
	case c.ChurnPeriod < 0 || c.ChurnPeriod%c.Interval != 0:
		return fmt.Errorf("promshape: churn period %v must be a non-negative multiple of the interval %v", c.ChurnPeriod, c.Interval)
	case c.ChurnShare > 0 && c.ChurnPeriod == 0:
		return fmt.Errorf("promshape: churn period 0s must be positive when the churn share is %v", c.ChurnShare)
	case c.ChurnShare > 0 && churned(c) < 1:
		return fmt.Errorf("promshape: churn share %v of %d targets replaces no target per period; it must be 0 or at least %v",
			c.ChurnShare, c.Targets, 0.5/float64(c.Targets))
	case c.SpikeEvery < 0:
		return fmt.Errorf("promshape: spikes every %d boundaries must not be negative", c.SpikeEvery)
	case c.SpikeEvery > 0 && c.ChurnPeriod == 0:
		return fmt.Errorf("promshape: churn period 0s must be positive with spikes (a spike is a churn boundary's)")
	case c.SpikeEvery > 0 && (math.IsNaN(c.SpikeShare) || c.SpikeShare > 1 || spiked(c) <= churned(c)):
		return fmt.Errorf("promshape: spike share %v must be at most 1 and replace more of the %d targets than the churn share %v",
			c.SpikeShare, c.Targets, c.ChurnShare)
	}
	return nil
}

// churned is the number of slots replaced each period: round(share x targets).
func churned(c Config) int64 { return int64(math.Round(c.ChurnShare * float64(c.Targets))) }

// spiked is the number of slots a spike replaces.
func spiked(c Config) int64 { return int64(math.Round(c.SpikeShare * float64(c.Targets))) }
