// Package connect turns a run's configuration into its target's connection
// settings: the URLs (TARGET_URL, WRITE_URL, QUERY_URL) and hosts, TLS,
// and the target options, refusing before the run what the target would
// refuse only once connected. Its errors are bad input.
package connect

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/targets"
)

// Options are the connection settings of cfg's target; embedded targets
// keep their files under dataDir/<target>.
func Options(cfg *config.Config, d *targets.Driver, dataDir string) targets.Options {
	return withEndpoints(cfg, d, targets.Options{Host: cfg.Host, Port: cfg.Port, User: cfg.User, Password: cfg.Password,
		Token: cfg.Token, Database: cfg.Database, DataDir: filepath.Join(dataDir, d.Name), Extra: cfg.TargetOptions,
		TLS: TLS(cfg)})
}

// TLS are cfg's TLS keys, IoT-benchmark's trust store and protocol with
// them.
func TLS(cfg *config.Config) targets.TLS {
	return targets.TLS{Mode: cfg.TLS, CAFile: cfg.TLSCAFile, CertFile: cfg.TLSCertFile, KeyFile: cfg.TLSKeyFile,
		ServerName: cfg.TLSServerName, TrustStore: cfg.TrustStore, TrustStorePassword: cfg.TrustStorePwd,
		Protocol: cfg.SSLProtocol}
}

// CheckTLS refuses TLS asked of a target that cannot connect over it: the
// alternative would be a plaintext connection carrying the password.
func CheckTLS(cfg *config.Config, d *targets.Driver) error {
	if cfg.TLS == "off" {
		return nil
	}
	if d.Caps.TLS {
		// The files are read now: a wrong path, a store that does not open
		// with its password or a protocol not offered is bad input, found
		// before the run rather than by its first connection.
		_, err := TLS(cfg).Config(cfg.Host)
		return err
	}
	var with []string
	for _, x := range targets.Drivers() {
		if x.Caps.TLS {
			with = append(with, x.Name)
		}
	}
	return fmt.Errorf("TLS = %q (or USE_SSL): the %s target does not connect over TLS yet, and tsbench will not connect "+
		"in plaintext when TLS was asked for (targets with TLS: %s)", cfg.TLS, d.Name, strings.Join(with, ", "))
}

// TLSNote says how the run's connections are encrypted, when they are:
// above all when the server is not verified.
func TLSNote(cfg *config.Config) string {
	switch cfg.TLS {
	case "on":
		return "TLS on: the server's certificate chain and host name are verified"
	case "insecure":
		return "TLS insecure: connections are encrypted, but the server's certificate is NOT verified (TLS=insecure)"
	}
	return ""
}
