package kairosdb

import "testing"

// The target passes the conformance suite against KairosDB on its H2
// datastore (scripts/services/kairosdb.sh): writes are visible to queries
// once it answered 204, so no Settle is needed.
func TestConformance(t *testing.T) { server.Conforms(t, Driver, "tsbench_conformance", nil) }

// That KairosDB takes plain HTTP only: TLS asked of it is targets.ErrNoTLS,
// with the system's authorities as with a CA file, never plaintext.
func TestNoTLS(t *testing.T) { server.PlaintextOnly(t, Driver) }
