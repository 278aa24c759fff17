package mimir

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// TestMain says in one line which tests were skipped for want of a server
// (see testenv).
func TestMain(m *testing.M) { testenv.Main(m) }

// port is scripts/services/mimir.sh's server's (TSBENCH_MIMIR_PORT).
var port = func() int {
	if p, err := strconv.Atoi(os.Getenv("TSBENCH_MIMIR_PORT")); err == nil && p > 0 {
		return p
	}
	return DefaultPort
}()

var server = targettest.Server{Name: "mimir", Addr: "127.0.0.1:" + strconv.Itoa(port)}

// The target passes the conformance suite against Mimir on each write
// path: remote write 1.0 and 2.0 to the distributor, counts and every
// answer checked through the querier.
func TestConformance(t *testing.T) {
	server.Conformance(t, targettest.Suite{Driver: Driver, Options: targets.Options{Database: "tsbench_conformance", Port: port}},
		map[string][]string{"write_path": Driver.WritePaths})
}

// The server reports its build (the script compiles the module's version
// in).
func TestServerVersion(t *testing.T) {
	server.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := Driver.Open(ctx, targets.Options{Port: port})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if v, err := conn.(targets.Versioner).ServerVersion(ctx); err != nil || !strings.HasPrefix(v, "Grafana Mimir v1.3.1-") {
		t.Errorf("ServerVersion = %q, %v; want the pinned module version", v, err)
	}
}
