package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/scenario"
	"github.com/tsbench/tsbench/internal/targets"
)

// Shell completion: cobra's `tsbench completion bash|zsh|fish|powershell`
// completes commands and flags; these functions add the values that only
// tsbench knows: target names, scenario names and stored run ids.

func completeTargets(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	// --target takes a comma-separated list with --scenario: complete the
	// last name of the list.
	prefix := ""
	if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
		prefix = toComplete[:i+1]
	}
	var out []string
	for _, d := range targets.Drivers() {
		out = append(out, prefix+d.Name+"\t"+d.Description)
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

func completeScenarios(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	var out []string
	for _, s := range scenario.All() {
		out = append(out, s.Name+"\t"+s.Description)
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeRunIDs offers the stored runs (newest first) and the names
// latest, latest~1.
func completeRunIDs(cmd *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
	out := []string{"latest\tthe newest run", "latest~1\tthe run before it"}
	sf := storeFlags{results: flagValue(cmd, "results"), dataDir: flagValue(cmd, "data-dir")}
	ctx, cancel := context.WithTimeout(context.Background(), results.OpenTimeout)
	defer cancel()
	st, err := sf.open(ctx)
	if err != nil {
		return out, cobra.ShellCompDirectiveNoFileComp
	}
	defer st.Close()
	runs, err := st.List(ctx, results.Filter{Limit: 50})
	if err != nil {
		return out, cobra.ShellCompDirectiveNoFileComp
	}
	for _, r := range runs {
		out = append(out, r.ID+"\t"+r.Target+" "+r.Started.Format("2006-01-02 15:04")+" "+r.Status)
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

func flagValue(cmd *cobra.Command, name string) string {
	if f := cmd.Flag(name); f != nil {
		return f.Value.String()
	}
	return ""
}

// addCompletions attaches the value completions to the commands and flags
// that take targets, scenarios or run ids.
func addCompletions(root *cobra.Command) {
	for _, path := range [][]string{{"report"}, {"compare"}, {"runs", "show"}, {"runs", "export"}, {"runs", "rm"}} {
		if cmd, _, err := root.Find(path); err == nil {
			cmd.ValidArgsFunction = completeRunIDs
		}
	}
	if run, _, err := root.Find([]string{"run"}); err == nil {
		_ = run.RegisterFlagCompletionFunc("target", completeTargets)
		_ = run.RegisterFlagCompletionFunc("scenario", completeScenarios)
	}
}
