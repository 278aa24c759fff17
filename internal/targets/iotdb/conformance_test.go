package iotdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// server is the IoTDB of scripts/services/iotdb.sh, inside
// scripts/netns-run as it binds every interface; its client port takes
// plaintext only.
var server = targettest.Server{Name: "iotdb", Addr: "127.0.0.1:6667"}

// The target passes the conformance suite against that server, in
// database conformance.
func TestConformance(t *testing.T) { server.Conforms(t, Driver, "conformance", nil) }

// TLS asked of the plaintext port is targets.ErrNoTLS, with the system's
// authorities as with a CA file.
func TestNoTLS(t *testing.T) { server.PlaintextOnly(t, Driver) }
