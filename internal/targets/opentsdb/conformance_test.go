package opentsdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// opentsdbServer is the OpenTSDB on HBase of scripts/services/opentsdb.sh,
// over plain HTTP.
var opentsdbServer = targettest.Server{Name: "opentsdb", Addr: "127.0.0.1:4242"}

// The target passes the conformance suite against that server; TEXT is
// declared unsupported and the suite checks that Setup refuses it.
func TestConformance(t *testing.T) { opentsdbServer.Conforms(t, Driver, "tsbench_conformance", nil) }

// TLS asked of the plain server is targets.ErrNoTLS, with the system's
// authorities as with a CA file, never plaintext.
func TestNoTLS(t *testing.T) { opentsdbServer.PlaintextOnly(t, Driver) }
