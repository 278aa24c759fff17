package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/testenv"
)

// A run over TLS against a PostgreSQL that takes TLS connections only:
// verified against the test's CA, it writes, verifies and checks its
// answers, and its header says the server is verified; insecure says it is
// not.
func TestRunOverTLS(t *testing.T) {
	ca := testenv.StartPostgresTLS(t)
	port := strconv.Itoa(testenv.PostgresTLSPort)
	base := []string{"--target", "postgres", "--set", "PORT=" + port, "--loop", "30", "--devices", "4", "--sensors", "6"}
	s, _ := runVerified(t, append(base, "--set", "TLS=on", "--set", "TLS_CA_FILE="+ca)...)
	if s.Verify.Mismatch() || len(s.Verify.Queries) == 0 {
		t.Fatalf("verify %+v", s.Verify)
	}
	r := tsbench(t, nil, append([]string{"run", "--quiet", "--results", "off", "--set", "TLS=insecure"}, base...)...)
	if r.code != 0 || !strings.Contains(r.stderr, "certificate is NOT verified") {
		t.Fatalf("insecure: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

// TLS asked for never becomes a plaintext connection: against the plain
// PostgreSQL and the plain InfluxDB (an HTTP target), USE_SSL=true
// (IoT-benchmark's switch) exits 2 saying the server offers no TLS; a
// target without TLS refuses before connecting.
func TestTLSNeverPlaintext(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "postgres")
	requireTargetServer(t, "influxdb")
	for _, target := range []string{"postgres", "influxdb"} {
		r := tsbench(t, nil, "run", "--quiet", "--results", "off", "--target", target, "--set", "USE_SSL=true", "--loop", "11")
		if r.code != 2 || !strings.Contains(r.stderr, "does not offer TLS") {
			t.Fatalf("%s: exit %d, want 2 saying the server offers no TLS; stderr:\n%s", target, r.code, r.stderr)
		}
	}
	r := tsbench(t, nil, "run", "--quiet", "--target", "hbase", "--set", "TLS=on")
	if r.code != 2 || !strings.Contains(r.stderr, "does not connect over TLS yet") {
		t.Fatalf("hbase with TLS: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}
