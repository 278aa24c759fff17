package kairosdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// server is the KairosDB of scripts/services/kairosdb.sh, on its H2
// datastore, over plain HTTP.
var server = targettest.Server{Name: "kairosdb", Addr: "127.0.0.1:8080"}

// The target passes the conformance suite against that server: writes are
// visible to queries once it answered 204, so no Settle is needed.
func TestConformance(t *testing.T) { server.Conforms(t, Driver, "tsbench_conformance", nil) }

// TLS asked of the plain server is targets.ErrNoTLS, with the system's
// authorities as with a CA file, never plaintext.
func TestNoTLS(t *testing.T) { server.PlaintextOnly(t, Driver) }
