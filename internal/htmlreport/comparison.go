package htmlreport

import (
	"github.com/tsbench/tsbench/internal/compare"
	"github.com/tsbench/tsbench/internal/summary"
)

// comparison is the table at the top of a report of several runs: every
// run against the first, per operation and metric, with the ratio, the
// adjusted p-value and the verdict. It is computed by internal/compare, so
// the page shows the very numbers 'tsbench compare' prints.
type comparison struct {
	Method   string
	TooShort bool // some figure's runs were too short to test
	MinSecs  int  // compare.MinEffectiveSeconds, for the note
	Pairs    []pairView
}

type pairView struct {
	Label string // B, C, ...
	RunID string
	Rows  []compareRow
}

// compareRow is one metric of one operation; Span > 0 on an operation's
// first row, which carries its name over Span rows.
type compareRow struct {
	Op      string
	Span    int
	Metric  string
	A, B    string
	Ratio   string
	P       string
	Verdict string
	Class   string // ok (better), bad (worse) or "" (no verdict)
	Missing string // the operation is not in A or in B
}

func buildComparison(runs []*summary.Summary) *comparison {
	if len(runs) < 2 {
		return nil
	}
	res := compare.Compare(runs[0], runs[1:], 0)
	c := &comparison{Method: res.Method, TooShort: res.Count(compare.VerdictTooShort) > 0, MinSecs: compare.MinEffectiveSeconds}
	for i, p := range res.Pairs {
		c.Pairs = append(c.Pairs, pairView{Label: label(i + 1), RunID: p.Run.ID, Rows: compareRows(label(i+1), p)})
	}
	return c
}

func compareRows(other string, p compare.Pair) []compareRow {
	var rows []compareRow
	for _, op := range p.Operations {
		if op.Missing != "" {
			which := "A"
			if op.Missing == "run" {
				which = other
			}
			rows = append(rows, compareRow{Op: op.Name, Span: 1, Missing: "not in " + which})
			continue
		}
		for j, m := range op.Metrics {
			r := compareRow{Op: op.Name, Metric: m.Name + " (" + m.Unit + ")", A: compare.FormatNumber(m.Baseline), B: compare.FormatNumber(m.Value),
				Ratio: ratioText(m.Ratio), P: pText(m), Verdict: m.Verdict}
			if j == 0 {
				r.Span = len(op.Metrics)
			}
			switch {
			case m.Significant && m.Verdict == compare.VerdictBetter:
				r.Class, r.Verdict = "ok", "* "+m.Verdict
			case m.Significant:
				r.Class, r.Verdict = "bad", "* "+m.Verdict
			case m.Verdict == compare.VerdictTooShort:
				r.Class = "warn"
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// difference is one thing that is not the same in every run.
type difference struct {
	Group  string // target, software, machine, config
	Key    string
	Values []string
}

// envGroups sorts the environment's fields into what the summary calls
// them: the software measured or measuring, and the machine.
var envGroups = map[string]string{
	"server_version": "software", "tool_version": "software", "go_version": "software", "embedded_engine": "software",
	"hostname": "machine", "os": "machine", "kernel": "machine", "cpu_model": "machine", "cores": "machine", "memory": "machine",
}

// differences lists, target first, what differs between the runs: the
// first thing to know before reading any ratio.
func differences(runs []*summary.Summary, config, env []diffRow) []difference {
	var out []difference
	if len(runs) < 2 {
		return nil
	}
	for _, row := range diffTable(runs, runIdentity) {
		if row.Differs {
			out = append(out, difference{Group: "target", Key: row.Key, Values: row.Values})
		}
	}
	for _, group := range []string{"software", "machine"} {
		for _, row := range env {
			if row.Differs && envGroups[row.Key] == group {
				out = append(out, difference{Group: group, Key: row.Key, Values: row.Values})
			}
		}
	}
	for _, row := range config {
		if row.Differs && !runIdentityKeys[row.Key] && !compare.OutputKey(row.Key) {
			out = append(out, difference{Group: "config", Key: row.Key, Values: row.Values})
		}
	}
	return out
}

// runIdentityKeys are configuration keys already shown as the target.
var runIdentityKeys = map[string]bool{"db_switch": true}

func runIdentity(s *summary.Summary) map[string]string {
	m := map[string]string{"target": s.Target}
	if s.Scenario != "" {
		m["scenario"] = s.Scenario
	}
	return m
}
