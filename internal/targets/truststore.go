package targets

import (
	"bytes"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sort"

	keystore "github.com/pavlo-v-chernykh/keystore-go/v4"
	pkcs12 "software.sslmate.com/src/go-pkcs12"
)

// jksMagic opens every JKS file; anything else is read as PKCS#12, the
// format keytool writes by default since Java 9.
const jksMagic = 0xFEEDFEED

// trustStoreCerts reads the trusted certificates of a Java trust store
// (IoT-benchmark's TRUST_STORE_PATH and TRUST_STORE_PWD), JKS or PKCS#12,
// as the Java client would take them: its trusted certificate entries, the
// password checking the store's integrity. Errors name the key and the
// file, never the password.
func trustStoreCerts(path, password string) ([]*x509.Certificate, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("TRUST_STORE_PATH: %w", err)
	}
	fail := func(format string, err error) error {
		return fmt.Errorf("TRUST_STORE_PATH %s: "+format+" (or give the authorities as PEM with TLS_CA_FILE)", path, err)
	}
	if len(data) >= 4 && binary.BigEndian.Uint32(data) == jksMagic {
		ks := keystore.New()
		if err := ks.Load(bytes.NewReader(data), []byte(password)); err != nil {
			return nil, fail("a JKS trust store that does not open with TRUST_STORE_PWD: %v", err)
		}
		aliases := ks.Aliases()
		sort.Strings(aliases)
		var certs []*x509.Certificate
		for _, a := range aliases {
			if !ks.IsTrustedCertificateEntry(a) {
				continue // a key entry: a key store's, not an authority
			}
			e, err := ks.GetTrustedCertificateEntry(a)
			if err != nil {
				return nil, fail("entry "+a+": %v", err)
			}
			c, err := x509.ParseCertificate(e.Certificate.Content)
			if err != nil {
				return nil, fail("entry "+a+": %v", err)
			}
			certs = append(certs, c)
		}
		if len(certs) == 0 {
			return nil, fail("%v", fmt.Errorf("a JKS store without trusted certificate entries"))
		}
		return certs, nil
	}
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("-----BEGIN")) {
		return nil, fmt.Errorf("TRUST_STORE_PATH %s: a PEM file, not a Java trust store: give it as TLS_CA_FILE", path)
	}
	certs, err := pkcs12.DecodeTrustStore(data, password)
	switch {
	case errors.Is(err, pkcs12.ErrIncorrectPassword):
		return nil, fail("a PKCS#12 trust store that does not open with TRUST_STORE_PWD: %v", err)
	case err != nil:
		return nil, fail("neither a JKS nor a PKCS#12 trust store: %v", err)
	}
	if len(certs) == 0 {
		return nil, fail("%v", fmt.Errorf("a PKCS#12 store without trusted certificates"))
	}
	return certs, nil
}
