package clickhouse

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// The ClickHouse of scripts/services has no HTTPS port: TLS asked of it is
// targets.ErrNoTLS, never a plaintext request.
func TestNoTLS(t *testing.T) {
	targettest.RequireServer(t, "clickhouse", "127.0.0.1:8124")
	targettest.CheckNoTLS(t, Driver, targets.Options{}, testenv.WriteCerts(t, t.TempDir()))
}

// USERNAME and PASSWORD go as HTTP basic authentication: ClickHouse's
// default user (no password) is let in when named, and a wrong password is
// a clear error naming the target, without the password.
func TestBasicAuth(t *testing.T) {
	targettest.RequireServer(t, "clickhouse", "127.0.0.1:8124")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := Driver.Open(ctx, targets.Options{User: "default"})
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	_, err = Driver.Open(ctx, targets.Options{User: "default", Password: "wrong-0xBAD"})
	if err == nil || !strings.Contains(err.Error(), "clickhouse: http://127.0.0.1:8124/") ||
		!strings.Contains(err.Error(), "password") {
		t.Fatalf("error %v, want ClickHouse's refusal of the password, naming the target", err)
	}
	if strings.Contains(err.Error(), "wrong-0xBAD") {
		t.Fatalf("the error shows the password: %v", err)
	}
}
