package ownquery

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
)

// Comparison is how one query's checked answers on a target compare with
// the reference target's (the first of a --target list).
type Comparison struct {
	Query     string `json:"query"`
	Target    string `json:"target"`
	Reference string `json:"reference"`
	Compared  int    `json:"compared"` // parameter sets (or queries) answered on both
	Differ    int    `json:"differ"`   // of them, answered differently
	// Example is the first disagreement: its parameters and each target's
	// answer, named ("n=45; sqlite: 46, duckdb: 47").
	Example string `json:"example,omitempty"`
	// Skipped says why nothing was compared (a failed answer, a query
	// missing from one run).
	Skipped string `json:"skipped,omitempty"`
	// Semantic, when the answers differ, names the known difference of
	// the two engines that explains it (KnownDifference): both answers
	// stand, counted apart from disagreements.
	Semantic string `json:"semantic_difference,omitempty"`
}

// Agree tells whether every compared answer agreed.
func (c Comparison) Agree() bool { return c.Differ == 0 && c.Skipped == "" }

// Disagree tells whether some answers differ and no known difference of
// the engines explains it: one of them is wrong.
func (c Comparison) Disagree() bool { return c.Differ > 0 && c.Semantic == "" }

// CompareRuns compares the own queries' answers of each run with those of
// the first: the same query file drew the same parameter sets on each.
func CompareRuns(runs []*summary.Summary) []Comparison {
	if len(runs) < 2 || runs[0].QueryFile == nil {
		return nil
	}
	ref := runs[0]
	var out []Comparison
	for _, s := range runs[1:] {
		for _, rq := range ref.QueryFile.Queries {
			c := Comparison{Query: rq.Name, Target: s.Target, Reference: ref.Target}
			q := ownQuery(s, rq.Name)
			if q == nil {
				c.Skipped = "the run has no such query"
			} else {
				compareAnswers(&c, rq.Answers, q.Answers)
				if c.Differ > 0 {
					c.Semantic = KnownDifference(rq.Engine, q.Engine, rq.Text+"\n"+q.Text)
				}
			}
			out = append(out, c)
		}
	}
	return out
}

func ownQuery(s *summary.Summary, name string) *summary.OwnQuery {
	if s.QueryFile == nil {
		return nil
	}
	for i := range s.QueryFile.Queries {
		if s.QueryFile.Queries[i].Name == name {
			return &s.QueryFile.Queries[i]
		}
	}
	return nil
}

func compareAnswers(c *Comparison, ref, other []summary.Answer) {
	for i := range min(len(ref), len(other)) {
		a, b := ref[i], other[i]
		if a.Error != "" || b.Error != "" {
			if c.Skipped == "" {
				c.Skipped = "an answer failed: " + firstNonEmpty(a.Error, b.Error)
			}
			continue
		}
		c.Compared++
		why := Differ(targets.Rows{Values: a.Values, Count: a.Rows}, targets.Rows{Values: b.Values, Count: b.Rows}, c.Reference, c.Target)
		if why == "" {
			continue
		}
		c.Differ++
		if c.Example == "" {
			c.Example = fmt.Sprintf("%s; %s", ParamsText(a.Params), why)
		}
	}
	if c.Compared == 0 && c.Skipped == "" {
		c.Skipped = "no answers were checked (QUERY_CHECKS = 0)"
	}
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// ParamsText is a parameter set in name order: dev="d_1", n=3.
func ParamsText(p map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(p)) {
		parts = append(parts, k+"="+p[k])
	}
	if len(parts) == 0 {
		return "(no parameters)"
	}
	return strings.Join(parts, ", ")
}
