package mysql

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily/sqltest"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// The target connects over TLS as asked, against a MariaDB that takes TLS
// connections only (require_secure_transport): verified against the test's
// own CA, refused with another CA or host name, refused in plaintext, which
// MariaDB 10.11 answers under require_secure_transport as a denied access.
func TestTLS(t *testing.T) {
	sqltest.TLS(t, testenv.StartMariaDBTLS(t), testenv.MariaDBTLSPort, openSQL,
		"SELECT VARIABLE_VALUE FROM information_schema.SESSION_STATUS WHERE VARIABLE_NAME = 'Ssl_cipher'",
		targettest.TLSCase{Name: "plaintext", TLS: targets.TLS{Mode: "off"}, Want: "Access denied"})
}

// TLS asked of the MariaDB without TLS is ErrNoTLS, never plaintext.
func TestTLSAskedOfPlainServer(t *testing.T) { sqltest.NoTLS(t, server, Driver) }
