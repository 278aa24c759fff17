package targets

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/testenv"
)

// Java trust stores made by keytool, JKS and PKCS#12, are read as
// IoT-benchmark's Java client reads them: their authority verifies the
// server certificate it signed; a wrong password, a file of another kind
// or a store of another authority are refused or fail verification, and
// no error carries the password.
func TestTrustStore(t *testing.T) {
	dir := t.TempDir()
	ca := testenv.WriteCerts(t, dir)
	other := testenv.WriteCerts(t, t.TempDir())
	const pw = "store-secret-1"
	jks, p12 := testenv.WriteTrustStore(t, ca, "JKS", pw), testenv.WriteTrustStore(t, ca, "PKCS12", pw)
	otherJKS := testenv.WriteTrustStore(t, other, "JKS", pw)
	if err := os.WriteFile(filepath.Join(dir, "server.key.der"), []byte("\x30\x03\x02\x01\x01"), 0o600); err != nil {
		t.Fatal(err)
	}
	server := readCert(t, filepath.Join(dir, "server.crt"))
	for _, c := range []struct {
		name, path, password string
		verifies             bool
		want                 string // error text, when the store is refused
	}{
		{"JKS", jks, pw, true, ""},
		{"PKCS12", p12, pw, true, ""},
		{"JKS of another CA", otherJKS, pw, false, ""},
		{"JKS wrong password", jks, "nope", false, "JKS trust store that does not open with TRUST_STORE_PWD"},
		{"PKCS12 wrong password", p12, "nope", false, "PKCS#12 trust store that does not open with TRUST_STORE_PWD"},
		{"PEM file", ca, pw, false, "a PEM file, not a Java trust store: give it as TLS_CA_FILE"},
		{"not a store", filepath.Join(dir, "server.key.der"), pw, false, "neither a JKS nor a PKCS#12 trust store"},
		{"missing", filepath.Join(dir, "none.jks"), pw, false, "TRUST_STORE_PATH: open"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := TLS{Mode: "on", TrustStore: c.path, TrustStorePassword: c.password}.Config("127.0.0.1")
			if c.want != "" {
				t.Log(err)
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("error %v, want one saying %q", err, c.want)
				}
				if strings.Contains(err.Error(), pw) || strings.Contains(err.Error(), "nope") {
					t.Fatalf("the error carries the password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			_, err = server.Verify(x509.VerifyOptions{Roots: cfg.RootCAs, DNSName: "127.0.0.1"})
			if (err == nil) != c.verifies {
				t.Fatalf("verify the server certificate: %v, want success %v", err, c.verifies)
			}
		})
	}
	t.Run("with TLS_CA_FILE", func(t *testing.T) {
		// Both given: either authority is trusted.
		cfg, err := TLS{Mode: "on", CAFile: other, TrustStore: jks, TrustStorePassword: pw}.Config("127.0.0.1")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := server.Verify(x509.VerifyOptions{Roots: cfg.RootCAs, DNSName: "127.0.0.1"}); err != nil {
			t.Fatal(err)
		}
	})
}

// SSL_PROTOCOL as Java names it: the highest version offered.
func TestTLSProtocol(t *testing.T) {
	for _, c := range []struct {
		protocol string
		max      uint16
		ok       bool
	}{
		{"", 0, true}, {"TLS", 0, true}, {"TLSv1.3", 0, true}, {"TLSv1.2", tls.VersionTLS12, true},
		{"TLSv1.1", 0, false}, {"SSLv3", 0, false},
	} {
		cfg, err := TLS{Mode: "insecure", Protocol: c.protocol}.Config("127.0.0.1")
		switch {
		case c.ok && err != nil:
			t.Errorf("%q: %v", c.protocol, err)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), "SSL_PROTOCOL")):
			t.Errorf("%q: error %v, want one naming SSL_PROTOCOL", c.protocol, err)
		case c.ok && (cfg.MaxVersion != c.max || cfg.MinVersion != tls.VersionTLS12):
			t.Errorf("%q: versions %x-%x, want %x-%x", c.protocol, cfg.MinVersion, cfg.MaxVersion, tls.VersionTLS12, c.max)
		}
	}
}

func readCert(t *testing.T, path string) *x509.Certificate {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := pem.Decode(data)
	if b == nil {
		t.Fatalf("%s: no PEM block", path)
	}
	c, err := x509.ParseCertificate(b.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
