package scenario

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// SystemRows are one target's rows of the published-vs-measured table.
type SystemRows struct {
	Target string `json:"target"`
	Rows   []Row  `json:"rows"`
}

// SystemComparison is one phase of a study re-run on several systems: each
// system's published and measured rate, and the ratio of the first system to
// each other one, as the study published it and as measured here.
type SystemComparison struct {
	Phase   string         `json:"phase"`
	Unit    string         `json:"unit"`
	Systems []SystemFigure `json:"systems"`
	Ratios  []SystemRatio  `json:"ratios"`
}

// SystemFigure is one system's figures for a phase; Published is 0 where the
// study published none for that system.
type SystemFigure struct {
	Target    string  `json:"target"`
	Published float64 `json:"published"`
	Measured  float64 `json:"measured"`
	Note      string  `json:"note,omitempty"`
}

// SystemRatio is Base's rate over Other's; Published is 0 where the study
// lacks either figure, Measured 0 where a run measured nothing.
type SystemRatio struct {
	Base      string  `json:"base"`
	Other     string  `json:"other"`
	Published float64 `json:"published"`
	Measured  float64 `json:"measured"`
}

// CompareSystems lines up the tables of several targets by phase, in the
// order of the first target's phases.
func CompareSystems(all []SystemRows) []SystemComparison {
	if len(all) == 0 {
		return nil
	}
	var out []SystemComparison
	for _, first := range all[0].Rows {
		c := SystemComparison{Phase: first.Phase, Unit: first.Unit}
		for _, sr := range all {
			f := SystemFigure{Target: sr.Target}
			if r := findRow(sr.Rows, first.Phase); r != nil {
				f.Measured = r.Rate.Mean
				if r.OwnFigure {
					f.Published, f.Note = r.Published.Rate, r.Published.Note
				}
			}
			c.Systems = append(c.Systems, f)
		}
		base := c.Systems[0]
		for _, o := range c.Systems[1:] {
			c.Ratios = append(c.Ratios, SystemRatio{Base: base.Target, Other: o.Target,
				Published: quotient(base.Published, o.Published), Measured: quotient(base.Measured, o.Measured)})
		}
		out = append(out, c)
	}
	return out
}

func findRow(rows []Row, phase string) *Row {
	for i := range rows {
		if rows[i].Phase == phase {
			return &rows[i]
		}
	}
	return nil
}

func quotient(a, b float64) float64 {
	if a == 0 || b == 0 {
		return 0
	}
	return a / b
}

// PrintSystems writes the systems side by side: per phase, each system's
// published and measured rate, then the ratios between them.
func (s *Scenario) PrintSystems(w io.Writer, cs []SystemComparison) error {
	fmt.Fprintf(w, "-----------------------------------------Systems compared: %s-----------------------------------------\n", s.Name)
	fmt.Fprintf(w, "Study: %s\n", s.Source)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PHASE\tUNIT\tSYSTEM\tPUBLISHED\tMEASURED\tMEASURED/PUBLISHED")
	for _, c := range cs {
		for _, f := range c.Systems {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.Phase, c.Unit, f.Target, num(f.Published), num(f.Measured),
				ratio(quotient(f.Measured, f.Published)))
		}
		for _, r := range c.Ratios {
			fmt.Fprintf(tw, "%s\tratio\t%s/%s\t%s\t%s\t\n", c.Phase, r.Base, r.Other, times(r.Published), times(r.Measured))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, c := range cs {
		for _, f := range c.Systems {
			if f.Note != "" {
				fmt.Fprintf(w, "  %s, %s: %s\n", c.Phase, f.Target, f.Note)
			}
		}
	}
	return nil
}

func times(v float64) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3gx", v)
}
