package iotdb

import "testing"

// The target passes the conformance suite, in database conformance,
// against the IoTDB of scripts/services/iotdb.sh, inside scripts/netns-run
// as it binds every interface.
func TestConformance(t *testing.T) { server.Conforms(t, Driver, "conformance", nil) }

// That IoTDB's client port takes plaintext only: TLS asked of it is
// targets.ErrNoTLS, with the system's authorities as with a CA file.
func TestNoTLS(t *testing.T) { server.PlaintextOnly(t, Driver) }
