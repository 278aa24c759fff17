package results

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Location says where a results store is: an SQLite file (the default) or a
// PostgreSQL or MySQL/MariaDB database given by URL. Its String form never
// shows a password.
type Location struct {
	Dialect string // "sqlite", "postgres" or "mysql"
	Path    string // the SQLite file
	dsn     string // what the driver gets; may hold a password: never print it
	secret  string // the password, to scrub from driver errors
	display string
}

// String is the location for messages: the file, or the URL with its
// password replaced by "xxxxx".
func (l Location) String() string { return l.display }

// ParseLocation reads a --results value: a file path (or sqlite:PATH) for
// SQLite; postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?PARAMS] (or
// postgresql://) for PostgreSQL; mysql://USER[:PASSWORD]@HOST[:PORT]/DB
// [?PARAMS] for MySQL or MariaDB. An empty spec is the SQLite file def.
func ParseLocation(spec, def string) (Location, error) {
	spec = strings.TrimSpace(spec)
	switch {
	case spec == "":
		return sqliteLocation(def)
	case hasScheme(spec, "postgres"), hasScheme(spec, "postgresql"):
		return postgresLocation(spec)
	case hasScheme(spec, "mysql"), hasScheme(spec, "mariadb"):
		return mysqlLocation(spec)
	case strings.HasPrefix(spec, "sqlite://"):
		return sqliteLocation(strings.TrimPrefix(spec, "sqlite://"))
	case strings.HasPrefix(spec, "sqlite:"):
		return sqliteLocation(strings.TrimPrefix(spec, "sqlite:"))
	case strings.Contains(spec, "://"):
		scheme, _, _ := strings.Cut(spec, "://")
		return Location{}, fmt.Errorf("results store %q: unknown scheme %q; allowed: a file path (SQLite), postgres://USER@HOST:PORT/DB, mysql://USER@HOST:PORT/DB",
			Redact(spec), scheme)
	}
	return sqliteLocation(spec)
}

func hasScheme(spec, scheme string) bool {
	return len(spec) > len(scheme)+3 && strings.EqualFold(spec[:len(scheme)+3], scheme+"://")
}

func sqliteLocation(path string) (Location, error) {
	if path == "" {
		return Location{}, fmt.Errorf("results store: empty SQLite path")
	}
	abs, err := filepath.Abs(path)
	if err == nil {
		path = abs
	}
	return Location{Dialect: "sqlite", Path: path, dsn: sqliteDSN(path, sqliteBusyTimeout), display: path}, nil
}

// sqliteBusyTimeout is how long a store locked by another tsbench is waited
// for before the operation fails.
const sqliteBusyTimeout = 5 * time.Second

// sqliteDSN builds the modernc.org/sqlite URI: a busy timeout (a store
// locked by another tsbench waits that long, then fails clearly), WAL, and
// write transactions that take the lock up front.
func sqliteDSN(path string, busy time.Duration) string {
	p := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(path))
	return fmt.Sprintf("file:%s?_pragma=busy_timeout(%d)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate",
		p, busy.Milliseconds())
}

func postgresLocation(spec string) (Location, error) {
	u, err := url.Parse(spec)
	if err != nil {
		return Location{}, fmt.Errorf("results store %s: not a URL: %v", Redact(spec), scrub(err, spec))
	}
	q := u.Query()
	if q.Get("connect_timeout") == "" {
		q.Set("connect_timeout", "10")
		u.RawQuery = q.Encode()
	}
	u.Scheme = "postgres"
	return Location{Dialect: "postgres", dsn: u.String(), secret: password(u), display: Redact(spec)}, nil
}

func mysqlLocation(spec string) (Location, error) {
	u, err := url.Parse(spec)
	if err != nil {
		return Location{}, fmt.Errorf("results store %s: not a URL: %v", Redact(spec), scrub(err, spec))
	}
	cfg := mysql.NewConfig()
	cfg.Net = "tcp"
	host := u.Hostname()
	if host == "" {
		host = "127.0.0.1"
	}
	port := u.Port()
	if port == "" {
		port = "3306"
	}
	cfg.Addr = net.JoinHostPort(host, port)
	if u.User != nil {
		cfg.User = u.User.Username()
		cfg.Passwd, _ = u.User.Password()
	}
	cfg.DBName = strings.TrimPrefix(u.Path, "/")
	if cfg.DBName == "" {
		return Location{}, fmt.Errorf("results store %s: name the database, e.g. mysql://root@127.0.0.1:3306/tsbench", Redact(spec))
	}
	cfg.Timeout = 10 * time.Second
	cfg.Params = map[string]string{}
	for k, vs := range u.Query() {
		if len(vs) > 0 {
			cfg.Params[k] = vs[0]
		}
	}
	return Location{Dialect: "mysql", dsn: cfg.FormatDSN(), secret: cfg.Passwd, display: Redact(spec)}, nil
}

func password(u *url.URL) string {
	if u.User == nil {
		return ""
	}
	pw, _ := u.User.Password()
	return pw
}

// scrubErr wraps err with the location and without its password.
func (l Location) scrubErr(what string, err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if l.secret != "" {
		msg = strings.ReplaceAll(msg, l.secret, "xxxxx")
	}
	return fmt.Errorf("results store %s: %s: %s", l.display, what, msg)
}

// Redact returns a location with any password in it replaced by "xxxxx",
// for messages; a plain path is returned as it is.
func Redact(spec string) string {
	if !strings.Contains(spec, "://") {
		return spec
	}
	u, err := url.Parse(spec)
	if err != nil {
		// Unparseable: drop everything between "://" and the last '@'.
		scheme, rest, _ := strings.Cut(spec, "://")
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			userinfo := rest[:at]
			if user, _, ok := strings.Cut(userinfo, ":"); ok {
				return scheme + "://" + user + ":xxxxx" + rest[at:]
			}
		}
		return spec
	}
	q := u.Query()
	for _, k := range []string{"password", "pass", "pwd"} {
		if q.Has(k) {
			q.Set(k, "xxxxx")
			u.RawQuery = q.Encode()
		}
	}
	return u.Redacted()
}

// scrub removes a DSN's password from an error text (url.Parse errors quote
// the whole input).
func scrub(err error, spec string) string {
	if err == nil {
		return ""
	}
	msg := err.Error()
	if u, perr := url.Parse(spec); perr == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok && pw != "" {
			msg = strings.ReplaceAll(msg, pw, "xxxxx")
		}
		return msg
	}
	if i := strings.Index(spec, "://"); i >= 0 {
		rest := spec[i+3:]
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			if _, pw, ok := strings.Cut(rest[:at], ":"); ok && pw != "" {
				msg = strings.ReplaceAll(msg, pw, "xxxxx")
			}
		}
	}
	return msg
}
