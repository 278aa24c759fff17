package influxdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
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

