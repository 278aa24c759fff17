package postgres

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// The target connects over TLS as asked, against a PostgreSQL that takes
// TLS connections only: verified against the test's own CA, refused with
// another CA or another host name, and refused in plaintext; a server
// without TLS asked for TLS is ErrNoTLS, never a plaintext connection.
func TestTLS(t *testing.T) {
	ca := testenv.StartPostgresTLS(t)
	cases := append(targettest.TLSCases(ca, testenv.WriteCerts(t, t.TempDir())),
		targettest.TLSCase{Name: "system CAs", TLS: targets.TLS{Mode: "on"}, Want: "certificate"},
		targettest.TLSCase{Name: "plaintext", TLS: targets.TLS{Mode: "off"}, Want: "no encryption"})
	targettest.RunTLS(t, cases, func(ctx context.Context, tls targets.TLS) (bool, error) {
		db, err := openSQL(ctx, targets.Options{Port: testenv.PostgresTLSPort, Database: "test", TLS: tls})
		if err != nil {
			return false, err
		}
		defer db.Close()
		var ssl bool
		err = db.QueryRowContext(ctx, "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").Scan(&ssl)
		return ssl, err
	})
}

// TLS asked of the server without TLS (scripts/services' plain PostgreSQL)
// is ErrNoTLS: tsbench does not fall back to plaintext.
func TestTLSAskedOfPlainServer(t *testing.T) {
	targettest.RequireServer(t, "postgres", "127.0.0.1:5433")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := Driver.Open(ctx, targets.Options{Database: "test", TLS: targets.TLS{Mode: "on"}})
	if !errors.Is(err, targets.ErrNoTLS) {
		t.Fatalf("error %v, want targets.ErrNoTLS", err)
	}
	if _, err := openSQL(ctx, targets.Options{Database: "test", TLS: targets.TLS{Mode: "insecure"}}); !errors.Is(err, targets.ErrNoTLS) {
		t.Fatalf("database/sql access: error %v, want targets.ErrNoTLS", err)
	}
}
