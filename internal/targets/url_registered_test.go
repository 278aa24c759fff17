package targets_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	_ "github.com/tsbench/tsbench/internal/targets/all"
)

// driver is the registered target named: each declares the URLs it takes
// in its own package.
func driver(t *testing.T, name string) *targets.Driver {
	t.Helper()
	d, err := targets.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Each target takes the URLs its package declares, read into the same
// endpoint whatever the spelling.
func TestParseURL(t *testing.T) {
	cases := []struct {
		driver, raw string
		want        targets.Endpoint
	}{
		{"postgres", "postgres://bench:s3cr:et@db.example:5432/tsdb?sslmode=verify-full",
			targets.Endpoint{Hosts: []string{"db.example:5432"}, User: "bench", Password: "s3cr:et", HasPass: true, Database: "tsdb", TLS: "on"}},
		{"timescaledb", "postgresql://u@h1:5432,h2:5433/db?sslmode=require&sslrootcert=/ca.pem",
			targets.Endpoint{Hosts: []string{"h1:5432", "h2:5433"}, User: "u", Database: "db", TLS: "insecure", CAFile: "/ca.pem"}},
		{"postgres", "postgres://u@127.0.0.1:5437,127.0.0.1:5438/test?target_session_attrs=read-write",
			targets.Endpoint{Hosts: []string{"127.0.0.1:5437", "127.0.0.1:5438"}, User: "u", Database: "test", ReadWrite: true}},
		{"questdb", "postgres://admin:quest@127.0.0.1:8812/qdb?sslmode=disable",
			targets.Endpoint{Hosts: []string{"127.0.0.1:8812"}, User: "admin", Password: "quest", HasPass: true, Database: "qdb", TLS: "off"}},
		{"mysql", "mysql://root:pw@127.0.0.1:3307/bench?tls=skip-verify",
			targets.Endpoint{Hosts: []string{"127.0.0.1:3307"}, User: "root", Password: "pw", HasPass: true, Database: "bench", TLS: "insecure"}},
		{"mysql", "root:p@ss/w@tcp(db:3306)/bench?tls=true",
			targets.Endpoint{Hosts: []string{"db:3306"}, User: "root", Password: "p@ss/w", HasPass: true, Database: "bench", TLS: "on"}},
		{"victoriametrics", "http://vminsert:8480/insert/0/prometheus/",
			targets.Endpoint{Hosts: []string{"vminsert:8480"}, Path: "/insert/0/prometheus"}},
		{"influxdb", "https://u:p@[::1]:8086",
			targets.Endpoint{Hosts: []string{"[::1]:8086"}, User: "u", Password: "p", HasPass: true, TLS: "on"}},
		{"clickhouse", "clickhouse://default@ch:8123/metrics?secure=true",
			targets.Endpoint{Hosts: []string{"ch:8123"}, User: "default", Database: "metrics", TLS: "on"}},
		{"cassandra", "cassandra://c1:9042/ks", targets.Endpoint{Hosts: []string{"c1:9042"}, Database: "ks"}},
		{"iotdb", "iotdb://root:root@127.0.0.1:6667", targets.Endpoint{Hosts: []string{"127.0.0.1:6667"}, User: "root", Password: "root", HasPass: true}},
	}
	for _, c := range cases {
		got, err := targets.ParseURL(driver(t, c.driver), "TARGET_URL", c.raw)
		if err != nil {
			t.Errorf("%s %s: %v", c.driver, c.raw, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s:\n got %+v\nwant %+v", c.driver, c.raw, got, c.want)
		}
	}
}

func TestParseURLRefuses(t *testing.T) {
	cases := []struct{ driver, raw, says string }{
		{"postgres", "mysql://u:hunter2@h/db", `scheme "mysql"`},
		{"postgres", "postgres://u:hunter2@h/db?sslmode=prefer", "prefer and allow"},
		{"postgres", "postgres://u:hunter2@h/db?application_name=x", `URL key "application_name"`},
		{"postgres", "postgres://u:hunter2@h:99999/db", "port number"},
		{"postgres", "postgres://u:hunter2@h1,h2/db?target_session_attrs=any", "allowed: read-write"},
		{"questdb", "postgres://u:hunter2@h/qdb?target_session_attrs=read-write", `URL key "target_session_attrs" is not honoured by the questdb target`},
		{"victoriametrics", "http://u:hunter2@h1:8428,h2:8428", "several hosts"},
		{"victoriametrics", "http://u:hunter2@h:8428/?extra_label=x", `URL key "extra_label"`},
		{"sqlite", "sqlite://u:hunter2@x", "takes no connection URL"},
		{"mysql", "mysql://u:hunter2@h/db?tls=preferred", "fall back to plaintext"},
		{"iotdb", "u:hunter2@h", "no scheme"},
	}
	for _, c := range cases {
		_, err := targets.ParseURL(driver(t, c.driver), "TARGET_URL", c.raw)
		var ue *targets.URLError
		if !errors.As(err, &ue) {
			t.Errorf("%s %s: got %v, want a URLError", c.driver, c.raw, err)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.says) || !strings.HasPrefix(msg, "TARGET_URL = ") || strings.Contains(msg, "hunter2") {
			t.Errorf("%s %s: %q: want it to name TARGET_URL, say %q and hide the password", c.driver, c.raw, msg, c.says)
		}
	}
}

// Each target with a test server names its service script (Driver.Service),
// which exists and is the script its Server text names first; the others
// (embedded, null) name none.
func TestDriversNameTheirServiceScript(t *testing.T) {
	script := regexp.MustCompile(`scripts/services/([\w.-]+)\.sh`)
	for _, name := range targets.Names() {
		d := driver(t, name)
		m := script.FindStringSubmatch(d.Server)
		switch {
		case m == nil && d.Service != "":
			t.Errorf("%s: Service %q, but its Server %q names no script", name, d.Service, d.Server)
		case m != nil && d.Service != m[1]:
			t.Errorf("%s: Service %q, but its Server names %s.sh", name, d.Service, m[1])
		case m != nil && d.DefaultPort == 0:
			t.Errorf("%s: a server started by %s.sh without a default port", name, d.Service)
		}
		if d.Service == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join("..", "..", "scripts", "services", d.Service+".sh")); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
