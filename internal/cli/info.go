package cli

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/tsbench/tsbench/internal/scenario"
	"github.com/tsbench/tsbench/internal/target"
)

func newVersionCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print tsbench's version",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			fmt.Fprintf(stdout, "tsbench %s (%s, %s/%s)\n", Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
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
kinds it supports and how to get its server.`,
		Example: "  tsbench targets",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "TARGET\tDB_SWITCH\tWRITE PATHS\tQUERIES\tSERVER")
			for _, d := range target.Drivers() {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", d.Name, strings.Join(d.Aliases, ","),
					strings.Join(d.WritePaths, ","), queryList(d.Caps), d.Server)
			}
			return tw.Flush()
		},
	}
}

// queryList prints supported query kinds compactly: "Q1-Q10" or "Q1,Q2,Q8".
func queryList(c target.Capabilities) string {
	if len(c.Queries) == 10 {
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
		Example: "  tsbench scenarios\n  tsbench run --scenario iotdb-crrc-write --set LOOP=10 --target sqlite",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			for _, s := range scenario.All() {
				fmt.Fprintf(stdout, "%s\n    %s\n", s.Name, s.Description)
				if s.Source != "" {
					fmt.Fprintf(stdout, "    source: %s\n", s.Source)
				}
				for _, p := range s.Published {
					fmt.Fprintf(stdout, "    published: %s\n", p)
				}
			}
			return nil
		},
	}
}
