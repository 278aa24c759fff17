package results

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/results/resultstest"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/workload"
)

// hdrHistogramJavaVersion is the release scripts/ci/install-hdrhistogram.sh
// caches; keep the two in step.
const hdrHistogramJavaVersion = "2.2.2"

// TestHDRLogJavaReader proves that HdrHistogram's reference implementation
// reads the interval logs tsbench writes: its own HistogramLogProcessor
// processes the log of a recorded run, and what it prints per operation
// (counts, percentiles, per-interval figures) must be what the Go library
// computes from the summary's histograms. TestHDRLogReadsBack only reads the
// log with the Go port that wrote it, which would share any misreading of
// the format.
func TestHDRLogJavaReader(t *testing.T) {
	jar := requireHdrHistogramJar(t)
	// Counts are chosen so that every compared percentile falls on a whole
	// rank (n·q/100 is an integer): for a fractional rank the two libraries
	// pick different samples (Java rounds the rank up, Go to nearest), which
	// says nothing about the log. Latencies span sub-millisecond to tens of
	// milliseconds, so the values land in HDR buckets wider than 1 µs too.
	s := resultstest.Summary(resultstest.Run{ID: "20260301-120000-javaaa", Seconds: 10, Seed: 4,
		// A start with milliseconds, as a real run has.
		Started: time.Date(2026, 3, 1, 12, 0, 0, 345_000_000, time.UTC),
		Ops: []resultstest.Op{
			{Op: workload.Write, OpsPerSec: 200, Points: 100, Latency: 2 * time.Millisecond, FailPerSec: 2},
			{Op: 2, OpsPerSec: 100, Points: 10, Latency: 300 * time.Microsecond, Spread: 0.8},
			{Op: 7, OpsPerSec: 100, Points: 10, Latency: 40 * time.Millisecond, Spread: 0.5},
		}})
	if len(s.Intervals) != 10 || len(s.Operations) != 3 {
		t.Fatalf("synthetic run has %d intervals and %d operations, want 10 and 3", len(s.Intervals), len(s.Operations))
	}
	// A run's intervals carry histograms, so its log has one line per
	// operation and second; without them (older runs) one per operation.
	t.Run("per-interval", func(t *testing.T) { checkLogWithJava(t, jar, s) })
	whole := *s
	whole.Intervals = nil
	t.Run("whole-run", func(t *testing.T) { checkLogWithJava(t, jar, &whole) })
}

// expectedLine is one histogram line the log should hold for an operation.
type expectedLine struct {
	end  float64 // end of the interval, seconds after the log's start time
	hist *hdrhistogram.Histogram
}

func checkLogWithJava(t *testing.T, jar string, s *summary.Summary) {
	dir := t.TempDir()
	path, err := WriteHDRLogFile(dir, s)
	if err != nil {
		t.Fatal(err)
	}

	var names []string
	for _, o := range s.Operations {
		names = append(names, o.Name)
	}
	if tags := javaListTags(t, jar, path); !slices.Equal(sorted(tags), sorted(names)) {
		t.Errorf("-listtags found %q, want the operations %q", tags, names)
	}

	for _, o := range s.Operations {
		t.Run(o.Name, func(t *testing.T) {
			h, err := metrics.Decode(o.Histogram)
			if err != nil {
				t.Fatal(err)
			}
			want := expectedLines(t, s, o.Name, h)

			// With -o the tool writes the interval table to the named file and
			// the overall percentile distribution to NAME.hgrm; without it only
			// the distribution goes to stdout.
			prefix := filepath.Join(dir, o.Name)
			javaHistogramLogProcessor(t, jar, "-i", path, "-tag", o.Name, "-csv", "-outputValueUnitRatio", "1000", "-o", prefix)
			ivText := testenv.ReadText(t, prefix)
			intervals := readJavaCSV(t, ivText)
			dist := readJavaCSV(t, testenv.ReadText(t, prefix+".hgrm"))

			// The tool exits 0 and silently stops at the first line it cannot
			// parse, so only the counts prove that it read the whole log.
			if len(intervals.rows) != len(want) {
				t.Fatalf("the tool read %d intervals, the log has %d:\n%s", len(intervals.rows), len(want), ivText)
			}
			if m := regexp.MustCompile(`#\[StartTime: ([0-9.]+) `).FindStringSubmatch(ivText); m == nil {
				t.Errorf("no StartTime in the tool's output:\n%s", ivText)
			} else if sec, _ := strconv.ParseFloat(m[1], 64); math.Round(sec*1000) != float64(s.MeasureStarted.UnixMilli()) {
				// To the millisecond, as the run's start is kept.
				t.Errorf("StartTime %s, want %.3f (%s)", m[1], float64(s.MeasureStarted.UnixMilli())/1000, s.MeasureStarted)
			}
			for i, w := range want {
				at := "interval " + strconv.Itoa(i)
				if end := intervals.float(t, i, "Timestamp"); math.Abs(end-w.end) > 0.0015 {
					t.Errorf("%s: ends at %.3f s, want %.3f s", at, end, w.end)
				}
				if n := intervals.int(t, i, "Int_Count"); n != w.hist.TotalCount() {
					t.Errorf("%s: %d operations, want %d", at, n, w.hist.TotalCount())
				}
				sameValue(t, h, at+" p50", intervals.float(t, i, "Int_50%"), w.hist.ValueAtQuantile(50))
				sameValue(t, h, at+" p90", intervals.float(t, i, "Int_90%"), w.hist.ValueAtQuantile(90))
				sameValue(t, h, at+" max", intervals.float(t, i, "Int_Max"), w.hist.Max())
			}

			// The last row accumulates every interval: the operation's totals.
			last := len(intervals.rows) - 1
			if n := intervals.int(t, last, "Total_Count"); n != o.OKOperations {
				t.Errorf("total count %d, want the summary's %d OK operations", n, o.OKOperations)
			}
			for _, q := range []float64{50, 90, 99, 99.9} {
				col := "Total_" + strconv.FormatFloat(q, 'f', -1, 64) + "%"
				sameValue(t, h, col, intervals.float(t, last, col), h.ValueAtQuantile(q))
			}
			sameValue(t, h, "Total_Max", intervals.float(t, last, "Total_Max"), h.Max())
			t.Logf("Java: count %d, p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms; "+
				"Go: count %d, p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms",
				intervals.int(t, last, "Total_Count"), intervals.float(t, last, "Total_50%"), intervals.float(t, last, "Total_90%"),
				intervals.float(t, last, "Total_99%"), intervals.float(t, last, "Total_99.9%"), intervals.float(t, last, "Total_Max"),
				o.OKOperations, ms(h.ValueAtQuantile(50)), ms(h.ValueAtQuantile(90)), ms(h.ValueAtQuantile(99)),
				ms(h.ValueAtQuantile(99.9)), ms(h.Max()))

			// The percentile distribution (.hgrm), what HdrHistogram's
			// plotters read: it ends at 100 % with the total count and the
			// maximum, and its 50 % and 90 % rows are the percentiles.
			end := len(dist.rows) - 1
			if end < 0 {
				t.Fatal("empty percentile distribution")
			}
			if n := dist.int(t, end, "TotalCount"); n != o.OKOperations {
				t.Errorf(".hgrm total count %d, want %d", n, o.OKOperations)
			}
			sameValue(t, h, ".hgrm max", dist.float(t, end, "Value"), h.Max())
			for _, q := range []float64{50, 90} {
				row := slices.IndexFunc(dist.rows, func(r []string) bool { return r[dist.col(t, "Percentile")] == strconv.FormatFloat(q/100, 'f', 12, 64) })
				if row < 0 {
					t.Errorf(".hgrm has no %g %% row", q)
					continue
				}
				sameValue(t, h, ".hgrm p"+strconv.FormatFloat(q, 'f', -1, 64), dist.float(t, row, "Value"), h.ValueAtQuantile(q))
			}
		})
	}
}

// expectedLines returns the histogram lines WriteHDRLog writes for an
// operation, in order: one per interval that has a histogram, or one for the
// whole run when no interval has.
func expectedLines(t *testing.T, s *summary.Summary, name string, whole *hdrhistogram.Histogram) []expectedLine {
	t.Helper()
	var out []expectedLine
	perInterval := false
	for _, iv := range s.Intervals {
		for _, o := range iv.Ops {
			if o.Histogram == "" {
				continue
			}
			perInterval = true
			if o.Name != name {
				continue
			}
			h, err := metrics.Decode(o.Histogram)
			if err != nil {
				t.Fatal(err)
			}
			if h.TotalCount() != o.OKOps {
				t.Fatalf("interval at %.0f s: histogram of %d, %d OK operations", iv.Start, h.TotalCount(), o.OKOps)
			}
			out = append(out, expectedLine{end: iv.Start + iv.Seconds, hist: h})
		}
	}
	if perInterval {
		return out
	}
	return []expectedLine{{end: s.Elapsed, hist: whole}}
}

// sameValue checks a value the Java tool printed in milliseconds against
// the Go library's value in microseconds: equal within the histogram's
// resolution (3 significant digits), i.e. in the same HDR bucket.
func sameValue(t *testing.T, h *hdrhistogram.Histogram, what string, javaMS float64, goUS int64) {
	t.Helper()
	if javaUS := int64(math.Round(javaMS * 1000)); !h.ValuesAreEquivalent(javaUS, goUS) {
		t.Errorf("%s: Java %.3f ms, Go %.3f ms", what, javaMS, ms(goUS))
	}
}

func ms(us int64) float64 { return float64(us) / 1000 }

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// javaCSV is a CSV file the tool wrote with -csv: comment lines (#[...])
// dropped, a header row, then data rows.
type javaCSV struct {
	header []string
	rows   [][]string
}

func readJavaCSV(t *testing.T, text string) javaCSV {
	t.Helper()
	r := csv.NewReader(strings.NewReader(text))
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("unreadable CSV from the tool (%v):\n%s", err, text)
	}
	return javaCSV{header: recs[0], rows: recs[1:]}
}

func (c javaCSV) col(t *testing.T, name string) int {
	t.Helper()
	i := slices.Index(c.header, name)
	if i < 0 {
		t.Fatalf("the tool's output has no column %q: %q", name, c.header)
	}
	return i
}

func (c javaCSV) float(t *testing.T, row int, name string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(c.rows[row][c.col(t, name)], 64)
	if err != nil {
		t.Fatalf("row %d, %s: %v", row, name, err)
	}
	return v
}

func (c javaCSV) int(t *testing.T, row int, name string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(c.rows[row][c.col(t, name)], 10, 64)
	if err != nil {
		t.Fatalf("row %d, %s: %v", row, name, err)
	}
	return v
}

// javaListTags returns the tags -listtags finds in a log.
func javaListTags(t *testing.T, jar, path string) []string {
	t.Helper()
	out := javaHistogramLogProcessor(t, jar, "-i", path, "-listtags")
	_, list, ok := strings.Cut(out, "Tags found in input file:\n")
	if !ok {
		t.Fatalf("unexpected -listtags output:\n%s", out)
	}
	return strings.Fields(list)
}

// javaHistogramLogProcessor runs org.HdrHistogram.HistogramLogProcessor and
// returns its standard output; a JVM that hangs fails the test in bounded
// time instead of stalling the package.
func javaHistogramLogProcessor(t *testing.T, jar string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "java", append([]string{"-cp", jar, "org.HdrHistogram.HistogramLogProcessor"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("HistogramLogProcessor %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// requireHdrHistogramJar returns the HdrHistogram jar to run: the one named
// by TSBENCH_HDRHISTOGRAM_JAR, else the one install-hdrhistogram.sh caches.
// Without it (or without Java) the test fails in CI, where a missing tool is
// a broken pipeline, and is skipped elsewhere, naming the script to run (the
// policy of targettest.RequireServer).
func requireHdrHistogramJar(t *testing.T) string {
	t.Helper()
	jar := os.Getenv("TSBENCH_HDRHISTOGRAM_JAR")
	if jar == "" {
		cache := os.Getenv("TSBENCH_CACHE_DIR")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache", "tsbench")
		}
		jar = filepath.Join(cache, "hdrhistogram", "HdrHistogram-"+hdrHistogramJavaVersion+".jar")
	}
	var missing string
	if _, err := os.Stat(jar); err != nil {
		missing = "HdrHistogram's Java library not found (" + err.Error() + ")"
	} else if _, err := exec.LookPath("java"); err != nil {
		missing = "java not found (" + err.Error() + ")"
	}
	if missing == "" {
		return jar
	}
	testenv.Require(t, missing+"; install it with: scripts/ci/install-hdrhistogram.sh (or set TSBENCH_HDRHISTOGRAM_JAR)")
	return ""
}
