package targets

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
)

// TLS says how a target connects over TLS (the TLS and TLS_* keys).
type TLS struct {
	Mode       string // "off" (or ""), "on" (verify chain and host name) or "insecure" (no verification)
	CAFile     string // PEM authorities; the system's when empty
	CertFile   string // PEM client certificate, with KeyFile
	KeyFile    string
	ServerName string // the name the certificate must carry; the host when empty
	// TrustStore is a Java trust store (JKS or PKCS#12) whose trusted
	// certificates are authorities too, as IoT-benchmark's TRUST_STORE_PATH
	// and TRUST_STORE_PWD give them.
	TrustStore         string
	TrustStorePassword string
	// Protocol is IoT-benchmark's SSL_PROTOCOL, as Java names it: "TLS"
	// (or "") and "TLSv1.3" offer TLS 1.2 and 1.3, "TLSv1.2" TLS 1.2 at
	// most, as Java's SSLContext of that name does.
	Protocol string
}

// Enabled reports whether TLS was asked for.
func (t TLS) Enabled() bool { return t.Mode != "" && t.Mode != "off" }

// ErrNoTLS says that the server offers no TLS where TLS was asked for:
// tsbench stops rather than connect in plaintext.
var ErrNoTLS = errors.New("the server does not offer TLS, and tsbench will not connect in plaintext when TLS was asked for")

// Config is the crypto/tls configuration for a connection to host, or nil
// when TLS is off.
func (t TLS) Config(host string) (*tls.Config, error) {
	if !t.Enabled() {
		return nil, nil
	}
	cfg := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	if t.ServerName != "" {
		cfg.ServerName = t.ServerName
	}
	if t.Mode == "insecure" {
		cfg.InsecureSkipVerify = true
	}
	if t.CAFile != "" {
		pem, err := os.ReadFile(t.CAFile)
		if err != nil {
			return nil, fmt.Errorf("TLS_CA_FILE: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("TLS_CA_FILE %s: no PEM certificate in it", t.CAFile)
		}
	}
	if t.TrustStore != "" {
		certs, err := trustStoreCerts(t.TrustStore, t.TrustStorePassword)
		if err != nil {
			return nil, err
		}
		if cfg.RootCAs == nil {
			cfg.RootCAs = x509.NewCertPool()
		}
		for _, c := range certs {
			cfg.RootCAs.AddCert(c)
		}
	}
	switch t.Protocol {
	case "", "TLS", "TLSv1.3":
	case "TLSv1.2":
		cfg.MaxVersion = tls.VersionTLS12
	default:
		return nil, fmt.Errorf("SSL_PROTOCOL = %q: tsbench connects with TLS 1.2 or 1.3 only: allowed: TLS, TLSv1.2, TLSv1.3", t.Protocol)
	}
	if t.CertFile != "" || t.KeyFile != "" {
		pair, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("TLS_CERT_FILE and TLS_KEY_FILE: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}
