package influxdb

import "testing"

// The target passes the conformance suite against InfluxDB 1.x
// (scripts/services/influxdb.sh), with and without gzip (gzip=false,
// gzip=true, a subtest each).
func TestConformance(t *testing.T) {
	server.Conforms(t, Driver, "tsbench_conformance",
		map[string][]string{"gzip": {"false", "true"}})
}

// That InfluxDB takes plain HTTP only: TLS asked of it is targets.ErrNoTLS,
// with the system's authorities as with a CA file, never a plaintext
// request.
func TestNoTLS(t *testing.T) { server.PlaintextOnly(t, Driver) }
