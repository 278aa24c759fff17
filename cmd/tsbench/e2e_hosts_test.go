package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/testenv"
)

// Two VictoriaMetrics servers as two hosts with HOSTS_DATA=separate: the
// clients are spread round robin (3 clients: 2 on the first host, 1 on the
// second), each server stores the points its clients wrote — counted here
// through each server's own /api/v1/export — the per-host breakdown says
// so, and verification sums both servers' counts and passes.
func TestSeveralHostsSeparateData(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "victoriametrics")
	second := "127.0.0.1:" + strconv.Itoa(testenv.StartVictoriaMetrics(t))
	hosts := []string{"127.0.0.1:8428", second}
	db := "hosts_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	s, stdout := runVerified(t, "--target", "victoriametrics", "--set", "HOST="+strings.Join(hosts, ","),
		"--set", "HOSTS_DATA=separate", "--set", "DB_NAME="+db, "--clients", "3", "--devices", "6", "--sensors", "3",
		"--loop", "30")
	if len(s.Hosts) != 2 {
		t.Fatalf("hosts %+v, want 2", s.Hosts)
	}
	var written int64
	for i, h := range s.Hosts {
		if h.Host != hosts[i] || h.Clients != []int{2, 1}[i] || h.OKOperations == 0 || h.WrittenPoints == 0 ||
			h.FailedOperations != 0 || h.P99MS < h.P50MS || h.P50MS <= 0 {
			t.Errorf("host %d: %+v", i, h)
		}
		if !strings.Contains(stdout, "Host "+h.Host+": "+strconv.Itoa(h.Clients)+" clients") {
			t.Errorf("no console line for host %s:\n%s", h.Host, stdout)
		}
		if got := exportedPoints(t, h.Host, db); got != h.WrittenPoints || h.StoredPoints == nil || *h.StoredPoints != got {
			t.Errorf("host %s stores %d points, the breakdown says %d written and %v stored", h.Host, got, h.WrittenPoints, h.StoredPoints)
		}
		written += h.WrittenPoints
	}
	if s.Verify.StoredPoints != written || s.Verify.ExpectedPoints != written {
		t.Fatalf("verify %+v: want both hosts' %d points", s.Verify, written)
	}
	if s.Verify.QueriesSkipped == "" || len(s.Verify.Queries) != 0 {
		t.Fatalf("query checks with separate data: %+v", s.Verify)
	}
}

// The same server listed twice (HOSTS_DATA=shared, the default): the
// schema is made and verification counts through the first host only, so
// the points are expected once, and the answers are checked.
func TestSeveralHostsSharedData(t *testing.T) {
	requireTargetServer(t, "victoriametrics")
	s, _ := runVerified(t, "--target", "victoriametrics", "--set", "HOST=127.0.0.1,localhost", "--set", "PORT=8428",
		"--clients", "2", "--devices", "4", "--sensors", "2", "--loop", "20")
	if len(s.Hosts) != 2 || s.Hosts[0].Host != "127.0.0.1:8428" || s.Hosts[1].Host != "localhost:8428" ||
		s.Hosts[0].WrittenPoints+s.Hosts[1].WrittenPoints != s.Verify.StoredPoints || len(s.Verify.Queries) == 0 {
		t.Fatalf("hosts %+v, verify %+v", s.Hosts, s.Verify)
	}
}

// Writes to WRITE_URL and queries and verification through QUERY_URL: one
// VictoriaMetrics reached as http://127.0.0.1:8428 and as
// http://localhost:8428/prometheus (the path form of a cluster's
// vmselect, which a single server takes too). An http TARGET_URL with a
// path prefix works alone as well.
func TestWriteAndQueryURLs(t *testing.T) {
	requireTargetServer(t, "victoriametrics")
	s, _ := runVerified(t, "--target", "victoriametrics", "--write-url", "http://127.0.0.1:8428",
		"--query-url", "http://localhost:8428/prometheus/", "--clients", "2", "--devices", "4", "--sensors", "2", "--loop", "20")
	if len(s.Verify.Queries) == 0 || s.Config["write_url"] != "http://127.0.0.1:8428" || s.Config["query_url"] != "http://localhost:8428/prometheus/" {
		t.Fatalf("verify %+v, config write_url %v query_url %v", s.Verify, s.Config["write_url"], s.Config["query_url"])
	}
	for _, q := range s.Verify.Queries {
		if !q.OK {
			t.Fatalf("query check through QUERY_URL: %+v", q)
		}
	}
	s, _ = runVerified(t, "--target", "victoriametrics", "--target-url", "http://127.0.0.1:8428/prometheus",
		"--clients", "1", "--devices", "2", "--sensors", "2", "--loop", "10")
	if len(s.Verify.Queries) == 0 {
		t.Fatalf("verify %+v", s.Verify)
	}
	// A primary and a replica, in form: one PostgreSQL reached twice.
	requireTargetServer(t, "postgres")
	s, _ = runVerified(t, "--target", "postgres", "--write-url", "postgres://root:root@127.0.0.1:5433/test",
		"--query-url", "postgresql://root:root@localhost:5433/test?sslmode=disable", "--clients", "2", "--devices", "4", "--loop", "10")
	if len(s.Verify.Queries) == 0 || s.Config["query_url"] != "postgresql://root:***@localhost:5433/test?sslmode=disable" {
		t.Fatalf("verify %+v, query_url %v", s.Verify, s.Config["query_url"])
	}
}

// A postgres URL with sslmode=verify-full and sslrootcert reaches the
// PostgreSQL that takes TLS connections only: verified, it writes and
// verifies, and the header says the certificate is verified.
func TestPostgresURLVerifyFull(t *testing.T) {
	ca := testenv.StartPostgresTLS(t)
	u := "postgres://127.0.0.1:" + strconv.Itoa(testenv.PostgresTLSPort) + "/test?sslmode=verify-full&sslrootcert=" + url.QueryEscape(ca)
	s, _ := runVerified(t, "--target", "postgres", "--target-url", u, "--loop", "20", "--devices", "4", "--sensors", "3")
	if len(s.Verify.Queries) == 0 || s.Config["tls"] != "on" {
		t.Fatalf("verify %+v, tls %v", s.Verify, s.Config["tls"])
	}
	// sslmode=disable against it: refused by the server, never run.
	r := tsbench(t, nil, "run", "--quiet", "--results", "off", "--target", "postgres", "--target-url",
		strings.Replace(u, "verify-full", "disable", 1), "--loop", "5")
	if r.code == 0 {
		t.Fatalf("sslmode=disable against a TLS-only server: exit 0\n%s", r.stderr)
	}
}

// URLs and host lists a target cannot take exit 2 naming the key, the
// value with its password hidden, and what is allowed.
func TestConnectionURLErrors(t *testing.T) {
	inParallel(t)
	cases := []struct {
		args []string
		says string
	}{
		{[]string{"--target", "postgres", "--target-url", "mysql://u:hunter2@h/db"}, `TARGET_URL = "mysql://u:***@h/db": scheme "mysql"`},
		{[]string{"--target", "postgres", "--target-url", "postgres://u:hunter2@h/db?sslmode=prefer"}, "allowed: disable, require, verify-ca, verify-full"},
		{[]string{"--target", "postgres", "--target-url", "postgres://u:hunter2@h/db?connect_timeout=3"}, `URL key "connect_timeout" is not honoured`},
		{[]string{"--target", "victoriametrics", "--target-url", "http://u:hunter2@h:99999"}, "must be a port number"},
		{[]string{"--target", "victoriametrics", "--set", "QUERY_URL=postgres://u:hunter2@h/db"}, `QUERY_URL = "postgres://u:***@h/db"`},
		{[]string{"--target", "victoriametrics", "--set", "WRITE_URL=http://u:hunter2@h1:8428", "--set", "HOST=a,b"}, "several hosts with WRITE_URL"},
		{[]string{"--target", "sqlite", "--target-url", "sqlite://u:hunter2@x"}, "takes no connection URL"},
		{[]string{"--target", "victoriametrics", "--set", "HOST=a,b/c"}, `HOST = "a,b/c": entry "b/c"`},
		{[]string{"--target", "victoriametrics", "--set", "HOSTS_DATA=mirrored"}, "HOSTS_DATA"},
	}
	for _, c := range cases {
		r := tsbench(t, nil, append([]string{"run", "--quiet", "--results", "off", "--loop", "5"}, c.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.says) || strings.Contains(r.stdout+r.stderr, "hunter2") {
			t.Errorf("%v: exit %d, want 2 saying %q without the password\n%s", c.args, r.code, c.says, r.stderr)
		}
	}
}

// exportedPoints counts the points of database db a VictoriaMetrics at
// host stores, through its own /api/v1/export: the run's series less the
// generation marker and the one registration point per series that
// Setup writes before START_TIME.
func exportedPoints(t *testing.T, host, db string) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	get := func(path string) *http.Response {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+host+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	get("/internal/force_flush").Body.Close()
	resp := get("/api/v1/export?" + url.Values{"match[]": {`{db="` + db + `"}`}}.Encode())
	defer resp.Body.Close()
	var n int64
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var line struct {
			Metric map[string]string `json:"metric"`
			Values []float64         `json:"values"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("export from %s: %v", host, err)
		}
		if line.Metric["__name__"] != "tsbench_generation" {
			n += int64(len(line.Values)) - 1
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

// Each target family's own URL reaches the servers of scripts/services: the
// run writes, verifies and checks its answers, and the recorded
// configuration keeps the URL with its password hidden.
func TestConnectionURLPerTarget(t *testing.T) {
	cases := []struct {
		target, url, shown string
	}{
		{"postgres", "postgres://root:root@127.0.0.1:5433/test?sslmode=disable", "postgres://root:***@127.0.0.1:5433/test?sslmode=disable"},
		{"mysql", "mysql://root:root@127.0.0.1:3307/test?tls=false", "mysql://root:***@127.0.0.1:3307/test?tls=false"},
		{"mysql", "root:root@tcp(127.0.0.1:3307)/test", "root:***@tcp(127.0.0.1:3307)/test"},
		{"influxdb", "http://127.0.0.1:8086", "http://127.0.0.1:8086"},
		{"clickhouse", "clickhouse://127.0.0.1:8124/urltest", "clickhouse://127.0.0.1:8124/urltest"},
	}
	for _, c := range cases {
		t.Run(c.target+" "+c.shown, func(t *testing.T) {
			requireTargetServer(t, c.target)
			s, _ := runVerified(t, "--target", c.target, "--target-url", c.url, "--clients", "2", "--devices", "4",
				"--sensors", "3", "--loop", "20")
			if len(s.Verify.Queries) == 0 || s.Config["target_url"] != c.shown {
				t.Fatalf("verify %+v, target_url %v", s.Verify, s.Config["target_url"])
			}
		})
	}
}

// WRITE_URL and QUERY_URL on two different VictoriaMetrics servers: the
// points land on the write server only (its own export counts them all,
// the query server's none), and verification, which counts through
// QUERY_URL, finds none of them: exit 3. That is what a replica that has
// not caught up would show.
func TestWriteAndQueryURLsRoute(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "victoriametrics")
	reader := "127.0.0.1:" + strconv.Itoa(testenv.StartVictoriaMetrics(t))
	db := "route_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	dir := t.TempDir()
	js := dir + "/s.json"
	r := tsbench(t, nil, "run", "--quiet", "--data-dir", dir, "--json", js, "--target", "victoriametrics",
		"--write-url", "http://127.0.0.1:8428", "--query-url", "http://"+reader+"/prometheus", "--set", "DB_NAME="+db,
		"--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0", "--clients", "2", "--devices", "4", "--sensors", "2", "--loop", "10")
	if r.code != 3 {
		t.Fatalf("exit %d, want 3 (nothing stored where verification counts)\n%s\n%s", r.code, tail(r.stdout, 20), r.stderr)
	}
	s := readSummary(t, js)
	written := s.Op("INGESTION").OKPoints
	if written == 0 || s.Verify.StoredPoints != 0 || s.Verify.ExpectedPoints != written {
		t.Fatalf("written %d, verify %+v", written, s.Verify)
	}
	if got := exportedPoints(t, "127.0.0.1:8428", db); got != written {
		t.Fatalf("the write server stores %d points, %d written", got, written)
	}
	if got := exportedPoints(t, reader, db); got != 0 {
		t.Fatalf("the query server stores %d points, want none", got)
	}
}
