package opentsdb

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/target"
	"github.com/tsbench/tsbench/internal/target/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// The server of scripts/services takes plain HTTP only: TLS asked of it is
// target.ErrNoTLS, never a plaintext request.
func TestNoTLS(t *testing.T) {
	targettest.RequireServer(t, "opentsdb", "127.0.0.1:4242")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := Driver.Open(ctx, target.Options{TLS: target.TLS{Mode: "on", CAFile: testenv.WriteCerts(t, t.TempDir())}})
	if !errors.Is(err, target.ErrNoTLS) {
		t.Fatalf("error %v, want target.ErrNoTLS", err)
	}
}
