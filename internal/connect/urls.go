package connect

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/redact"
	"github.com/tsbench/tsbench/internal/targets"
)

// ApplyURLs reads TARGET_URL into the keys it sets (HOST, PORT, USERNAME,
// PASSWORD, DB_NAME, TLS and its files, where the URL says them), so that
// the printed configuration and the checks that follow see them, and
// checks WRITE_URL, QUERY_URL and HOST's list. Every refusal is bad input
// naming the key and its value, the password hidden.
func ApplyURLs(cfg *config.Config, d *targets.Driver) error {
	if cfg.TargetURL != "" {
		if err := applyTargetURL(cfg, d); err != nil {
			return err
		}
	}
	for _, u := range []struct{ key, value string }{{"WRITE_URL", cfg.WriteURL}, {"QUERY_URL", cfg.QueryURL}} {
		if u.value == "" {
			continue
		}
		e, err := targets.ParseURL(d, u.key, u.value)
		if err != nil {
			return err
		}
		if len(e.Hosts) > 1 {
			return fmt.Errorf("%s = %q: one host only (allowed: a URL of one server; list several hosts in HOST or TARGET_URL)",
				u.key, redact.URL(u.value))
		}
	}
	hosts := strings.Split(cfg.Host, ",")
	for _, h := range hosts {
		if len(hosts) == 1 && strings.TrimSpace(h) == "" {
			break // the target's default host
		}
		if err := targets.CheckHostPort(strings.TrimSpace(h)); err != nil {
			return fmt.Errorf("HOST = %q: entry %q: %w (allowed: host or host:port, several comma-separated)", cfg.Host, h, err)
		}
	}
	if len(hosts) > 1 {
		switch {
		case cfg.WriteURL != "" || cfg.QueryURL != "":
			return fmt.Errorf("HOST = %q: several hosts with WRITE_URL or QUERY_URL: not supported "+
				"(allowed: several hosts, or one write and one query endpoint)", cfg.Host)
		case cfg.Workload == config.WorkloadTPCC:
			return fmt.Errorf("HOST = %q: several hosts with WORKLOAD = tpcc: not supported (allowed: one host)", cfg.Host)
		}
	}
	return nil
}

// withEndpoints completes the target options of cfg with what its URLs
// say beyond the keys: the path prefix of an HTTP TARGET_URL, and the
// write and query endpoints (WRITE_URL, QUERY_URL), each the options of
// TARGET_URL and the keys with its own URL's parts over them. The URLs
// were checked by ApplyURLs.
func withEndpoints(cfg *config.Config, d *targets.Driver, o targets.Options) targets.Options {
	parse := func(key, raw string) (targets.Endpoint, bool) {
		if raw == "" {
			return targets.Endpoint{}, false
		}
		e, err := targets.ParseURL(d, key, raw)
		return e, err == nil
	}
	if e, ok := parse("TARGET_URL", cfg.TargetURL); ok {
		o.Path = e.Path
		if e.ReadWrite {
			o.ReadWrite, o.Failover = true, e.Hosts[1:]
		}
	}
	if strings.Contains(o.Host, ",") {
		return o
	}
	if o.Port == 0 {
		// A single HOST given as host:port.
		var port int
		if o.Host, port = targets.SplitHostPort(o.Host); port != 0 {
			o.Port = port
		}
	}
	w, hasW := parse("WRITE_URL", cfg.WriteURL)
	q, hasQ := parse("QUERY_URL", cfg.QueryURL)
	if !hasW && !hasQ {
		return o
	}
	read := o
	if hasQ {
		read = q.Apply(o)
	}
	if hasW {
		o = w.Apply(o)
	}
	o.Query = &read
	return o
}

// EndpointsNote says, in the run's header, where the connections go when
// that is more than one server: the hosts and what they hold, or the write
// and query endpoints (their passwords hidden).
func EndpointsNote(cfg *config.Config, d *targets.Driver) string {
	if o := Options(cfg, d, ""); len(o.Failover) > 0 {
		host, port := o.HostPort(d.DefaultPort)
		return fmt.Sprintf("one database on %d nodes (target_session_attrs=read-write): each connection goes to the first of %s, %s that takes writes",
			len(o.Failover)+1, net.JoinHostPort(host, strconv.Itoa(port)), strings.Join(o.Failover, ", "))
	}
	if hosts := strings.Split(cfg.Host, ","); len(hosts) > 1 {
		return fmt.Sprintf("%d hosts, client i on host i mod %d, HOSTS_DATA=%s: %s", len(hosts), len(hosts), cfg.HostsData, strings.Join(hosts, ", "))
	}
	if cfg.WriteURL == "" && cfg.QueryURL == "" {
		return ""
	}
	w, q := "TARGET_URL/HOST", "TARGET_URL/HOST"
	if cfg.WriteURL != "" {
		w = redact.URL(cfg.WriteURL)
	}
	if cfg.QueryURL != "" {
		q = redact.URL(cfg.QueryURL)
	}
	return "writes to " + w + ", queries and verification to " + q
}

// applyTargetURL sets the keys TARGET_URL says.
func applyTargetURL(cfg *config.Config, d *targets.Driver) error {
	e, err := targets.ParseURL(d, "TARGET_URL", cfg.TargetURL)
	if err != nil {
		return err
	}
	if len(e.Hosts) == 1 || e.ReadWrite {
		// With target_session_attrs=read-write the hosts are one
		// database's nodes: HOST is the first, where the run starts,
		// and the rest are where it fails over to (withEndpoints).
		host, port := targets.SplitHostPort(e.Hosts[0])
		cfg.Host = host
		if port != 0 {
			cfg.Port = port
		}
	} else {
		cfg.Host = strings.Join(e.Hosts, ",")
	}
	if e.User != "" {
		cfg.User = e.User
	}
	if e.HasPass && e.Password != config.Redacted {
		// A stored run's URL comes back redacted: its password is
		// left to PASSWORD, as a stored PASSWORD is.
		cfg.Password = e.Password
	}
	if e.Database != "" {
		cfg.Database = e.Database
	}
	if e.TLS != "" {
		cfg.TLS = e.TLS
	}
	if e.CAFile != "" {
		cfg.TLSCAFile = e.CAFile
	}
	if e.CertFile != "" {
		cfg.TLSCertFile = e.CertFile
	}
	if e.KeyFile != "" {
		cfg.TLSKeyFile = e.KeyFile
	}
	return nil
}
