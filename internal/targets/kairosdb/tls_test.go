package kairosdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// The server of scripts/services takes plain HTTP only: TLS asked of it is
// targets.ErrNoTLS, never a plaintext request.
func TestNoTLS(t *testing.T) {
	targettest.RequireServer(t, "kairosdb", "127.0.0.1:8080")
	targettest.CheckNoTLS(t, Driver, targets.Options{}, testenv.WriteCerts(t, t.TempDir()))
}
