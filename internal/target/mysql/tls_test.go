package mysql

import (
	"context"
	"errors"
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
	// MariaDB 10.11 refuses a plaintext login under require_secure_transport
	// as a denied access.
	cases := append(targettest.TLSCases(ca, testenv.WriteCerts(t, t.TempDir())),
		targettest.TLSCase{Name: "plaintext", TLS: target.TLS{Mode: "off"}, Want: "Access denied"})
	targettest.RunTLS(t, cases, func(ctx context.Context, tls target.TLS) (bool, error) {
		db, err := openSQL(ctx, target.Options{Port: testenv.MariaDBTLSPort, Database: "test", TLS: tls})
		if err != nil {
			return false, err
		}
		defer db.Close()
		var name, cipher string
		err = db.QueryRowContext(ctx, "SHOW SESSION STATUS LIKE 'Ssl_cipher'").Scan(&name, &cipher)
		return cipher != "", err
	})
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
