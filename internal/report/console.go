// Package report turns a run's summary.Summary into what people and programs
// read: the console matrices in IoT-benchmark's shape, the JSON file, the CSV
// files, and the live progress line shown while a run goes on.
package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/summary"
)

// Column widths and banner widths of IoT-benchmark's Measurement class
// (RESULT_ITEM = "%-25s", LATENCY_ITEM = "%-12s"); its banners are 129 and
// 167 characters wide. Keeping them lets a user diff the two tools' output.
const (
	resultWidth        = 25
	latencyWidth       = 12
	resultBannerWidth  = 129
	latencyBannerWidth = 167
)

var resultHeader = []string{"Operation", "okOperation", "okPoint", "failOperation", "failPoint", "throughput(point/s)"}

// latencyHeader are the Latency (ms) Matrix columns after "Operation".
var latencyHeader = []string{"AVG", "MIN", "P10", "P25", "MEDIAN", "P75", "P90", "P95", "P99", "P999", "MAX", "SLOWEST_THREAD"}

// Console prints the result of a run: first exactly what IoT-benchmark prints
// (schema and elapsed lines, Result Matrix, Latency (ms) Matrix), then what
// only tsbench knows (service time, failures by class, unsupported
// operations, phases, verification, the tool's own cost, why the run
// stopped).
func Console(w io.Writer, s *summary.Summary) error {
	var b strings.Builder
	if s.Interrupted {
		b.WriteString(interruptedBanner + "\n")
	}
	b.WriteString("Create schema cost " + f2(s.SchemaSeconds) + " second\n")
	b.WriteString("Test elapsed time (not include schema creation): " + f2(s.Elapsed) + " second\n")
	writeResultMatrix(&b, s.Operations)
	writeLatencyMatrix(&b, "Latency (ms) Matrix", s.Operations, latencyRow)
	if s.OpenModel {
		writeLatencyMatrix(&b, "Service time (ms) Matrix", s.Operations, serviceRow)
		b.WriteString(openModelNote(s) + "\n")
		line(&b, s.NotSentNote())
	} else if s.ClosedModel() {
		b.WriteString(summary.ClosedModelWarning + "\n")
	} else if s.RealTime {
		b.WriteString(summary.RealTimeNote + "\n")
	}
	writeClientWait(&b, s)
	writeHosts(&b, s.Hosts)
	writeTPCC(&b, s)
	writeNotes(&b, s)
	_, err := io.WriteString(w, b.String())
	return err
}

const interruptedBanner = "*** INTERRUPTED: the run was stopped before its end; the figures cover only the part that ran ***"

// banner centres title in a line of dashes, as IoT-benchmark's
// "-----Result Matrix-----" lines are.
func banner(title string, width int) string {
	left := (width - len(title)) / 2
	right := width - len(title) - left
	if left < 1 || right < 1 {
		return "-" + title + "-"
	}
	return strings.Repeat("-", left) + title + strings.Repeat("-", right)
}

// row lays cells out left-aligned: the first in a resultWidth column, the
// rest in columns of width, every cell padded as Java's "%-25s" pads it: to
// the width when shorter, the last one too, and not at all when as wide
// (IoT-benchmark glues such a cell to the next). The matrices are then the
// same bytes as IoT-benchmark's, so the two tools' output diffs line by
// line.
func row(first string, rest []string, width int) string {
	return rowIn(resultWidth, first, rest, width)
}

// rowIn is row with a first column firstWidth wide.
func rowIn(firstWidth int, first string, rest []string, width int) string {
	var b strings.Builder
	b.WriteString(javaPad(first, firstWidth))
	for _, c := range rest {
		b.WriteString(javaPad(c, width))
	}
	return b.String()
}

// javaPad is Java's String.format("%-Ns", s).
func javaPad(s string, width int) string {
	if len(s) >= width {
		return s
	}
	return s + strings.Repeat(" ", width-len(s))
}

// iotBenchmarkOps are the rows of IoT-benchmark's matrices, in its order:
// every operation it knows but its verification and device queries, a row
// of zeros for those that did not run.
var iotBenchmarkOps = []string{"INGESTION", "PRECISE_POINT", "TIME_RANGE", "VALUE_RANGE", "AGG_RANGE", "AGG_VALUE",
	"AGG_RANGE_VALUE", "GROUP_BY", "LATEST_POINT", "RANGE_QUERY_DESC", "VALUE_RANGE_QUERY_DESC", "GROUP_BY_DESC", "SET_OPERATION"}

// matrixOps are the rows a run's matrices print: IoT-benchmark's thirteen
// when every operation is one of them, else (TPC-C, a scenario's own
// operations) the run's operations as they are.
func matrixOps(ops []summary.Operation) []summary.Operation {
	byName := map[string]summary.Operation{}
	for _, o := range ops {
		if !slices.Contains(iotBenchmarkOps, o.Name) {
			return ops
		}
		byName[o.Name] = o
	}
	out := make([]summary.Operation, len(iotBenchmarkOps))
	for i, name := range iotBenchmarkOps {
		out[i] = byName[name]
		out[i].Name = name
	}
	return out
}

func pad(s string, width int) string {
	if len(s) >= width {
		return s + " "
	}
	return s + strings.Repeat(" ", width-len(s))
}

// operationWidth is the matrices' first column: IoT-benchmark's 25, or,
// when an operation's name fills it (a TSBS query file's query types, the
// user's own queries), one more than the longest name, so that no name is
// glued to its figures. IoT-benchmark's own names are at most 22 wide, so
// its matrices keep its bytes.
func operationWidth(ops []summary.Operation) int {
	w := resultWidth
	for _, o := range ops {
		if len(o.Name) >= resultWidth {
			w = max(w, len(o.Name)+1)
		}
	}
	return w
}

func writeResultMatrix(b *strings.Builder, ops []summary.Operation) {
	first := operationWidth(ops)
	b.WriteString(banner("Result Matrix", resultBannerWidth) + "\n")
	b.WriteString(rowIn(first, resultHeader[0], resultHeader[1:], resultWidth) + "\n")
	for _, o := range matrixOps(ops) {
		b.WriteString(rowIn(first, o.Name, resultCells(o), resultWidth) + "\n")
	}
	b.WriteString(strings.Repeat("-", resultBannerWidth) + "\n")
}

// resultCells are one operation's Result Matrix values after its name.
func resultCells(o summary.Operation) []string {
	return []string{
		strconv.FormatInt(o.OKOperations, 10),
		strconv.FormatInt(o.OKPoints, 10),
		strconv.FormatInt(o.FailOperations, 10),
		strconv.FormatInt(o.FailPoints, 10),
		javaF2(o.Throughput),
	}
}

// writeLatencyMatrix prints a latency matrix after a blank line, as
// IoT-benchmark's starts.
func writeLatencyMatrix(b *strings.Builder, title string, ops []summary.Operation, cells func(summary.Operation) []string) {
	first := operationWidth(ops)
	b.WriteString("\n" + banner(title, latencyBannerWidth) + "\n")
	b.WriteString(rowIn(first, "Operation", latencyHeader, latencyWidth) + "\n")
	for _, o := range matrixOps(ops) {
		b.WriteString(rowIn(first, o.Name, cells(o), latencyWidth) + "\n")
	}
	b.WriteString(strings.Repeat("-", latencyBannerWidth) + "\n")
}

// latencyValues lists a Latency in the matrix's column order.
func latencyValues(l summary.Latency) []float64 {
	return []float64{l.Avg, l.Min, l.P10, l.P25, l.P50, l.P75, l.P90, l.P95, l.P99, l.P999, l.Max}
}

func latencyRow(o summary.Operation) []string {
	cells := formatAll(latencyValues(o.LatencyMS))
	return append(cells, javaF2(o.SlowestThreadMS))
}

// serviceRow prints "-" under SLOWEST_THREAD: the per-client sum is only
// kept for latency, and a number there would be a made-up one. An operation
// without service times (none succeeded) prints zeros, as IoT-benchmark does
// for operations that never ran.
func serviceRow(o summary.Operation) []string {
	var l summary.Latency
	if o.ServiceMS != nil {
		l = *o.ServiceMS
	}
	return append(formatAll(latencyValues(l)), "-")
}

func formatAll(vs []float64) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = javaF2(v)
	}
	return out
}

func openModelNote(s *summary.Summary) string {
	note := "Open model"
	if s.RatePerSecond > 0 {
		note += " at " + f2(s.RatePerSecond) + " operations/s"
	}
	return note + ": latency counts from the intended start time (coordinated omission corrected); service time counts from the actual send."
}

// writeHosts gives one line per host of a run with several (HOST lists
// them; client i connected to host i mod n).
func writeHosts(b *strings.Builder, hosts []summary.Host) {
	for _, h := range hosts {
		stored := ""
		if h.StoredPoints != nil {
			stored = fmt.Sprintf(", %d stored", *h.StoredPoints)
		}
		notSent := ""
		if h.NotSent > 0 {
			notSent = fmt.Sprintf(", %d due and never sent", h.NotSent)
		}
		fmt.Fprintf(b, "Host %s: %d clients, %d ok operations, %d ok points (%d written%s), %d failed operations%s, p50 %s ms, p99 %s ms\n",
			h.Host, h.Clients, h.OKOperations, h.OKPoints, h.WrittenPoints, stored, h.FailedOperations, notSent, f2(h.P50MS), f2(h.P99MS))
	}
}

// writeClientWait says what ended the latencies of a run whose answers
// were stamped at their arrival and how long answers then waited for the
// tool (its event loop, or a client's goroutine), per operation: the
// tool's own delay, left out of the latencies above and shown beside them.
func writeClientWait(b *strings.Builder, s *summary.Summary) {
	if s.LatencyClock == "" {
		return
	}
	b.WriteString("Latency ends at " + s.LatencyClock + "; the answers then waited for tsbench " +
		"(client wait, ms, not in the latency):\n")
	width := operationWidth(s.Operations)
	for _, o := range s.Operations {
		if w := o.ClientWaitMS; w != nil {
			fmt.Fprintf(b, "  %-*s  p50 %.3f  p99 %.3f  max %.3f  (latency p50 %.3f, p99 %.3f)\n", width, o.Name, w.P50, w.P99, w.Max,
				o.LatencyMS.P50, o.LatencyMS.P99)
		}
	}
}
