package mysql

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
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
		targettest.TLSCase{Name: "plaintext", TLS: targets.TLS{Mode: "off"}, Want: "Access denied"})
	targettest.RunTLS(t, cases, func(ctx context.Context, tls targets.TLS) (bool, error) {
		db, err := openSQL(ctx, targets.Options{Port: testenv.MariaDBTLSPort, Database: "test", TLS: tls})
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
	if _, err := Driver.Open(ctx, targets.Options{Database: "test", TLS: targets.TLS{Mode: "on"}}); !errors.Is(err, targets.ErrNoTLS) {
		t.Fatalf("error %v, want targets.ErrNoTLS", err)
	}
}
