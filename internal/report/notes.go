package report

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/summary"
)

// exampleMax bounds an example error text so that one verbose server message
// cannot push the rest of the report off the screen.
const exampleMax = 160

// writeNotes prints, after the matrices, what IoT-benchmark does not tell:
// each part is left out when it has nothing to say, except the verify, tool
// and stop lines, whose absence would itself be a question.
func writeNotes(b *strings.Builder, s *summary.Summary) {
	writeFailures(b, s.Operations)
	line(b, workerLine(s.Worker))
	line(b, replayLine(s.Replay))
	writeMerge(b, s.Merge)
	line(b, s.RetriesNote())
	line(b, s.FallbacksNote())
	line(b, unsupportedLine(s))
	line(b, phasesLine(s.Phases))
	writeStalls(b, s.Stalls)
	writeFreshness(b, s.Freshness)
	writeChecks(b, s)
	writeExprLatency(b, s.Verify) // figures, not verdicts (Verdicts)
	writeOwnQueries(b, s.QueryFile)
	line(b, serverLine(s.Environment.ServerVersion))
	line(b, namesLine(s.NameMapping))
	line(b, storageLine(s))
	line(b, remoteWriteLine(s.RemoteWrite))
	line(b, seriesLine(s.RemoteWrite, s.Verify))
	line(b, toolLine(s.Tool, s.TPCC != nil))
	line(b, stopLine(s.StopReason))
	if s.Interrupted {
		// Repeated at the end, where the eye lands after the run.
		line(b, interruptedBanner)
	}
}

// writeChecks writes what the run's checks found: the crash and what it
// cost, the stored count, where points went missing, the query answers.
func writeChecks(b *strings.Builder, s *summary.Summary) {
	writeCrash(b, s.Crash)
	if s.TPCC == nil { // a TPC-C run's check is its consistency conditions
		line(b, verifyLine(s.Verify))
		writeLoss(b, s.Verify)
		line(b, queryCheckLine(s.Verify))
	}
}

// writeExprLatency lists the latency of each query a workload timed
// apart (the prometheus workload's expressions), in the run's order.
func writeExprLatency(b *strings.Builder, v *summary.Verify) {
	if v == nil {
		return
	}
	width := 0
	for _, q := range v.Queries {
		if q.LatencyMS != nil {
			width = max(width, len(q.Query))
		}
	}
	if width == 0 {
		return
	}
	b.WriteString("Latency per expression, ms: p50 / p99 / max, answers\n")
	for _, q := range v.Queries {
		if l := q.LatencyMS; l != nil {
			fmt.Fprintf(b, "  %-*s  %s / %s / %s  %d\n", width, q.Query, f2(l.P50), f2(l.P99), f2(l.Max), q.Points)
		}
	}
}

// serverLine names the server version the run measured, as the server
// reported it: figures from two releases are not the same measurement.
func serverLine(version string) string {
	if version == "" {
		return ""
	}
	return "Server: " + version
}

// namesLine says how many names the server stores in another form, with
// one example; the mapping is in the run's JSON.
func namesLine(m map[string]string) string {
	if len(m) == 0 {
		return ""
	}
	keys := slices.Sorted(maps.Keys(m))
	return fmt.Sprintf("Names: %d stored in another form the server takes, e.g. %s as %q; reported by their own names (name_mapping in --json)",
		len(m), keys[0], m[keys[0]])
}

func line(b *strings.Builder, text string) {
	if text != "" {
		b.WriteString(text + "\n")
	}
}

// writeFailures prints one row per operation and error class. Failures are
// never mixed into latency, so this table is where they can be seen.
func writeFailures(b *strings.Builder, ops []summary.Operation) {
	classWidth := 0
	for _, o := range ops {
		for _, f := range o.Failures {
			classWidth = max(classWidth, len(f.Class)+2)
		}
	}
	if classWidth == 0 {
		return
	}
	b.WriteString("Failures by error class:\n")
	b.WriteString(failureRow("Operation", "Cause", "Class", "failOperation", "failPoint", "Example", classWidth) + "\n")
	for _, o := range ops {
		for _, f := range o.Failures {
			b.WriteString(failureRow(o.Name, f.Cause, f.Class,
				strconv.FormatInt(f.Operations, 10), strconv.FormatInt(f.Points, 10),
				oneLine(f.Example, exampleMax), classWidth) + "\n")
		}
	}
}

func failureRow(op, cause, class, ops, points, example string, classWidth int) string {
	return strings.TrimRight(pad(op, resultWidth)+pad(cause, 12)+pad(class, classWidth)+pad(ops, 15)+pad(points, 12)+example, " ")
}

// unsupportedLine names the operations the target could not express; they
// are neither passes nor failures, and saying so keeps a zero row in the
// matrix from looking like a fast query.
func unsupportedLine(s *summary.Summary) string {
	var parts []string
	for _, o := range s.Operations {
		if o.Unsupported > 0 {
			parts = append(parts, fmt.Sprintf("%s (%d operations)", o.Name, o.Unsupported))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	who := "the target"
	if s.Target != "" {
		who = "target " + s.Target
	}
	return "Unsupported by " + who + ": " + strings.Join(parts, ", ")
}

// phasesLine lists the steps outside the measured phase; their time is not in
// the elapsed time above, so it has to be shown somewhere.
func phasesLine(phases []summary.Phase) string {
	if len(phases) == 0 {
		return ""
	}
	parts := make([]string, len(phases))
	for i, p := range phases {
		parts[i] = p.Name + " " + f2(p.Seconds) + " second"
		if p.Operations > 0 || p.Points > 0 {
			parts[i] += fmt.Sprintf(", %d operations, %d points written", p.Operations, p.Points)
		}
	}
	return "Phases (not in the matrices): " + strings.Join(parts, "; ")
}

func verifyLine(v *summary.Verify) string {
	switch {
	case v == nil:
		return "Verify: not run"
	case v.Skipped != "":
		// Nothing was counted, so there is neither an OK nor a MISMATCH.
		return "Verify: skipped: " + oneLine(v.Skipped, exampleMax)
	case v.Error != "":
		return "Verify: FAILED to count stored points: " + oneLine(v.Error, exampleMax) + countFailures(v.CountFailures)
	}
	verdict := "MISMATCH"
	if v.OK {
		verdict = "OK"
	}
	text := fmt.Sprintf("Verify: stored %d points, expected %d", v.StoredPoints, v.ExpectedPoints)
	if v.ExpectedSeries > 0 {
		text += fmt.Sprintf(", in %d series, expected %d", v.StoredSeries, v.ExpectedSeries)
	}
	text += ": " + verdict
	if v.DuplicatePoints > 0 {
		text += fmt.Sprintf(" (%d written points repeat an earlier series and time of the data: expected once)", v.DuplicatePoints)
	}
	if v.InDoubtPoints > 0 {
		text += fmt.Sprintf(" (up to %d more allowed: points of writes in doubt, which timed out or lost their connection after sending)", v.InDoubtPoints)
	}
	if v.Method != "" {
		text += " (" + v.Method + ")"
	}
	return text + countFailures(v.CountFailures)
}

// countFailures says how many counts failed before the one verification
// reports, and the last one's error.
func countFailures(errs []string) string {
	if len(errs) == 0 {
		return ""
	}
	counts := "count"
	if len(errs) > 1 {
		counts = "counts"
	}
	return fmt.Sprintf(" (after %d failed %s, the last: %s)", len(errs), counts, oneLine(errs[len(errs)-1], exampleMax))
}

func storageLine(s *summary.Summary) string {
	if s.StorageBytes <= 0 {
		return ""
	}
	text := "Storage: " + HumanBytes(s.StorageBytes) + " on disk"
	if s.BytesPerPoint > 0 {
		text += ", " + f2(s.BytesPerPoint) + " bytes per point"
	}
	return text
}

// remoteWriteLine is what a prometheus workload run sent, protocol by
// protocol's cost on the wire.
func remoteWriteLine(rw *summary.RemoteWrite) string {
	if rw == nil || rw.Requests == 0 {
		return ""
	}
	protocol := "Remote write " + rw.Version
	if rw.Version == "OTLP" {
		protocol = "OTLP/HTTP metrics"
	}
	return fmt.Sprintf("%s: %d requests acknowledged, %d samples, %s compressed (%s bytes a sample)",
		protocol, rw.Requests, rw.Samples, HumanBytes(rw.Bytes), f2(rw.BytesPerSample))
}

// seriesLine is a prometheus workload run's series: the model's active
// series and churn, and the store's count of the series written.
func seriesLine(rw *summary.RemoteWrite, v *summary.Verify) string {
	if rw == nil || rw.ActiveSeries == 0 {
		return ""
	}
	text := fmt.Sprintf("Series: %s active, %s new a minute (the churn)", GroupThousands(fmt.Sprint(rw.ActiveSeries)),
		trimFloat(rw.NewSeriesPerMinute))
	if v != nil && v.ExpectedSeries > 0 {
		text += fmt.Sprintf("; %s written, %s held by the store", GroupThousands(fmt.Sprint(v.ExpectedSeries)),
			GroupThousands(fmt.Sprint(v.StoredSeries)))
	}
	return text
}

// toolLine shows what the benchmark itself cost, so that a reader can tell
// whether the client could have been the limit.
func toolLine(t summary.Tool, transactions bool) string {
	text := "Tool: " + f2(t.CPUSeconds) + " CPU s"
	if t.MeasuredCPUSeconds > 0 {
		text += ", " + f2(t.MeasuredCPUSeconds) + " while measuring"
	}
	unit := "points"
	if transactions {
		unit = "transactions" // a TPC-C run counts one "point" per transaction
	}
	if t.CPUSecondsPerMillionPoints > 0 {
		text += " (" + f2(t.CPUSecondsPerMillionPoints) + " CPU s per million " + unit + ")"
	}
	text += ", peak memory " + HumanBytes(t.PeakRSSBytes)
	if t.EmbeddedEngine != "" {
		text += " (includes the embedded " + t.EmbeddedEngine + " engine, which runs inside tsbench)"
	}
	return text
}

var stopReasons = map[string]string{
	"loop":        "every client finished its loop",
	"duration":    "the time limit was reached",
	"interrupted": "stopped by a signal or the user",
	"error":       "stopped by an error",
}

func stopLine(reason string) string {
	if reason == "" {
		return ""
	}
	if text, ok := stopReasons[reason]; ok {
		return "Stop reason: " + reason + " (" + text + ")"
	}
	return "Stop reason: " + reason
}

// workerLine says which share of a scaled-out run this process ran.
func workerLine(w *summary.Worker) string {
	if w == nil {
		return ""
	}
	share := fmt.Sprintf("clients %d..%d", w.Clients[0], w.Clients[1]-1)
	if w.Warehouses[1] > 0 {
		share = fmt.Sprintf("warehouses %d..%d and their terminals", w.Warehouses[0], w.Warehouses[1])
	}
	return fmt.Sprintf("Worker: %d of %d in group %s (%s); merge the group with: tsbench merge --group %s",
		w.Index, w.Workers, w.Group, share, w.Group)
}

// IncompleteBanner heads a merged run that lacks some workers' shares.
const IncompleteBanner = "*** INCOMPLETE: the merged run lacks the share of worker(s) %s; its counts are short by their share ***"

// writeMerge lists the workers a merged run adds up, and what is missing.
func writeMerge(b *strings.Builder, m *summary.Merge) {
	if m == nil {
		return
	}
	fmt.Fprintf(b, "Merged: %d of %d workers of group %s (counts are sums; percentiles from the added histograms)\n",
		len(m.Runs), m.Workers, m.Group)
	b.WriteString(strings.TrimRight(pad("worker", 8)+pad("run", 26)+pad("host", 20)+pad("status", 18)+pad("okOperation", 13)+
		pad("okPoint", 14)+pad("elapsed_s", 11)+pad("start_offset_ms", 17)+"tool_cpu_s", " ") + "\n")
	for _, r := range m.Runs {
		b.WriteString(strings.TrimRight(pad(strconv.Itoa(r.Index), 8)+pad(r.RunID, 26)+pad(r.Hostname, 20)+pad(r.Status, 18)+
			pad(strconv.FormatInt(r.Operations, 10), 13)+pad(strconv.FormatInt(r.Points, 10), 14)+pad(f2(r.Elapsed), 11)+
			pad(f2(r.OffsetMS), 17)+f2(r.CPUSeconds), " ") + "\n")
	}
	if len(m.Missing) > 0 {
		ids := make([]string, len(m.Missing))
		for i, x := range m.Missing {
			ids[i] = strconv.Itoa(x)
		}
		b.WriteString(fmt.Sprintf(IncompleteBanner, strings.Join(ids, ", ")) + "\n")
		for _, p := range m.Problems {
			b.WriteString("  " + p + "\n")
		}
	}
}

// replayLine says whose data the run wrote.
func replayLine(r *summary.Replay) string {
	if r == nil {
		return ""
	}
	text := fmt.Sprintf("Data: replayed %s (%s: %d devices x %d sensors, %d rows", r.Source, r.Format, r.Devices, r.Sensors, r.Rows)
	if r.DuplicateRows > 0 {
		text += fmt.Sprintf(", %d repeating an earlier device and time", r.DuplicateRows)
	}
	if r.MissingValues > 0 {
		text += fmt.Sprintf(", sparse: %d values missing", r.MissingValues)
	}
	if r.FirstTime != "" {
		text += ", " + r.FirstTime + " .. " + r.LastTime
	}
	text += ")"
	if r.Repeat {
		text += ", repeated with shifted times"
	}
	return text
}

// queryCheckLine says how the query answers checked after a replay
// compared with the data.
func queryCheckLine(v *summary.Verify) string {
	if v == nil {
		return ""
	}
	if v.QueriesSkipped != "" {
		return "Query answers: not checked: " + v.QueriesSkipped
	}
	if len(v.Queries) == 0 {
		return ""
	}
	var kinds, bad []string
	agree := 0
	for _, q := range v.Queries {
		switch {
		case q.Error != "":
			bad = append(bad, q.Query+" failed: "+oneLine(q.Error, exampleMax))
		case !q.OK:
			bad = append(bad, "MISMATCH "+q.Query+" ("+q.Window+"): "+q.Detail)
		default:
			agree++
			if !slices.Contains(kinds, q.Query) {
				kinds = append(kinds, q.Query)
			}
		}
	}
	text := fmt.Sprintf("Query answers: %d of %d agree with the data written", agree, len(v.Queries))
	if len(kinds) > 0 {
		text += " (" + strings.Join(kinds, ", ") + ")"
	}
	if v.QueriesOn != "" {
		text += ", " + v.QueriesOn
	}
	if v.QueriesSeconds > 0 {
		text += fmt.Sprintf(", checked in %s s after the measured run", f2(v.QueriesSeconds))
	}
	if len(bad) > shownDisagreements {
		bad = append(bad[:shownDisagreements], fmt.Sprintf("and %d more (the JSON summary lists every check)", len(bad)-shownDisagreements))
	}
	if len(bad) > 0 {
		text += "; " + strings.Join(bad, "; ")
	}
	return text
}

// shownDisagreements bounds the disagreements the console lists: one wrong
// answer usually repeats in every check of its kind.
const shownDisagreements = 3
