package cassandra

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// server is the Cassandra of scripts/services/cassandra.sh, which takes
// plaintext only.
var server = targettest.Server{Name: "cassandra", Addr: "127.0.0.1:9042"}

// The target passes the conformance suite against that server. Q5, Q7 and
// Q8 are declared unsupported and the suite checks that they say so.
func TestConformance(t *testing.T) { server.Conforms(t, Driver, "tsbench_conformance", nil) }

// TLS asked of the plaintext server is targets.ErrNoTLS, with the system's
// authorities as with a CA file: tsbench does not fall back to plaintext.
func TestNoTLS(t *testing.T) { server.PlaintextOnly(t, Driver) }
