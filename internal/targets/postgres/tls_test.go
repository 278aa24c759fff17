package postgres

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily/sqltest"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// The target connects over TLS as asked, against a PostgreSQL that takes
// TLS connections only: verified against the test's own CA, refused with
// another CA, another host name or the system CAs, and refused in
// plaintext.
func TestTLS(t *testing.T) {
	sqltest.TLS(t, testenv.StartPostgresTLS(t), testenv.PostgresTLSPort, openSQL,
		"SELECT ssl::text FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
		targettest.TLSCase{Name: "system CAs", TLS: targets.TLS{Mode: "on"}, Want: "certificate"},
		targettest.TLSCase{Name: "plaintext", TLS: targets.TLS{Mode: "off"}, Want: "no encryption"})
}

// TLS asked of the server without TLS (scripts/services' plain PostgreSQL)
// is ErrNoTLS: tsbench does not fall back to plaintext.
func TestTLSAskedOfPlainServer(t *testing.T) { sqltest.NoTLS(t, server, Driver) }
