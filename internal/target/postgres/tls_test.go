package postgres

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/target"
	"github.com/tsbench/tsbench/internal/target/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// The target connects over TLS as asked, against a PostgreSQL that takes
// TLS connections only: verified against the test's own CA, refused with
// another CA or another host name, and refused in plaintext; a server
// without TLS asked for TLS is ErrNoTLS, never a plaintext connection.
func TestTLS(t *testing.T) {
	ca := testenv.StartPostgresTLS(t)
	other := testenv.WriteCerts(t, t.TempDir()) // a CA that signed nothing of the server's
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, c := range []struct {
		name string
		tls  target.TLS
		want string // "" to connect, over TLS
	}{
		{"verified", target.TLS{Mode: "on", CAFile: ca}, ""},
		{"insecure", target.TLS{Mode: "insecure"}, ""},
		{"another CA", target.TLS{Mode: "on", CAFile: other}, "certificate signed by unknown authority"},
		{"another host name", target.TLS{Mode: "on", CAFile: ca, ServerName: "db.example"}, "not db.example"},
		{"system CAs", target.TLS{Mode: "on"}, "certificate"},
		{"plaintext", target.TLS{Mode: "off"}, "no encryption"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, err := openSQL(ctx, target.Options{Port: testenv.PostgresTLSPort, Database: "test", TLS: c.tls})
			if c.want != "" {
				if err == nil {
					db.Close()
					t.Fatalf("connected; want an error saying %q", c.want)
				}
				if !strings.Contains(err.Error(), c.want) {
					t.Fatalf("error %v, want one saying %q", err, c.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			var ssl bool
			if err := db.QueryRowContext(ctx, "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").Scan(&ssl); err != nil || !ssl {
				t.Fatalf("pg_stat_ssl says ssl = %v (%v): the connection is not encrypted", ssl, err)
			}
		})
	}
}

// TLS asked of the server without TLS (scripts/services' plain PostgreSQL)
// is ErrNoTLS: tsbench does not fall back to plaintext.
func TestTLSAskedOfPlainServer(t *testing.T) {
	targettest.RequireServer(t, "postgres", "127.0.0.1:5433")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := Driver.Open(ctx, target.Options{Database: "test", TLS: target.TLS{Mode: "on"}})
	if !errors.Is(err, target.ErrNoTLS) {
		t.Fatalf("error %v, want target.ErrNoTLS", err)
	}
	if _, err := openSQL(ctx, target.Options{Database: "test", TLS: target.TLS{Mode: "insecure"}}); !errors.Is(err, target.ErrNoTLS) {
		t.Fatalf("database/sql access: error %v, want target.ErrNoTLS", err)
	}
}
