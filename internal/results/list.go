package results

// Printing the tables of what a results store holds: its
// runs ('tsbench runs') and its monitor sessions ('tsbench monitor ls').

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/summary"
)

// PrintRuns prints one row a run, newest first as given, with a GROUP column
// when any run belongs to a run group, and a count of them.
func PrintRuns(w io.Writer, runs []RunInfo, loc Location) error {
	if len(runs) == 0 {
		_, err := fmt.Fprintf(w, "No runs in %s.\n", loc)
		return err
	}
	grouped := slices.ContainsFunc(runs, func(r RunInfo) bool { return r.Group != "" })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := "RUN ID\tSTARTED (UTC)\tSCENARIO\tTARGET\tOPERATION\tTHROUGHPUT (points/s)\tP99 (ms)\tSTATUS"
	if grouped {
		header += "\tGROUP"
	}
	fmt.Fprintln(tw, header)
	for _, r := range runs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", r.ID, r.Started.UTC().Format("2006-01-02 15:04:05"), orDash(r.Scenario),
			r.Target, orDash(r.Operation), report.GroupThousands(strconv.FormatFloat(r.Throughput, 'f', 2, 64)),
			strconv.FormatFloat(r.P99MS, 'f', 2, 64), r.Status)
		if grouped {
			fmt.Fprintf(tw, "\t%s", groupCell(r))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d run(s) from %s\n", len(runs), loc)
	return err
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// groupCell is a run's group: "G worker I" for a worker's run, "G merged"
// for a merge, the group of repetitions (repeat-...), "-" for a run of its
// own.
func groupCell(r RunInfo) string {
	switch {
	case r.Group == "":
		return "-"
	case strings.HasPrefix(r.Group, summary.RepeatGroupPrefix):
		return r.Group
	case r.WorkerIndex == nil:
		return r.Group + " merged"
	}
	return fmt.Sprintf("%s worker %d", r.Group, *r.WorkerIndex)
}

// PrintMonitorSessions prints one row a monitor session and a count of them.
func PrintMonitorSessions(w io.Writer, sessions []MonitorSession, loc Location) error {
	if len(sessions) == 0 {
		_, err := fmt.Fprintf(w, "No monitor sessions in %s.\n", loc)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tHOST\tSTARTED (UTC)\tENDED (UTC)\tSERVER\tSAMPLES")
	for _, m := range sessions {
		ended := "-"
		if !m.Ended.IsZero() {
			ended = m.Ended.Format("2006-01-02 15:04:05")
		}
		server := "-"
		if m.ServerPID > 0 {
			server = m.ServerName + " pid " + strconv.Itoa(int(m.ServerPID))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\n", m.ID, m.Hostname, m.Started.Format("2006-01-02 15:04:05"), ended, server, m.Samples)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d session(s) in %s\n", len(sessions), loc)
	return err
}

// PrintJSON prints items as indented JSON: an empty list as [], not null, so
// that scripts can always iterate it.
func PrintJSON[T any](w io.Writer, items []T) error {
	if items == nil {
		items = []T{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(items)
}
