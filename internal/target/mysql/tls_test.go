package mysql

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

// The target connects over TLS as asked, against a MariaDB that takes TLS
// connections only (require_secure_transport): verified against the test's
// own CA, refused with another CA or host name, refused in plaintext.
func TestTLS(t *testing.T) {
	ca := testenv.StartMariaDBTLS(t)
	other := testenv.WriteCerts(t, t.TempDir())
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
		// MariaDB 10.11 refuses a plaintext login under
		// require_secure_transport as a denied access.
		{"plaintext", target.TLS{Mode: "off"}, "Access denied"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, err := openSQL(ctx, target.Options{Port: testenv.MariaDBTLSPort, Database: "test", TLS: c.tls})
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
			var name, cipher string
			if err := db.QueryRowContext(ctx, "SHOW SESSION STATUS LIKE 'Ssl_cipher'").Scan(&name, &cipher); err != nil || cipher == "" {
				t.Fatalf("Ssl_cipher = %q (%v): the connection is not encrypted", cipher, err)
			}
		})
	}
}

// TLS asked of the MariaDB without TLS is ErrNoTLS, never plaintext.
func TestTLSAskedOfPlainServer(t *testing.T) {
	targettest.RequireServer(t, "mariadb", "127.0.0.1:3307")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := Driver.Open(ctx, target.Options{Database: "test", TLS: target.TLS{Mode: "on"}}); !errors.Is(err, target.ErrNoTLS) {
		t.Fatalf("error %v, want target.ErrNoTLS", err)
	}
}
