package targets

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseURL(t *testing.T) {
	cases := []struct {
		driver, raw string
		want        Endpoint
	}{
		{"postgres", "postgres://bench:s3cr:et@db.example:5432/tsdb?sslmode=verify-full",
			Endpoint{Hosts: []string{"db.example:5432"}, User: "bench", Password: "s3cr:et", HasPass: true, Database: "tsdb", TLS: "on"}},
		{"timescaledb", "postgresql://u@h1:5432,h2:5433/db?sslmode=require&sslrootcert=/ca.pem",
			Endpoint{Hosts: []string{"h1:5432", "h2:5433"}, User: "u", Database: "db", TLS: "insecure", CAFile: "/ca.pem"}},
		{"questdb", "postgres://admin:quest@127.0.0.1:8812/qdb?sslmode=disable",
			Endpoint{Hosts: []string{"127.0.0.1:8812"}, User: "admin", Password: "quest", HasPass: true, Database: "qdb", TLS: "off"}},
		{"mysql", "mysql://root:pw@127.0.0.1:3307/bench?tls=skip-verify",
			Endpoint{Hosts: []string{"127.0.0.1:3307"}, User: "root", Password: "pw", HasPass: true, Database: "bench", TLS: "insecure"}},
		{"mysql", "root:p@ss/w@tcp(db:3306)/bench?tls=true",
			Endpoint{Hosts: []string{"db:3306"}, User: "root", Password: "p@ss/w", HasPass: true, Database: "bench", TLS: "on"}},
		{"victoriametrics", "http://vminsert:8480/insert/0/prometheus/",
			Endpoint{Hosts: []string{"vminsert:8480"}, Path: "/insert/0/prometheus"}},
		{"influxdb", "https://u:p@[::1]:8086",
			Endpoint{Hosts: []string{"[::1]:8086"}, User: "u", Password: "p", HasPass: true, TLS: "on"}},
		{"clickhouse", "clickhouse://default@ch:8123/metrics?secure=true",
			Endpoint{Hosts: []string{"ch:8123"}, User: "default", Database: "metrics", TLS: "on"}},
		{"cassandra", "cassandra://c1:9042/ks", Endpoint{Hosts: []string{"c1:9042"}, Database: "ks"}},
		{"iotdb", "iotdb://root:root@127.0.0.1:6667", Endpoint{Hosts: []string{"127.0.0.1:6667"}, User: "root", Password: "root", HasPass: true}},
	}
	for _, c := range cases {
		got, err := ParseURL(c.driver, "TARGET_URL", c.raw)
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
		{"victoriametrics", "http://u:hunter2@h1:8428,h2:8428", "several hosts"},
		{"victoriametrics", "http://u:hunter2@h:8428/?extra_label=x", `URL key "extra_label"`},
		{"sqlite", "sqlite://u:hunter2@x", "takes no connection URL"},
		{"mysql", "mysql://u:hunter2@h/db?tls=preferred", "fall back to plaintext"},
		{"iotdb", "u:hunter2@h", "no scheme"},
	}
	for _, c := range cases {
		_, err := ParseURL(c.driver, "TARGET_URL", c.raw)
		var ue *URLError
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

func TestSplitHostPort(t *testing.T) {
	for in, want := range map[string][2]any{
		"h": {"h", 0}, "h:5433": {"h", 5433}, "[::1]:8428": {"::1", 8428}, "::1": {"::1", 0}, "[::1]": {"::1", 0},
	} {
		h, p := SplitHostPort(in)
		if h != want[0] || p != want[1] {
			t.Errorf("SplitHostPort(%q) = %q, %d; want %v", in, h, p, want)
		}
	}
}

// A host list gives one Options per host, a port in the list overriding
// PORT; HostPort of the whole list is the first host's.
func TestPerHost(t *testing.T) {
	o := Options{Host: "a:5433, b,[::1]:7", Port: 5432, User: "u"}
	got := o.PerHost()
	want := [][2]any{{"a", 5433}, {"b", 5432}, {"::1", 7}}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i, w := range want {
		if got[i].Host != w[0] || got[i].Port != w[1] || got[i].User != "u" {
			t.Errorf("host %d: %+v, want %v", i, got[i], w)
		}
	}
	if h, p := o.HostPort(1); h != "a" || p != 5433 {
		t.Errorf("HostPort of a list: %s %d", h, p)
	}
	if one := (Options{Host: "db", Port: 9}).PerHost(); len(one) != 1 || one[0].Host != "db" || one[0].Port != 9 {
		t.Errorf("one host: %+v", one)
	}
}
