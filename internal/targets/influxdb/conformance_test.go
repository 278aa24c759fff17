package influxdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// server is InfluxDB 1.x (scripts/services/influxdb.sh), which takes plain
// HTTP only.
var server = targettest.Server{Name: "influxdb", Addr: "127.0.0.1:8086"}

// The target passes the conformance suite against that server, with and
// without gzip (gzip=false, gzip=true, a subtest each).
func TestConformance(t *testing.T) {
	server.Conforms(t, Driver, "tsbench_conformance", map[string][]string{"gzip": {"false", "true"}})
}

// TLS asked of the plain server is targets.ErrNoTLS, with the system's
// authorities as with a CA file, never a plaintext request.
func TestNoTLS(t *testing.T) { server.PlaintextOnly(t, Driver) }
