package targettest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/testenv"
)

// TLSCase is one way of asking a server for TLS and what must come of it:
// an encrypted connection (Want empty) or an error saying Want.
type TLSCase struct {
	Name string
	TLS  targets.TLS
	Want string
}

// TLSCases are the cases every TLS-capable target passes against a server
// that takes TLS connections only, its certificate signed by ca: verified,
// unverified, refused with another authority (otherCA) and with another
// host name. A target adds its own refusal of plaintext, whose words are
// the server's.
func TLSCases(ca, otherCA string) []TLSCase {
	return []TLSCase{
		{"verified", targets.TLS{Mode: "on", CAFile: ca}, ""},
		{"insecure", targets.TLS{Mode: "insecure"}, ""},
		{"another CA", targets.TLS{Mode: "on", CAFile: otherCA}, "certificate signed by unknown authority"},
		{"another host name", targets.TLS{Mode: "on", CAFile: ca, ServerName: "db.example"}, "not db.example"},
	}
}

// HTTPSCases are the cases of an HTTP target against a server that takes
// HTTPS only: TLSCases, another authority's refusal saying keyToSet (the
// target and the key to set), and a plaintext request, which the server
// refuses.
func HTTPSCases(t testing.TB, ca, keyToSet string) []TLSCase {
	return append(TLSCases(ca, testenv.WriteCerts(t, t.TempDir())),
		TLSCase{Name: "the key to set", TLS: targets.TLS{Mode: "on", CAFile: testenv.WriteCerts(t, t.TempDir())}, Want: keyToSet},
		TLSCase{Name: "plaintext", TLS: targets.TLS{Mode: "off"}, Want: "HTTP request to an HTTPS server"})
}

// TLSConformance runs the conformance suite, as subtest "conformance", over
// a connection verified against ca: o with TLS on.
func TLSConformance(t *testing.T, d *targets.Driver, o targets.Options, ca string) {
	t.Helper()
	o.TLS = targets.TLS{Mode: "on", CAFile: ca}
	t.Run("conformance", func(t *testing.T) { Run(t, Suite{Driver: d, Options: o}) })
}

// RunTLS runs the cases through connect, which opens a connection with the
// TLS settings, reports whether the server sees it encrypted, and closes it.
func RunTLS(t *testing.T, cases []TLSCase, connect func(ctx context.Context, tls targets.TLS) (encrypted bool, err error)) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			encrypted, err := connect(ctx, c.TLS)
			switch {
			case c.Want == "" && err != nil:
				t.Fatal(err)
			case c.Want == "" && !encrypted:
				t.Fatal("connected, but the server says the connection is not encrypted")
			case c.Want != "" && err == nil:
				t.Fatalf("connected; want an error saying %q", c.Want)
			case c.Want != "" && !strings.Contains(err.Error(), c.Want):
				t.Fatalf("error %v, want one saying %q", err, c.Want)
			}
		})
	}
}

// TLSOpener is a RunTLS connect for d: it opens d with opts(tls), asks
// encrypted whether the connection is encrypted, and closes it. An open
// that fails is logged and, with errPrefix set, must fail with an error
// that starts with it (the target and where it connected), so that a TLS
// failure says where it happened.
func TLSOpener(t *testing.T, d *targets.Driver, opts func(targets.TLS) targets.Options, errPrefix string,
	encrypted func(ctx context.Context, conn targets.Target) (bool, error)) func(context.Context, targets.TLS) (bool, error) {
	return func(ctx context.Context, tls targets.TLS) (bool, error) {
		conn, err := d.Open(ctx, opts(tls))
		if err != nil {
			t.Logf("%s: %v", tls.Mode, err)
			if !strings.HasPrefix(err.Error(), errPrefix) {
				t.Errorf("the error does not start with %q (the target and its address): %v", errPrefix, err)
			}
			return false, err
		}
		defer conn.Close()
		return encrypted(ctx, conn)
	}
}

// CheckNoTLS opens d with opts asking for TLS (verified, with caFile as the
// authority, and unverified) against a server that offers none: each must
// fail with targets.ErrNoTLS, never connect in plaintext.
func CheckNoTLS(t *testing.T, d *targets.Driver, opts targets.Options, caFile string) {
	t.Helper()
	for _, mode := range []string{"on", "insecure"} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		o := opts
		o.TLS = targets.TLS{Mode: mode, CAFile: caFile}
		conn, err := d.Open(ctx, o)
		cancel()
		if err == nil {
			conn.Close()
		}
		if !errors.Is(err, targets.ErrNoTLS) {
			t.Fatalf("%s with TLS=%s: error %v, want targets.ErrNoTLS", d.Name, mode, err)
		}
	}
}

// CheckAuthRefused fails the test unless err is a server's refusal of a
// wrong password as the user must see it: an error saying each of want
// (the target and its request, the server's answer) that does not show
// the password, a secret that must never reach a message or a log.
func CheckAuthRefused(t *testing.T, err error, password string, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one saying %q", want)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Fatalf("error %v, want one saying %q", err, want)
		}
	}
	if strings.Contains(err.Error(), password) {
		t.Fatalf("the error shows the password: %v", err)
	}
}

// CheckPassword opens d with o, which must connect, then with the password
// wrong instead, which the server must refuse as CheckAuthRefused says:
// an error saying each of want that shows neither password.
func CheckPassword(t *testing.T, d *targets.Driver, o targets.Options, wrong string, want ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := d.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	right := o.Password
	o.Password = wrong
	if conn, err = d.Open(ctx, o); err == nil {
		conn.Close()
	}
	CheckAuthRefused(t, err, wrong, want...)
	if right != "" && strings.Contains(err.Error(), right) {
		t.Fatalf("the error shows the right password: %v", err)
	}
}

// CheckPlaintextRefused opens d with opts, which ask for no TLS, against a
// server port that takes TLS only: the open must fail. A test shows so that
// whatever connects to that port is encrypted once it connects.
func CheckPlaintextRefused(t *testing.T, d *targets.Driver, opts targets.Options) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := d.Open(ctx, opts)
	if err == nil {
		conn.Close()
		t.Fatalf("%s: a plaintext connection to a TLS-only port opened", d.Name)
	}
}
