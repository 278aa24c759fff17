// Package analytics runs analytics queries (ts.Analytic) against a target
// that implements targets.Analyzer, times them, and checks every answer
// against the one computed from the generator alone.
package analytics

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Outcome is what one analytics query did over its repetitions.
type Outcome struct {
	Name        string    `json:"name"`
	Kind        string    `json:"kind"`
	Runs        int       `json:"runs"`
	Seconds     []float64 `json:"seconds"`
	Rows        int64     `json:"result_rows"`
	Checked     bool      `json:"checked"` // the answer equals the generator's
	Unsupported bool      `json:"unsupported,omitempty"`
	Error       string    `json:"error,omitempty"`
}

// Run executes each query runs times on conn, checking every answer against
// Expect for a dataset where rows [0, rows) of every device were written.
func Run(ctx context.Context, conn targets.Target, g *gen.Generator, rows int64, qs []ts.Analytic, runs int) []Outcome {
	an, ok := conn.(targets.Analyzer)
	var out []Outcome
	for i := range qs {
		a := &qs[i]
		o := Outcome{Name: a.Name, Kind: a.Kind.String()}
		if !ok {
			o.Unsupported = true
			out = append(out, o)
			continue
		}
		want := Expect(g, a, rows)
		o.Checked = true
		for r := 0; r < runs; r++ {
			t0 := time.Now()
			got, err := an.Analyze(ctx, a)
			o.Seconds = append(o.Seconds, time.Since(t0).Seconds())
			o.Runs++
			if errors.Is(err, targets.ErrUnsupported) {
				o.Unsupported, o.Checked = true, false
				break
			}
			if err != nil {
				o.Error, o.Checked = err.Error(), false
				break
			}
			o.Rows = got.Points
			if msg := compare(got, want); msg != "" {
				o.Error, o.Checked = fmt.Sprintf("answer differs from the generator's: %s", msg), false
			}
		}
		out = append(out, o)
	}
	return out
}

// Check compares an analytics answer with the generator's (Expect): "" when
// they agree, else what differs. For engines that compute answers outside
// the target (internal/analytics/spark).
func Check(got, want ts.Result) string { return compare(got, want) }

func compare(got, want ts.Result) string {
	if got.Points != want.Points {
		return fmt.Sprintf("%d result rows, want %d", got.Points, want.Points)
	}
	if d := math.Abs(got.Sum - want.Sum); d > 1e-6*math.Max(1, math.Abs(want.Sum)) {
		return fmt.Sprintf("sum of values %.10g, want %.10g", got.Sum, want.Sum)
	}
	if d := math.Abs(got.Squares - want.Squares); d > 1e-6*math.Max(1, want.Squares) {
		return fmt.Sprintf("sum of squared values %.10g, want %.10g", got.Squares, want.Squares)
	}
	return ""
}

// Expect computes an analytics query's answer from the generator alone.
func Expect(g *gen.Generator, a *ts.Analytic, rows int64) ts.Result {
	s := g.Schema()
	type acc struct {
		n             int64
		sum, min, max float64
	}
	groups := map[string]*acc{}
	add := func(key string, v float64) {
		x := groups[key]
		if x == nil {
			x = &acc{min: math.Inf(1), max: math.Inf(-1)}
			groups[key] = x
		}
		x.n++
		x.sum += v
		x.min, x.max = math.Min(x.min, v), math.Max(x.max, v)
	}
	for _, d := range s.Devices {
		tag := tagValue(d, a.Tag)
		for k := int64(0); k < rows; k++ {
			v, _ := g.Number(d.Index, a.Sensor, k)
			switch a.Kind {
			case ts.DeviceRange:
				if flag, _ := g.Number(d.Index, a.Flag, k); tag == a.Value && flag == 1 {
					add(d.Name, v)
				}
			case ts.CountRows:
				add("all", v)
			default:
				add(tag, v)
			}
		}
	}
	keys := slices.Sorted(maps.Keys(groups))
	var res ts.Result
	var meanOfAvgs float64
	for _, k := range keys {
		meanOfAvgs += groups[k].sum / float64(groups[k].n) / float64(len(keys))
	}
	for _, k := range keys {
		x := groups[k]
		avg := x.sum / float64(x.n)
		switch a.Kind {
		case ts.TagAggregates:
			res.Add(0, avg+x.min+x.max)
		case ts.TagAverage:
			res.Add(0, avg)
		case ts.TagAverageDiff:
			res.Add(0, avg-meanOfAvgs)
		case ts.DeviceRange:
			res.Add(0, x.max-x.min)
		case ts.CountRows:
			res.Add(0, float64(x.n))
		}
	}
	res.First, res.Last = 0, 0
	return res
}

func tagValue(d ts.Device, key string) string {
	for _, t := range d.Tags {
		if t.Key == key {
			return t.Value
		}
	}
	return ""
}
