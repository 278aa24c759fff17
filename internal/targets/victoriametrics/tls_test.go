package victoriametrics

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// The test's VictoriaMetrics takes HTTPS only (-tls), with a certificate
// signed by a CA the test makes, and basic authentication (-httpAuth.*).
const (
	tlsUser     = "bench"
	tlsPassword = "vm-s3cret-0xC0DE"
)

// Over TLS with the right password, the target passes the conformance
// suite: every write, the imports of the Poster included, and every query
// go over verified HTTPS with basic authentication.
func TestTLSConformance(t *testing.T) {
	srv := testenv.StartVictoriaMetricsTLS(t, tlsUser, tlsPassword)
	targettest.Run(t, targettest.Suite{Driver: Driver,
		Options: targets.Options{Database: "tsbench_tls", Port: srv.Port, User: tlsUser, Password: tlsPassword,
			TLS: targets.TLS{Mode: "on", CAFile: srv.CA}},
		Settle: func(ctx context.Context, conn targets.Target) error { return conn.(*Target).flush(ctx) }})
}

// The target connects over TLS as asked: verified against the test's CA,
// unverified when insecure, refused with another CA or host name (naming
// the target and the key to set); a plaintext request is refused by the
// server; a wrong password is a clear error that does not show it; a
// server without TLS asked for TLS is ErrNoTLS, never a plaintext request.
func TestTLS(t *testing.T) {
	srv := testenv.StartVictoriaMetricsTLS(t, tlsUser, tlsPassword)
	cases := append(targettest.TLSCases(srv.CA, testenv.WriteCerts(t, t.TempDir())),
		targettest.TLSCase{Name: "system CAs", TLS: targets.TLS{Mode: "on"}, Want: "certificate signed by unknown authority"},
		targettest.TLSCase{Name: "the key to set", TLS: targets.TLS{Mode: "on", CAFile: testenv.WriteCerts(t, t.TempDir())},
			Want: "victoriametrics: GET https://127.0.0.1"},
		targettest.TLSCase{Name: "plaintext", TLS: targets.TLS{Mode: "off"}, Want: "HTTP request to an HTTPS server"})
	opts := func(tls targets.TLS) targets.Options {
		return targets.Options{Port: srv.Port, User: tlsUser, Password: tlsPassword, TLS: tls}
	}
	targettest.RunTLS(t, cases, targettest.TLSOpener(t, Driver, opts, "", func(_ context.Context, conn targets.Target) (bool, error) {
		return strings.HasPrefix(conn.(*Target).base, "https://"), nil
	}))

	t.Run("wrong password", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := Driver.Open(ctx, targets.Options{Port: srv.Port, User: tlsUser, Password: "not-" + tlsPassword,
			TLS: targets.TLS{Mode: "on", CAFile: srv.CA}})
		targettest.CheckAuthRefused(t, err, tlsPassword, "victoriametrics: GET https://127.0.0.1", "401 Unauthorized")
	})

	t.Run("server without TLS", func(t *testing.T) {
		targettest.RequireServer(t, "victoriametrics", "127.0.0.1:8428")
		targettest.CheckNoTLS(t, Driver, targets.Options{Port: DefaultPort}, srv.CA)
	})
}
