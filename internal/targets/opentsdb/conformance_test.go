package opentsdb

import "testing"

// The target passes the conformance suite against OpenTSDB on HBase
// (scripts/services/opentsdb.sh); TEXT is declared unsupported and the
// suite checks that Setup refuses it.
func TestConformance(t *testing.T) { opentsdbServer.Conforms(t, Driver, "tsbench_conformance", nil) }

// That OpenTSDB takes plain HTTP only: TLS asked of it is targets.ErrNoTLS,
// with the system's authorities as with a CA file, never plaintext.
func TestNoTLS(t *testing.T) { opentsdbServer.PlaintextOnly(t, Driver) }
