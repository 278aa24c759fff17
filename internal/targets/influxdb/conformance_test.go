package influxdb

import (
	"context"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// The InfluxDB 1.x servers of scripts/services, which take plain HTTP
// only: Debian's 1.6.7 (influxdb.sh, the target's default port) and the
// current 1.13.2 (influxdb-1.13.sh, beside it).
var (
	server  = targettest.Server{Name: "influxdb", Addr: "127.0.0.1:8086"}
	current = targettest.Server{Name: "influxdb-1.13", Addr: "127.0.0.1:8096", Port: 8096}
	// releases are the servers the conformance suite, the fleet questions
	// and the own statements run on.
	releases = []targettest.Server{server, current}
)

// The target passes the conformance suite against both releases, with and
// without gzip (gzip=false, gzip=true, a subtest each).
func TestConformance(t *testing.T) {
	targettest.EachServer(t, releases, func(t *testing.T, srv targettest.Server) {
		srv.Conforms(t, Driver, "tsbench_conformance", map[string][]string{"gzip": {"false", "true"}})
	})
}

// TLS asked of the plain servers is targets.ErrNoTLS, with the system's
// authorities as with a CA file, never a plaintext request.
func TestNoTLS(t *testing.T) {
	targettest.EachServer(t, releases, func(t *testing.T, srv targettest.Server) { srv.PlaintextOnly(t, Driver) })
}

// InfluxDB 1.8 and later serve InfluxDB 2.x's write and delete APIs
// (/api/v2/write, /api/v2/delete) beside their own, a database being a
// bucket: on 1.13 the target passes the conformance suite with
// write_path=v2, writes and resets through them, queries in InfluxQL. 1.6
// has neither API. The bucket is not created by the target (2.x makes
// buckets through its own API): the test creates the database.
func TestConformanceWriteV2(t *testing.T) {
	current.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const db = "tsbench_conformance_v2"
	conn, err := Driver.Open(ctx, current.Options(targets.Options{Database: db}))
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.Setup(ctx, &ts.Schema{}, true); err != nil { // creates the database
		t.Fatal(err)
	}
	conn.Close()
	current.Conformance(t, targettest.Suite{Driver: Driver, Options: targets.Options{Database: db}},
		map[string][]string{"write_path": {"v2"}, "precision": {"ms", "ns"}})
}
