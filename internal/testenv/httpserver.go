package testenv

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// HTTPSServer is an HTTP database server a test started with TLS (and
// authentication) on: where it listens and the CA file its certificate is
// signed by.
type HTTPSServer struct {
	Port int
	CA   string
}

// StartVictoriaMetricsTLS starts the VictoriaMetrics that
// scripts/services/victoriametrics.sh installs (its pinned release, built
// into the cache) on a free port of 127.0.0.1, HTTPS only (-tls) with a
// certificate the test makes (WriteCerts) and basic authentication
// (-httpAuth.username and -httpAuth.password), in a directory of the test;
// it is stopped when the test ends. Without the binary the test fails in CI
// and is skipped elsewhere.
func StartVictoriaMetricsTLS(t testing.TB, user, password string) HTTPSServer {
	t.Helper()
	bin := filepath.Join(cacheDir(), "victoriametrics-"+ScriptVar(t, "victoriametrics.sh", "VERSION"), "victoria-metrics")
	if _, err := os.Stat(bin); err != nil {
		Require(t, "a TLS VictoriaMetrics needs "+bin+" (scripts/services/victoriametrics.sh install)")
	}
	dir := t.TempDir()
	ca := WriteCerts(t, dir)
	port := FreePort(t)
	startDaemon(t, "victoriametrics", port, bin,
		"-storageDataPath="+filepath.Join(dir, "data"), "-httpListenAddr=127.0.0.1:"+strconv.Itoa(port),
		"-retentionPeriod=100y", "-search.disableCache", "-search.latencyOffset=0s", "-dedup.minScrapeInterval=1ms",
		"-tls", "-tlsCertFile="+filepath.Join(dir, "server.crt"), "-tlsKeyFile="+filepath.Join(dir, "server.key"),
		"-httpAuth.username="+user, "-httpAuth.password="+password)
	return HTTPSServer{Port: port, CA: ca}
}

// StartVictoriaMetrics starts the VictoriaMetrics of
// scripts/services/victoriametrics.sh on a free port of 127.0.0.1, plain
// HTTP without authentication, with data of its own, and returns the port:
// a second server beside the script's (several hosts, HOSTS_DATA =
// separate). It is stopped when the test ends; without the binary the
// test fails in CI and is skipped elsewhere.
func StartVictoriaMetrics(t testing.TB) int {
	t.Helper()
	bin := filepath.Join(cacheDir(), "victoriametrics-"+ScriptVar(t, "victoriametrics.sh", "VERSION"), "victoria-metrics")
	if _, err := os.Stat(bin); err != nil {
		Require(t, "a second VictoriaMetrics needs "+bin+" (scripts/services/victoriametrics.sh install)")
	}
	dir := t.TempDir()
	port := FreePort(t)
	startDaemonAt(t, "victoriametrics", "http://127.0.0.1:"+strconv.Itoa(port)+"/health", bin,
		"-storageDataPath="+filepath.Join(dir, "data"), "-httpListenAddr=127.0.0.1:"+strconv.Itoa(port),
		"-retentionPeriod=100y", "-search.disableCache", "-search.latencyOffset=0s", "-dedup.minScrapeInterval=1ms")
	return port
}

// StartInfluxDBTLS starts the InfluxDB 1.x of scripts/services/influxdb.sh
// (Debian's influxd) on a free port of 127.0.0.1 with HTTPS only
// (https-enabled, a certificate the test makes) and authentication on
// (auth-enabled), and creates user, an admin with password: InfluxDB lets
// the first user be created without credentials. It is stopped when the
// test ends; without influxd the test fails in CI and is skipped elsewhere.
func StartInfluxDBTLS(t testing.TB, user, password string) HTTPSServer {
	t.Helper()
	bin, err := exec.LookPath("influxd")
	if err != nil {
		Require(t, "a TLS InfluxDB needs influxd (scripts/services/influxdb.sh install)")
	}
	dir := t.TempDir()
	ca := WriteCerts(t, dir)
	port := FreePort(t)
	conf := fmt.Sprintf(`reporting-disabled = true
bind-address = "127.0.0.1:%d"
[meta]
  dir = %q
[data]
  dir = %q
  wal-dir = %q
  query-log-enabled = false
[http]
  enabled = true
  bind-address = "127.0.0.1:%d"
  log-enabled = false
  auth-enabled = true
  https-enabled = true
  https-certificate = %q
  https-private-key = %q
[monitor]
  store-enabled = false
[continuous_queries]
  enabled = false
`, FreePort(t), filepath.Join(dir, "meta"), filepath.Join(dir, "data"), filepath.Join(dir, "wal"), port,
		filepath.Join(dir, "server.crt"), filepath.Join(dir, "server.key"))
	confFile := filepath.Join(dir, "influxdb.conf")
	if err := os.WriteFile(confFile, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	startDaemon(t, "influxdb", port, bin, "-config", confFile)
	// The first user: InfluxDB takes this one statement without credentials.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	q := "CREATE USER \"" + user + "\" WITH PASSWORD '" + password + "' WITH ALL PRIVILEGES"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost,
		"https://127.0.0.1:"+strconv.Itoa(port)+"/query?q="+url.QueryEscape(q), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := insecureClient.Do(req)
	if err != nil {
		t.Fatalf("create the InfluxDB admin user: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("create the InfluxDB admin user: %s", resp.Status)
	}
	return HTTPSServer{Port: port, CA: ca}
}

// insecureClient only checks that a server the test started answers; the
// tests themselves verify its certificate.
var insecureClient = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
	Proxy: nil, TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}

// startDaemon runs bin with args, its output in a log the test prints if
// the server does not come up, waits (up to a minute) until it answers
// HTTPS on port, and stops it when the test ends.
func startDaemon(t testing.TB, name string, port int, bin string, args ...string) {
	t.Helper()
	startDaemonAt(t, name, "https://127.0.0.1:"+strconv.Itoa(port)+"/", bin, args...)
}

// startDaemonAt is startDaemon for a server that answers at url once it is
// up (plain http for a server without TLS).
func startDaemonAt(t testing.TB, name, url string, bin string, args ...string) {
	t.Helper()
	logFile, err := os.Create(filepath.Join(t.TempDir(), name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		logFile.Close()
	})
	for deadline := time.Now().Add(time.Minute); ; {
		resp, err := insecureClient.Get(url)
		if err == nil {
			resp.Body.Close()
			return
		}
		select {
		case err := <-exited:
			out, _ := os.ReadFile(logFile.Name())
			t.Fatalf("%s exited (%v):\n%s", name, err, out)
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			out, _ := os.ReadFile(logFile.Name())
			t.Fatalf("%s does not answer at %s after a minute: %v\n%s", name, url, err, out)
		}
	}
}

// FreePort is a TCP port of 127.0.0.1 nothing listened on a moment ago:
// for a server a test starts, or for a connection that must be refused.
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// cacheDir is where the service scripts keep what they build or fetch
// (lib.sh's CACHE_DIR).
func cacheDir() string {
	if d := os.Getenv("TSBENCH_CACHE_DIR"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "tsbench")
}

// ScriptVar reads NAME=value from scripts/services/script, so that the test
// runs, or expects, the release the script installs.
func ScriptVar(t testing.TB, script, name string) string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(repoRoot(t), "scripts", "services", script))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^` + name + `=(\S+)$`).FindSubmatch(text)
	if m == nil {
		t.Fatalf("scripts/services/%s sets no %s", script, name)
	}
	return string(m[1])
}
