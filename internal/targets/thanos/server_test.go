package thanos

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// TestMain says in one line which tests were skipped for want of a server
// (see testenv).
func TestMain(m *testing.M) { testenv.Main(m) }

// envPort is a port of scripts/services/thanos.sh: its variable, else def.
func envPort(name string, def int) int {
	if p, err := strconv.Atoi(os.Getenv(name)); err == nil && p > 0 {
		return p
	}
	return def
}

// The script's Receive (remote write) and Query (PromQL) ports.
var (
	port      = envPort("TSBENCH_THANOS_PORT", Driver.DefaultPort)
	queryPort = envPort("TSBENCH_THANOS_QUERY_PORT", 10904)
	server    = targettest.Server{Name: "thanos", Addr: "127.0.0.1:" + strconv.Itoa(port)}
)

func options(db string) targets.Options {
	return targets.Options{Database: db, Port: port, Extra: map[string]string{"query_port": strconv.Itoa(queryPort)}}
}

// The target passes the conformance suite against Thanos: remote write
// 1.0 to Receive, counts and every answer checked through Query.
func TestConformance(t *testing.T) {
	server.Conformance(t, targettest.Suite{Driver: Driver, Options: options("tsbench_conformance")}, nil)
}

// Query reports its build (the script compiles the version in).
func TestServerVersion(t *testing.T) {
	server.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := Driver.Open(ctx, options(""))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if v, err := conn.(targets.Versioner).ServerVersion(ctx); err != nil || v != "Thanos 0.42.5" {
		t.Errorf("ServerVersion = %q, %v; want Thanos 0.42.5", v, err)
	}
}
