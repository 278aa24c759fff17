package spec

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in, want, err string
	}{
		{in: "prometheus-rw=http://127.0.0.1:8428/api/v1/write", want: "prometheus-rw=http://127.0.0.1:8428/api/v1/write"},
		{in: " JSON = live.ndjson ", want: "json=live.ndjson"},
		{in: "csv=a=b.csv", want: "csv=a=b.csv"},
		{in: "otlp=https://u:secret@host:4318/v1/metrics", want: "otlp=https://u:xxxxx@host:4318/v1/metrics"},
		{in: "influxdb=http://127.0.0.1:8086/k6", want: "influxdb=http://127.0.0.1:8086/k6"},
		{in: "statsd=localhost:8125", err: `unknown receiver "statsd" (allowed: csv=FILE, influxdb=URL, json=FILE, otlp=URL, prometheus-rw=URL)`},
		{in: "live.ndjson", err: "want KIND=WHERE"},
		{in: "json=", err: "json needs a FILE"},
		{in: "influxdb=127.0.0.1:8086", err: "needs an http:// or https:// URL"},
		{in: "otlp=http://", err: "needs an http:// or https:// URL"},
	} {
		s, err := Parse(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Parse(%q) = %v, %v; want error with %q", c.in, s, err, c.err)
			}
			continue
		}
		if err != nil || s.String() != c.want {
			t.Errorf("Parse(%q) = %q, %v; want %q", c.in, s, err, c.want)
		}
	}
}

func TestParseList(t *testing.T) {
	got, err := ParseList("json=a.ndjson; ;csv=b.csv", ";")
	if err != nil || len(got) != 2 || got[1].Kind != "csv" || got[1].Where != "b.csv" {
		t.Fatalf("ParseList = %v, %v", got, err)
	}
	if _, err := ParseList("json=a;bogus", ";"); err == nil {
		t.Fatal("a bad element was accepted")
	}
}
