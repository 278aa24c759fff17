package clickhouse

import "testing"

// The target passes the conformance suite against ClickHouse 18.16
// (scripts/services/clickhouse.sh), without an HTTPS port.
func TestConformance(t *testing.T) { server.Conforms(t, Driver, "tsbench_conformance", nil) }

// That ClickHouse has no HTTPS port: TLS asked of it is targets.ErrNoTLS,
// with the system's authorities as with a CA file, never plaintext.
func TestNoTLS(t *testing.T) { server.PlaintextOnly(t, Driver) }
