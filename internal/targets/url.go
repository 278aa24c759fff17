package targets

import (
	"errors"
	"fmt"
	"github.com/tsbench/tsbench/internal/redact"
	"maps"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Endpoint is what a connection URL (TARGET_URL, WRITE_URL, QUERY_URL)
// says; the empty fields are what it leaves to the other keys.
type Endpoint struct {
	// Hosts are the URL's hosts, each "host" or "host:port" (IPv6 in
	// brackets): a PostgreSQL URL may list several (h1:5432,h2:5433).
	Hosts    []string
	User     string
	Password string
	HasPass  bool // the URL carries a password (possibly empty)
	Database string
	// TLS is "on", "insecure" or "off" when the URL says it (sslmode,
	// tls=, https), else "".
	TLS      string
	CAFile   string // sslrootcert
	CertFile string // sslcert
	KeyFile  string // sslkey
	// Path is the path prefix of an HTTP URL, kept in front of every
	// request path (a VictoriaMetrics cluster's /insert/0/prometheus); ""
	// for none.
	Path string
	// ReadWrite is a PostgreSQL URL's target_session_attrs=read-write:
	// Hosts are one database's nodes, and each connection goes to the
	// first that takes writes (a primary, or its standby once promoted),
	// rather than the clients spread over them.
	ReadWrite bool
}

// URLs says which connection URLs (TARGET_URL, WRITE_URL, QUERY_URL) a
// target takes: the schemes and the query keys it honours. A target
// declares its own in Driver.URLs.
type URLs struct {
	Schemes []string
	Keys    []string // query keys honoured
	Example string
}

// The URL families several targets share.
var (
	PostgresURLs = &URLs{[]string{"postgres", "postgresql"}, []string{"sslmode", "sslrootcert", "sslcert", "sslkey"}, "postgres://user:pass@host:5432/db?sslmode=verify-full"}
	MySQLURLs    = &URLs{[]string{"mysql", "mariadb"}, []string{"tls"}, "mysql://user:pass@host:3306/db?tls=true (or user:pass@tcp(host:3306)/db?tls=true)"}
	HTTPURLs     = &URLs{[]string{"http", "https"}, nil, "https://user:pass@host:8428/path/prefix"}
)

// URLError is a URL a target cannot take: Key and Value (redacted) name
// it, Reason says why and Allowed what would do.
type URLError struct {
	Key, Value, Reason, Allowed string
}

func (e *URLError) Error() string {
	return fmt.Sprintf("%s = %q: %s (allowed: %s)", e.Key, e.Value, e.Reason, e.Allowed)
}

// mysqlDSN is go-sql-driver's DSN form: user:pass@tcp(host:port)/db?params.
var mysqlDSN = regexp.MustCompile(`^(?:([^:@]*)(?::(.*))?@)?tcp\(([^)]*)\)/([^?]*)(?:\?(.*))?$`)

// ParseURL reads raw, the value of key, as a connection URL of target d. It refuses a scheme the target does not speak and any
// query key it does not honour, rather than drop them unsaid.
func ParseURL(d *Driver, key, raw string) (Endpoint, error) {
	raw = strings.TrimSpace(raw)
	shown := redact.URL(raw)
	fam := d.URLs
	if fam == nil {
		return Endpoint{}, &URLError{key, shown, "the " + d.Name + " target takes no connection URL (set HOST, PORT and the other keys)",
			"a URL for one of " + strings.Join(takingURLs(), ", ")}
	}
	bad := func(format string, args ...any) error {
		return &URLError{key, shown, fmt.Sprintf(format, args...), fam.Example}
	}
	if fam.Schemes[0] == "mysql" {
		raw = fromMySQLDSN(raw)
	}
	scheme, rest, found := strings.Cut(raw, "://")
	if !found {
		return Endpoint{}, bad("not a URL: no scheme://")
	}
	scheme = strings.ToLower(scheme)
	if !contains(fam.Schemes, scheme) {
		return Endpoint{}, bad("scheme %q: the %s target takes %s://", scheme, d.Name, strings.Join(fam.Schemes, ":// or "))
	}
	// A host list (h1:5432,h2:5433) is not one URL host to net/url: the
	// hosts are cut out first and the rest parsed with a placeholder.
	authority, tail := rest, ""
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority, tail = rest[:i], rest[i:]
	}
	userinfo, hostlist := "", authority
	if i := strings.LastIndex(authority, "@"); i >= 0 {
		userinfo, hostlist = authority[:i+1], authority[i+1:]
	}
	u, err := url.Parse(scheme + "://" + userinfo + "placeholder" + tail)
	if err != nil {
		return Endpoint{}, bad("%v", redactErr(err, raw))
	}
	var e Endpoint
	for _, h := range strings.Split(hostlist, ",") {
		h = strings.TrimSpace(h)
		if h == "" {
			return Endpoint{}, bad("a host is missing")
		}
		if err := CheckHostPort(h); err != nil {
			return Endpoint{}, bad("host %q: %v", h, err)
		}
		e.Hosts = append(e.Hosts, h)
	}
	if len(e.Hosts) > 1 && fam.Schemes[0] != "postgres" {
		return Endpoint{}, bad("several hosts in one URL: only PostgreSQL URLs list them; list them in HOST instead")
	}
	if u.User != nil {
		e.User = u.User.Username()
		e.Password, e.HasPass = u.User.Password()
	}
	path := strings.TrimSuffix(u.Path, "/")
	switch fam.Schemes[0] {
	case "http":
		e.Path = path
	default:
		e.Database = strings.TrimPrefix(path, "/")
		if strings.Contains(e.Database, "/") {
			return Endpoint{}, bad("path %q: the path is the database name, one segment", u.Path)
		}
	}
	if scheme == "https" {
		e.TLS = "on"
	}
	if err := e.setQueryKeys(u.Query(), fam.Keys, d.Name, bad); err != nil {
		return Endpoint{}, err
	}
	return e, nil
}

// fromMySQLDSN rewrites go-sql-driver's DSN as the URL it stands for; any
// other raw is returned as it is.
func fromMySQLDSN(raw string) string {
	m := mysqlDSN.FindStringSubmatch(raw)
	if m == nil {
		return raw
	}
	userinfo := ""
	switch {
	case m[2] != "":
		userinfo = url.UserPassword(m[1], m[2]).String() + "@"
	case m[1] != "":
		userinfo = url.User(m[1]).String() + "@"
	}
	raw = "mysql://" + userinfo + m[3] + "/" + m[4]
	if m[5] != "" {
		raw += "?" + m[5]
	}
	return raw
}

// setQueryKeys applies a URL's query keys, in name order, refusing one
// the target does not honour (honoured lists those it does); bad makes
// the error.
func (e *Endpoint) setQueryKeys(q url.Values, honoured []string, driver string, bad func(string, ...any) error) error {
	keys := slices.Sorted(maps.Keys(q))
	for _, k := range keys {
		v := q.Get(k)
		if !contains(honoured, k) {
			allowed := "none"
			if len(honoured) > 0 {
				allowed = strings.Join(honoured, ", ")
			}
			return bad("URL key %q is not honoured by the %s target (URL keys it honours: %s)", k, driver, allowed)
		}
		if err := e.setQuery(k, v); err != nil {
			return bad("URL key %s=%s: %v", k, v, err)
		}
	}
	return nil
}

// setQuery applies one honoured URL key.
func (e *Endpoint) setQuery(k, v string) error {
	switch k {
	case "sslmode":
		// verify-ca is taken as verify-full: tsbench checks the host name
		// whenever it checks the chain, which is never less safe.
		return e.setTLSMode(v, map[string]string{"verify-full": "on", "verify-ca": "on", "require": "insecure", "disable": "off"},
			"allowed: disable, require, verify-ca, verify-full (prefer and allow may fall back to plaintext, which tsbench never does)")
	case "tls":
		return e.setTLSMode(strings.ToLower(v), map[string]string{"true": "on", "skip-verify": "insecure", "false": "off"},
			"allowed: true, skip-verify, false (preferred may fall back to plaintext; a named TLS config is set with TLS_* keys)")
	case "secure":
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("allowed: true, false")
		}
		e.TLS = map[bool]string{true: "on", false: "off"}[b]
	case "target_session_attrs":
		if v != "read-write" {
			return errors.New("allowed: read-write (each connection goes to the first host that takes writes)")
		}
		e.ReadWrite = true
	case "sslrootcert":
		e.CAFile = v
	case "sslcert":
		e.CertFile = v
	case "sslkey":
		e.KeyFile = v
	}
	return nil
}

// setTLSMode sets TLS to the mode ("on", "insecure" or "off") that modes
// gives the URL key's value v, or refuses a value it does not list with
// allowed.
func (e *Endpoint) setTLSMode(v string, modes map[string]string, allowed string) error {
	m, ok := modes[v]
	if !ok {
		return errors.New(allowed)
	}
	e.TLS = m
	return nil
}

// CheckHostPort checks one entry of HOST or of a URL's host list: "host"
// or "host:port" ("[v6]:port").
func CheckHostPort(h string) error {
	if strings.ContainsAny(h, "/@?# ") {
		return fmt.Errorf("not a host name")
	}
	host, port := h, ""
	if strings.HasPrefix(h, "[") || strings.Count(h, ":") == 1 {
		var err error
		if host, port, err = net.SplitHostPort(h); err != nil {
			if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
				host, port = h[1:len(h)-1], ""
			} else {
				return err
			}
		}
	}
	if host == "" {
		return fmt.Errorf("no host name")
	}
	if port != "" {
		if err := PortNumber(port); err != nil {
			return err
		}
	}
	return nil
}

// SplitHostPort cuts "host:port" (or "[v6]:port", or a bare host) into
// host and port (0 when it has none).
func SplitHostPort(h string) (string, int) {
	h = strings.TrimSpace(h)
	if strings.HasPrefix(h, "[") || strings.Count(h, ":") == 1 {
		if host, port, err := net.SplitHostPort(h); err == nil {
			n, _ := strconv.Atoi(port)
			return host, n
		}
		return strings.Trim(h, "[]"), 0
	}
	return h, 0
}

// redactErr is a parser's message about raw with its password hidden:
// net/url quotes the parts it refuses.
func redactErr(err error, raw string) string {
	msg := err.Error()
	if i, j, ok := redact.PasswordSpan(raw); ok {
		msg = strings.ReplaceAll(msg, raw[i:j], redact.Mask)
	}
	return msg
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// PerHost is one Options per host of o.Host, a comma-separated list whose
// entries are "host" or "host:port" (a port there overrides Port): the
// runner connects client i to host i mod n. A single host gives o itself
// (with its port cut out of Host).
func (o Options) PerHost() []Options {
	var out []Options
	for _, h := range strings.Split(o.Host, ",") {
		if h = strings.TrimSpace(h); h == "" {
			continue
		}
		x := o
		var port int
		x.Host, port = SplitHostPort(h)
		if port != 0 {
			x.Port = port
		}
		out = append(out, x)
	}
	if len(out) == 0 {
		out = append(out, o)
	}
	return out
}

// Apply sets in o what the endpoint e says (hosts, user, password,
// database, TLS, path) and leaves the rest.
func (e Endpoint) Apply(o Options) Options {
	if e.ReadWrite {
		o.ReadWrite = true
	}
	if len(e.Hosts) > 0 {
		o.Host, o.Port = strings.Join(e.Hosts, ","), 0
		if len(e.Hosts) == 1 {
			var port int
			o.Host, port = SplitHostPort(e.Hosts[0])
			o.Port = port
		}
	}
	if e.User != "" {
		o.User = e.User
	}
	if e.HasPass && e.Password != "***" { // a stored run's redacted URL leaves PASSWORD as it is
		o.Password = e.Password
	}
	if e.Database != "" {
		o.Database = e.Database
	}
	if e.TLS != "" {
		o.TLS.Mode = e.TLS
	}
	if e.CAFile != "" {
		o.TLS.CAFile = e.CAFile
	}
	if e.CertFile != "" {
		o.TLS.CertFile = e.CertFile
	}
	if e.KeyFile != "" {
		o.TLS.KeyFile = e.KeyFile
	}
	o.Path = e.Path
	return o
}

// takingURLs are the names of the registered targets that take a
// connection URL.
func takingURLs() []string {
	var with []string
	for _, n := range Names() {
		if d, err := Lookup(n); err == nil && d.URLs != nil {
			with = append(with, n)
		}
	}
	return with
}
