package chdb

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/ts"
)

// dataDir is the engine's storage for the whole test process: chdb keeps
// one storage path a process, so every test shares it, each in a database
// of its own.
var dataDir string

// TestMain says in one line which tests were skipped for want of chdb-core
// (see testenv), and removes the engine's storage.
func TestMain(m *testing.M) {
	d, err := os.MkdirTemp("", "tsbench-chdb-test-")
	if err != nil {
		panic(err)
	}
	dataDir = filepath.Join(d, "chdb")
	code := testenv.Run(m)
	os.RemoveAll(d)
	os.Exit(code)
}

// options are o in the tests' storage; without chdb-core the test fails in
// CI and is skipped elsewhere.
func options(t testing.TB, o targets.Options) targets.Options {
	t.Helper()
	if _, err := findLibrary(); err != nil {
		testenv.Require(t, "chdb-core not found ("+err.Error()+"); install it with: scripts/ci/install-chdb.sh")
	}
	o.DataDir = dataDir
	return o
}

// The embedded engine passes the conformance suite, the names case
// included.
func TestConformance(t *testing.T) {
	targettest.Run(t, targettest.Suite{Driver: Driver, Options: options(t, targets.Options{Database: "conformance"})})
}

// Every fleet question answered by the engine agrees with internal/fleet's
// answer, on the fleet data and on the edge data.
func TestFleetQuestions(t *testing.T) {
	targettest.FleetQuestions(t, Driver, options(t, targets.Options{Database: "fleet"}))
}

func TestFleetEdges(t *testing.T) {
	targettest.FleetEdges(t, Driver, options(t, targets.Options{Database: "fleet_edges"}))
}

// The user's own statements: answers read by their column types, as the
// clickhouse target reads a server's, in DB_NAME's database; a text
// holding a quote, a backslash, a tab or a NUL finds its point; an engine error
// is an error.
func TestRunStatement(t *testing.T) {
	ctx := t.Context()
	texts := [2][3]string{{"a0", "it's", `back\slash`}, {"b0", "nul\x00here", "tab\there"}}
	tg := targettest.OwnData(ctx, t, Driver, options(t, targets.Options{Database: "own"}), ts.Text,
		targettest.OwnTexts(texts)).(targets.StatementRunner)
	lang := Driver.Language
	t0 := targettest.OwnStart.UnixMilli()
	for d, row := range texts {
		for k, text := range row {
			targettest.Answer{Text: targettest.Render(lang, "SELECT series, t, s FROM points FINAL WHERE s = {}", text),
				Columns: []string{"series", "t", "s"}, Values: [][]any{{int64(d*2 + 1), t0 + int64(k)*1000, text}}}.Check(ctx, t, tg)
		}
	}
	targettest.Answer{Text: "SELECT toUInt8(7) AS u, toInt32(-3) AS i, toNullable(toFloat64(1.5)) AS f, NULL AS n, " +
		"toDateTime64(1700000000.5, 3, 'UTC') AS dt, 'a\\tb' AS s",
		Columns: []string{"u", "i", "f", "n", "dt", "s"},
		Values:  [][]any{{int64(7), int64(-3), 1.5, nil, int64(1700000000500), "a\tb"}}}.Check(ctx, t, tg)
	if _, err := tg.RunStatement(ctx, &targets.Statement{Text: "SELECT nosuchcolumn FROM points"}); err == nil ||
		!strings.Contains(err.Error(), "nosuchcolumn") {
		t.Errorf("a bad column: %v", err)
	}
	// A hostile value written by Literal is one value that matches no
	// point, and the data is all still there.
	for _, h := range targettest.HostileAnd(`\`, `''`, "tab\tnul\x00", "`points`") {
		targettest.Answer{Text: targettest.Render(lang, "SELECT t, v FROM points FINAL WHERE s = {}", h)}.Check(ctx, t, tg)
	}
	targettest.Answer{Text: "SELECT count() AS n FROM points FINAL", Columns: []string{"n"}, Values: [][]any{{int64(12)}}}.Check(ctx, t, tg)
}

// The run names the engine's version; a second storage path in the same
// process is refused with a message that says why.
func TestVersionAndOnePath(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := Driver.Open(ctx, options(t, targets.Options{Database: "version"}))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	v, err := conn.(targets.Versioner).ServerVersion(ctx)
	if err != nil || !strings.HasPrefix(v, "ClickHouse 26.9.") {
		t.Errorf("version %q (%v), want ClickHouse 26.9.x", v, err)
	}
	o := options(t, targets.Options{})
	o.DataDir = t.TempDir()
	if c, err := Driver.Open(ctx, o); err == nil || !strings.Contains(err.Error(), "one storage path a process") {
		if c != nil {
			c.Close()
		}
		t.Errorf("a second path: %v, want a refusal naming chdb's one storage path", err)
	}
}
