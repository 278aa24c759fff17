package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/tsbench/tsbench/internal/scenario"
	"github.com/tsbench/tsbench/internal/targets"
)

func newVersionCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print tsbench's version",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			fmt.Fprintln(stdout, versionLine())
			return nil
		},
	}
}

func newTargetsCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "targets",
		Short: "List the databases tsbench can benchmark",
		Long: `List every database target: its name (for --target or DB_SWITCH), the
IoT-benchmark DB_SWITCH values that map to it, its write paths, the query
kinds it supports, the language its own queries (--queries) are written in
and how to get its server. A target this binary was built without (duckdb
needs the build tag duckdb) is listed with the command that builds it in.`,
		Example: "  tsbench targets",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "TARGET\tDB_SWITCH\tWRITE PATHS\tQUERIES\tOWN QUERIES\tSERVER")
			for _, d := range targets.Drivers() {
				lang := "-"
				if d.Language != nil {
					lang = d.Language.Name
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.Name, strings.Join(d.Aliases, ","),
					strings.Join(d.WritePaths, ","), queryList(d.Caps), lang, d.Server)
			}
			for _, l := range targets.LeftOuts() {
				fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\tnot in this binary: %s\n", l.Name, strings.Join(l.Aliases, ","), l.Build())
			}
			return tw.Flush()
		},
	}
}

// queryList prints supported query kinds compactly: "Q1-Q10" or "Q1,Q2,Q8",
// which of them tsbench computes from returned points, whether Q7 runs
// across devices (TSBS's cross-host types) and how TSBS's iot questions are
// answered.
func queryList(c targets.Capabilities) string {
	if c.Fleet != "" {
		how := c.Fleet
		c.Fleet = ""
		return queryList(c) + ", TSBS iot questions (" + how + ")"
	}
	if c.GroupByAcross {
		c.GroupByAcross = false
		return queryList(c) + ", Q7 across devices"
	}
	if len(c.Queries) == 10 {
		if len(c.ClientSide) > 0 {
			var cs []string
			for _, k := range c.ClientSide {
				cs = append(cs, k.Short())
			}
			return "Q1-Q10 (" + strings.Join(cs, ",") + " computed by tsbench)"
		}
		return "Q1-Q10"
	}
	var qs []string
	for _, k := range c.Queries {
		qs = append(qs, k.Short())
	}
	if len(qs) == 0 {
		return "none"
	}
	return strings.Join(qs, ",")
}

func newScenariosCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:     "scenarios",
		Short:   "List the named workloads for 'tsbench run --scenario'",
		Example: "  tsbench scenarios\n  tsbench run --scenario hakom-load --scale 0.01 --target sqlite\n  tsbench run --scenario epics-archiver --variant week --scale 10 --target postgres",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			for _, s := range scenario.All() {
				fmt.Fprintf(stdout, "%s\n    %s\n", s.Name, s.Description)
				if s.Source != "" {
					fmt.Fprintf(stdout, "    source: %s\n", s.Source)
				}
				if s.Hardware != "" {
					fmt.Fprintf(stdout, "    study hardware: %s\n", s.Hardware)
				}
				if sys := s.Systems(); len(sys) > 1 {
					fmt.Fprintf(stdout, "    systems measured: %s (--target %s runs them side by side)\n", strings.Join(sys, ", "), strings.Join(sys, ","))
				} else if len(sys) == 1 {
					fmt.Fprintf(stdout, "    system measured: %s\n", sys[0])
				}
				for _, p := range s.Phases {
					if p.Prepare {
						continue
					}
					fmt.Fprintf(stdout, "    phase %-15s published: %s\n", p.Name, figure(p.Published))
					for _, o := range p.Others {
						fmt.Fprintf(stdout, "    %-21s %s: %s\n", "", o.System, figure(o))
					}
				}
				for name, v := range s.Variants {
					fmt.Fprintf(stdout, "    variant %s: %s\n", name, v.Description)
				}
			}
			return nil
		},
	}
}

// figure prints a published figure: rate, time and note, whichever exist.
func figure(f scenario.Figure) string {
	var parts []string
	if f.Rate > 0 {
		parts = append(parts, fmt.Sprintf("%.0f %s", f.Rate, f.Unit))
	}
	if f.Seconds > 0 {
		parts = append(parts, fmt.Sprintf("%g s", f.Seconds))
	}
	if f.Note != "" {
		parts = append(parts, f.Note)
	}
	return strings.Join(parts, "; ")
}
