package main

import (
	"math"
	"testing"

	"github.com/tsbench/tsbench/internal/testenv"
)

// TestMain says in one line which tests were skipped for want of a server
// or tool (see testenv).
func TestMain(m *testing.M) { testenv.Main(m) }

func TestMedians(t *testing.T) {
	cases := []struct {
		name string
		runs []*Result
		want Medians
	}{
		{"one", []*Result{{Ratio: 1.1, TsbenchCPUPerMillion: 0.09, BaselineCPUPerMillion: 0.1}},
			Medians{Ratio: 1.1, TsbenchCPUPerMillion: 0.09, BaselineCPUPerMillion: 0.1, CPURatio: 0.9}},
		{"odd: each figure's own middle run", []*Result{
			{Ratio: 0.9, TsbenchCPUPerMillion: 0.3, BaselineCPUPerMillion: 0.1},
			{Ratio: 1.2, TsbenchCPUPerMillion: 0.1, BaselineCPUPerMillion: 0.4},
			{Ratio: 1.0, TsbenchCPUPerMillion: 0.2, BaselineCPUPerMillion: 0.2}},
			Medians{Ratio: 1.0, TsbenchCPUPerMillion: 0.2, BaselineCPUPerMillion: 0.2, CPURatio: 1}},
		{"even: the middle two's mean", []*Result{
			{Ratio: 1, TsbenchCPUPerMillion: 0.1, BaselineCPUPerMillion: 0.1},
			{Ratio: 2, TsbenchCPUPerMillion: 0.4, BaselineCPUPerMillion: 0.1},
			{Ratio: 4, TsbenchCPUPerMillion: 0.2, BaselineCPUPerMillion: 0.1},
			{Ratio: 3, TsbenchCPUPerMillion: 0.3, BaselineCPUPerMillion: 0.1}},
			Medians{Ratio: 2.5, TsbenchCPUPerMillion: 0.25, BaselineCPUPerMillion: 0.1, CPURatio: 2.5}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := medians(c.runs)
			for _, f := range []struct {
				name      string
				got, want float64
			}{
				{"ratio", got.Ratio, c.want.Ratio},
				{"tsbench CPU", got.TsbenchCPUPerMillion, c.want.TsbenchCPUPerMillion},
				{"baseline CPU", got.BaselineCPUPerMillion, c.want.BaselineCPUPerMillion},
				{"CPU ratio", got.CPURatio, c.want.CPURatio},
			} {
				if math.Abs(f.got-f.want) > 1e-9 {
					t.Errorf("%s: %v, want %v", f.name, f.got, f.want)
				}
			}
		})
	}
}
