package target

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
	if t.CertFile != "" || t.KeyFile != "" {
		pair, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("TLS_CERT_FILE and TLS_KEY_FILE: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}
