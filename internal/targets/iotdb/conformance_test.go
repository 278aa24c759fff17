package iotdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// The target passes the conformance suite, in database conformance,
// against the IoTDB of scripts/services/iotdb.sh, inside scripts/netns-run
// as it binds every interface.
func TestConformance(t *testing.T) {
	targettest.Server{Name: "iotdb", Addr: "127.0.0.1:6667"}.Conforms(t, Driver, "conformance", nil)
}

// That IoTDB's client port takes plaintext only: TLS asked of it is
// targets.ErrNoTLS, with the system's authorities as with a CA file.
func TestNoTLS(t *testing.T) {
	targettest.Server{Name: "iotdb", Addr: "127.0.0.1:6667"}.PlaintextOnly(t, Driver)
}
