package clickhouse

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// server is ClickHouse 18.16 (scripts/services/clickhouse.sh), without an
// HTTPS port.
var server = targettest.Server{Name: "clickhouse", Addr: "127.0.0.1:8124"}

// The target passes the conformance suite against that server.
func TestConformance(t *testing.T) { server.Conforms(t, Driver, "tsbench_conformance", nil) }

// That ClickHouse has no HTTPS port: TLS asked of it is targets.ErrNoTLS,
// with the system's authorities as with a CA file, never plaintext.
func TestNoTLS(t *testing.T) { server.PlaintextOnly(t, Driver) }
