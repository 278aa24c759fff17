package report

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/testenv"
)

// closedSummary is a closed-model run with one write row and one query row;
// the INGESTION figures are those of IoT-benchmark's sample output.
func closedSummary() *summary.Summary {
	return &summary.Summary{
		SchemaVersion: summary.SchemaVersion,
		RunID:         "run-1",
		Target:        "influxdb",
		StopReason:    "loop",
		SchemaSeconds: 0.04,
		Elapsed:       57.06,
		Phases: []summary.Phase{
			{Name: "schema", Seconds: 0.04},
			{Name: "warm-up", Seconds: 5, Operations: 100, Points: 100000},
		},
		Operations: []summary.Operation{
			{
				Name: "INGESTION", OKOperations: 10000, OKPoints: 10000000,
				Throughput: 175260.54,
				LatencyMS: summary.Latency{
					Avg: 55.52, Min: 3.25, P10: 44.43, P25: 47.13, P50: 50.36, P75: 56.13,
					P90: 68.9, P95: 83.95, P99: 160.3, P999: 368.19, Max: 403.33,
				},
				SlowestThreadMS: 55934.34,
			},
			{
				Name: "VALUE_RANGE_QUERY_DESC", OKOperations: 998, OKPoints: 49900,
				FailOperations: 2, Throughput: 874.5239,
				LatencyMS: summary.Latency{
					Avg: 1.2345, Min: 0.1, P10: 0.2, P25: 0.3, P50: 1, P75: 1.5,
					P90: 2, P95: 2.5, P99: 4.25, P999: 9.75, Max: 12.0001,
				},
				SlowestThreadMS: 1234.5,
			},
		},
		Verify: &summary.Verify{ExpectedPoints: 10000000, StoredPoints: 10000000, OK: true},
		Tool: summary.Tool{
			CPUSeconds: 3.214, PeakRSSBytes: 45_200_000, CPUSecondsPerMillionPoints: 0.3214,
		},
	}
}

// TestConsoleMatchesIoTBenchmarkShape checks the matrix lines against
// IoT-benchmark's own output (reference/iot-benchmark.md, "Output shape").
func TestConsoleMatchesIoTBenchmarkShape(t *testing.T) {
	got := consoleText(t, closedSummary())
	for _, want := range []string{
		"Create schema cost 0.04 second\n",
		"Test elapsed time (not include schema creation): 57.06 second\n",
		"----------------------------------------------------------Result Matrix----------------------------------------------------------\n",
		"Operation                okOperation              okPoint                  failOperation            failPoint                throughput(point/s)\n",
		"INGESTION                10000                    10000000                 0                        0                        175260.54\n",
		"--------------------------------------------------------------------------Latency (ms) Matrix--------------------------------------------------------------------------\n",
		"Operation                AVG         MIN         P10         P25         MEDIAN      P75         P90         P95         P99         P999        MAX         SLOWEST_THREAD\n",
		"INGESTION                55.52       3.25        44.43       47.13       50.36       56.13       68.90       83.95       160.30      368.19      403.33      55934.34\n",
	} {
		// IoT-benchmark pads the last column too: the line goes on with spaces.
		if !strings.Contains(got, strings.TrimSuffix(want, "\n")) {
			t.Errorf("output lacks IoT-benchmark line %q", want)
		}
	}
}

func openSummary() *summary.Summary {
	s := closedSummary()
	s.Operations = s.Operations[:1]
	s.OpenModel = true
	s.RatePerSecond = 200
	s.Operations[0].ServiceMS = &summary.Latency{
		Avg: 5.5, Min: 1, P10: 2, P25: 3, P50: 4, P75: 6, P90: 8, P95: 9, P99: 10, P999: 11, Max: 12,
	}
	s.Operations = append(s.Operations, summary.Operation{
		Name: "GROUP_BY", Unsupported: 7,
	})
	s.Operations[0].FailOperations = 3
	s.Operations[0].FailPoints = 3000
	s.Operations[0].Failures = []summary.Failure{
		{Class: "timeout", Cause: "timeout", Example: "context deadline\nexceeded", Operations: 2, Points: 2000},
		{Class: "http 500", Cause: "server", Example: "server error", Operations: 1, Points: 1000},
	}
	s.Operations[0].Retries = 5
	s.Reconnects = 2
	s.Verify = &summary.Verify{ExpectedPoints: 10000000, StoredPoints: 9999000}
	s.Interrupted = true
	s.StopReason = "interrupted"
	s.StorageBytes = 123_456_789
	s.BytesPerPoint = 12.3456789
	return s
}

// TestConsoleGolden compares the whole console output with the expected
// one, line by line.
func TestConsoleGolden(t *testing.T) {
	cases := []struct {
		name    string
		summary *summary.Summary
		golden  string
	}{
		{"closed model", closedSummary(), "console_closed.golden"},
		{"open model, failures, interrupted", openSummary(), "console_open.golden"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			diffLines(t, consoleText(t, c.summary), golden(t, c.golden))
		})
	}
}

func TestConsoleVerifyVariants(t *testing.T) {
	cases := []struct {
		v    *summary.Verify
		want string
	}{
		{nil, "Verify: not run\n"},
		{&summary.Verify{Error: "count:\n timeout"}, "Verify: FAILED to count stored points: count: timeout\n"},
		{&summary.Verify{ExpectedPoints: 5, StoredPoints: 5, OK: true, CountFailures: []string{"connection reset", "read\ntimeout"}},
			"Verify: stored 5 points, expected 5: OK (after 2 failed counts, the last: read timeout)\n"},
		{&summary.Verify{Error: "timeout", CountFailures: []string{"refused"}},
			"Verify: FAILED to count stored points: timeout (after 1 failed count, the last: refused)\n"},
		{&summary.Verify{ExpectedPoints: 5, StoredPoints: 5, OK: true}, "Verify: stored 5 points, expected 5: OK\n"},
		{&summary.Verify{ExpectedPoints: 5, StoredPoints: 5, ExpectedSeries: 3, StoredSeries: 2},
			"Verify: stored 5 points, expected 5, in 2 series, expected 3: MISMATCH\n"},
		{&summary.Verify{ExpectedPoints: 5, Skipped: "the target cannot count"}, "Verify: skipped: the target cannot count\n"},
		{&summary.Verify{ExpectedPoints: 5, StoredPoints: 7, InDoubtPoints: 2, OK: true},
			"Verify: stored 7 points, expected 5: OK (up to 2 more allowed: points of writes in doubt, which timed out or lost their connection after sending)\n"},
	}
	for _, c := range cases {
		s := closedSummary()
		s.Verify = c.v
		got := consoleText(t, s)
		if !strings.Contains(got, c.want) {
			t.Errorf("verify %+v: output lacks %q", c.v, c.want)
		}
	}
}

func TestBannerWidths(t *testing.T) {
	for _, c := range []struct {
		title string
		width int
	}{{"Result Matrix", resultBannerWidth}, {"Latency (ms) Matrix", latencyBannerWidth}, {"Service time (ms) Matrix", latencyBannerWidth}} {
		if got := len(banner(c.title, c.width)); got != c.width {
			t.Errorf("banner(%q) is %d wide, want %d", c.title, got, c.width)
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errFail }

var errFail = errorString("disk full")

type errorString string

func (e errorString) Error() string { return string(e) }

func TestConsoleReportsWriteError(t *testing.T) {
	if err := Console(failWriter{}, closedSummary()); !errors.Is(err, errFail) {
		t.Fatalf("Console error = %v, want %v", err, errFail)
	}
}

// diffLines reports the first differing line, which is far easier to read
// than two 170-column blobs.
// iotBenchmarkSummary is closedSummary with two operations whose figures
// try IoT-benchmark's formats (HALF_UP rounding, a cell as wide as its
// column, operations out of its order): the IoT-benchmark golden files'.
func iotBenchmarkSummary() *summary.Summary {
	s := closedSummary()
	s.Operations = []summary.Operation{
		{Name: "TIME_RANGE", OKOperations: 998, OKPoints: 50898, FailOperations: 2, Throughput: 892.125,
			LatencyMS: summary.Latency{Avg: 0.125, Min: 0.1, P10: 0.2, P25: 0.375, P50: 1, P75: 1.5, P90: 2, P95: 2.5,
				P99: 4.25, P999: 9.75, Max: 123456789.125}, SlowestThreadMS: 1234.5},
		{Name: "INGESTION", OKOperations: 10000, OKPoints: 10000000, Throughput: 175260.544,
			LatencyMS: summary.Latency{Avg: 55.52, Min: 3.25, P10: 44.43, P25: 47.13, P50: 50.36, P75: 56.13,
				P90: 68.9, P95: 83.95, P99: 160.3, P999: 368.19, Max: 403.33}, SlowestThreadMS: 55934.345},
	}
	return s
}

// consoleText is what Console writes for s.
func consoleText(t *testing.T, s *summary.Summary) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Console(&buf, s); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// golden is the expected output in testdata/name. The outputs live in files,
// not in string constants, because their lines end in padding spaces that
// editors strip from source.
func golden(t *testing.T, name string) string {
	t.Helper()
	return testenv.ReadText(t, filepath.Join("testdata", name))
}

func diffLines(t *testing.T, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Fatalf("line %d differs:\n got: %q\nwant: %q\nfull output:\n%s", i+1, gl, wl, got)
		}
	}
}

func TestConsoleEmbeddedEngineNote(t *testing.T) {
	s := closedSummary()
	s.Tool.EmbeddedEngine = "sqlite"
	got := consoleText(t, s)
	want := "Tool: 3.21 CPU s (0.32 CPU s per million points), peak memory 45.2 MB (includes the embedded sqlite engine, which runs inside tsbench)\n"
	if !strings.Contains(got, want) {
		t.Errorf("output lacks %q:\n%s", want, got)
	}
}

func TestToolLine(t *testing.T) {
	cases := []struct {
		name         string
		tool         summary.Tool
		transactions bool
		want         string
	}{
		{"whole process only (a run saved before the measured part was kept)",
			summary.Tool{CPUSeconds: 3.214, CPUSecondsPerMillionPoints: 0.3214, PeakRSSBytes: 45_200_000}, false,
			"Tool: 3.21 CPU s (0.32 CPU s per million points), peak memory 45.2 MB"},
		{"with the measured part",
			summary.Tool{CPUSeconds: 0.4, MeasuredCPUSeconds: 0.33, CPUSecondsPerMillionPoints: 0.11, PeakRSSBytes: 62_100_000}, false,
			"Tool: 0.40 CPU s, 0.33 while measuring (0.11 CPU s per million points), peak memory 62.1 MB"},
		{"TPC-C counts transactions",
			summary.Tool{CPUSeconds: 2, MeasuredCPUSeconds: 1.5, CPUSecondsPerMillionPoints: 150, PeakRSSBytes: 1_000_000}, true,
			"Tool: 2.00 CPU s, 1.50 while measuring (150.00 CPU s per million transactions), peak memory 1.0 MB"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := toolLine(c.tool, c.transactions); got != c.want {
				t.Errorf("toolLine = %q\nwant        %q", got, c.want)
			}
		})
	}
}

// A prometheus workload run's series: the model's active series and
// churn, with the store's count when verification counted them; no line
// for a run of another workload.
func TestSeriesLine(t *testing.T) {
	rw := &summary.RemoteWrite{Version: "1.0", ActiveSeries: 42_500, NewSeriesPerMinute: 1530}
	cases := []struct {
		name string
		rw   *summary.RemoteWrite
		v    *summary.Verify
		want string
	}{
		{"counted", rw, &summary.Verify{ExpectedSeries: 51_000, StoredSeries: 50_999},
			"Series: 42,500 active, 1530 new a minute (the churn); 51,000 written, 50,999 held by the store"},
		{"not counted (the run stopped early)", rw, &summary.Verify{}, "Series: 42,500 active, 1530 new a minute (the churn)"},
		{"another workload", nil, &summary.Verify{}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := seriesLine(c.rw, c.v); got != c.want {
				t.Errorf("seriesLine = %q\nwant         %q", got, c.want)
			}
		})
	}
}

// The run names the server version it measured, after the verification
// line; a run without one (an embedded engine that does not say) has no
// such line.
func TestConsoleServerLine(t *testing.T) {
	for _, c := range []struct{ version, want string }{
		{"VictoriaMetrics v1.148.8", "Verify: stored 10000000 points, expected 10000000: OK\nServer: VictoriaMetrics v1.148.8\nTool: "},
		{"", "Verify: stored 10000000 points, expected 10000000: OK\nTool: "},
	} {
		s := closedSummary()
		s.Environment.ServerVersion = c.version
		got := consoleText(t, s)
		if !strings.Contains(got, c.want) {
			t.Errorf("version %q: output lacks %q:\n%s", c.version, c.want, got)
		}
	}
}

// The matrices are IoT-benchmark's bytes: thirteen rows in its order (zeros
// for what did not run), every cell padded as Java's "%-25s"/"%-12s" pads
// it (the last one too; a cell as wide as its column glued to the next),
// a blank line before the latency banner, and Java's half-up "%.2f". The
// golden file was written from IoT-benchmark's Measurement format strings,
// not from this code.
func TestConsoleMatricesGolden(t *testing.T) {
	s := iotBenchmarkSummary()
	got := consoleText(t, s)
	end := strings.Index(got, strings.Repeat("-", latencyBannerWidth)+"\n")
	if end < 0 {
		t.Fatalf("no latency matrix:\n%s", got)
	}
	diffLines(t, got[:end+latencyBannerWidth+1], golden(t, "iotbenchmark_matrices.golden"))
}

// A name as wide as the operation column or wider (a TSBS query type, an
// own query) widens the column in both matrices, so that the name is not
// glued to its figures; IoT-benchmark's names keep its 25.
func TestConsoleWidensForLongNames(t *testing.T) {
	long := "TimescaleDB mean of 10 metrics, all hosts, random 12h0m0s by 1h"
	for _, tc := range []struct {
		names []string
		width int
	}{
		{[]string{"INGESTION", "VALUE_RANGE_QUERY_DESC"}, 25},
		{[]string{"plus_one"}, 25},
		{[]string{"INGESTION", long}, len(long) + 1},
		{[]string{strings.Repeat("q", 25)}, 26},
	} {
		var ops []summary.Operation
		for _, n := range tc.names {
			ops = append(ops, summary.Operation{Name: n, OKOperations: 4})
		}
		if got := operationWidth(ops); got != tc.width {
			t.Errorf("%q: width %d, want %d", tc.names, got, tc.width)
		}
	}
	var b bytes.Buffer
	if err := Console(&b, &summary.Summary{Operations: []summary.Operation{{Name: long, OKOperations: 4, OKPoints: 416}}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\n" + long + " 4 ", "\nOperation" + strings.Repeat(" ", len(long)+1-len("Operation")) + "AVG "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("console lacks %q:\n%s", want, b.String())
		}
	}
}

// A run whose answers were stamped at arrival says what ended its latencies and prints each
// operation's client wait beside its latency.
func TestConsoleClientWait(t *testing.T) {
	s := closedSummary()
	s.LatencyClock = "each answer's arrival: the kernel's receive timestamp of its last bytes (SO_TIMESTAMPNS)"
	s.Operations[1].ClientWaitMS = &summary.Latency{P50: 0.012, P99: 0.31, Max: 2.5}
	var b strings.Builder
	if err := Console(&b, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Latency ends at each answer's arrival: the kernel's receive timestamp of its last bytes (SO_TIMESTAMPNS); " +
			"the answers then waited for tsbench (client wait, ms, not in the latency):\n",
		"  VALUE_RANGE_QUERY_DESC     p50 0.012  p99 0.310  max 2.500  (latency p50 1.000, p99 4.250)\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in:\n%s", want, b.String())
		}
	}
	if strings.Contains(consoleText(t, closedSummary()), "client wait") {
		t.Error("a run without arrival stamps tells of client wait")
	}
}

// An open-model run whose clients fell behind says how many operations
// fell due and were never sent, in all and per host; one that kept up
// says nothing of it.
func TestConsoleNotSent(t *testing.T) {
	s := closedSummary()
	s.OpenModel, s.RatePerSecond, s.NotSent = true, 100, 562
	s.Hosts = []summary.Host{{Host: "127.0.0.8:3306", Clients: 2, OKOperations: 105, OKPoints: 105000, WrittenPoints: 105000,
		P50MS: 8, P99MS: 26}, {Host: "127.0.0.9:3306", Clients: 2, OKOperations: 105, OKPoints: 105000, WrittenPoints: 105000,
		FailedOperations: 5, NotSent: 562, P50MS: 9, P99MS: 26}}
	text := consoleText(t, s)
	for _, want := range []string{
		"Not sent: 562 operations fell due before the end and were never sent: their clients were still on earlier ones " +
			"(a slow, stalled or absent server); no latency of theirs is in the matrices.\n",
		"Host 127.0.0.8:3306: 2 clients, 105 ok operations, 105000 ok points (105000 written), 0 failed operations, p50 8.00 ms",
		"Host 127.0.0.9:3306: 2 clients, 105 ok operations, 105000 ok points (105000 written), 5 failed operations, " +
			"562 due and never sent, p50 9.00 ms",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	s.NotSent, s.Hosts = 0, nil
	if text := consoleText(t, s); strings.Contains(text, "Not sent") {
		t.Errorf("a run that kept up says:\n%s", text)
	}
}

// The query-check line counts the answers that agree, names their kinds,
// and says which devices they were checked on when some were left out, or
// why none was checked.
func TestQueryCheckLine(t *testing.T) {
	ok := []summary.QueryCheck{{Query: "TIME_RANGE", OK: true}, {Query: "AGG_RANGE", OK: true}}
	for _, c := range []struct {
		v    *summary.Verify
		want string
	}{
		{&summary.Verify{Queries: ok}, "Query answers: 2 of 2 agree with the data written (TIME_RANGE, AGG_RANGE)"},
		{&summary.Verify{Queries: ok, QueriesOn: "on the 18 devices whose every write was stored; 2 with a write failed for good left out"},
			"Query answers: 2 of 2 agree with the data written (TIME_RANGE, AGG_RANGE), on the 18 devices whose every write " +
				"was stored; 2 with a write failed for good left out"},
		{&summary.Verify{QueriesSkipped: "3 writes failed for good, on every device: ..."},
			"Query answers: not checked: 3 writes failed for good, on every device: ..."},
		{&summary.Verify{}, ""},
	} {
		if got := queryCheckLine(c.v); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}
