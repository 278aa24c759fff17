package testenv

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// StartPrometheusTLS starts the Prometheus that
// scripts/services/prometheus.sh installs (its pinned release, built into
// the cache) on a free port of 127.0.0.1, configured as the script does
// (the remote write receiver on, data 100 years back kept), HTTPS only
// with a certificate the test makes (WriteCerts) and basic authentication
// (--web.config.file: tls_server_config, basic_auth_users with the
// password bcrypt-hashed at the lowest cost, which Prometheus checks on
// every request), in a directory of the test; it is stopped when the test
// ends. Without the binary the test fails in CI and is skipped elsewhere.
func StartPrometheusTLS(t testing.TB, user, password string) HTTPSServer {
	t.Helper()
	AwaitService(t, "prometheus") // its binary may still be being built
	bin := filepath.Join(cacheDir(), "prometheus-"+ScriptVar(t, "prometheus.sh", "VERSION"), "prometheus")
	if _, err := os.Stat(bin); err != nil {
		Require(t, "a TLS Prometheus needs "+bin+" (scripts/services/prometheus.sh install)")
	}
	dir := t.TempDir()
	ca := WriteCerts(t, dir)
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	web := fmt.Sprintf("tls_server_config:\n  cert_file: %q\n  key_file: %q\nbasic_auth_users:\n  %q: %q\n",
		filepath.Join(dir, "server.crt"), filepath.Join(dir, "server.key"), user, hash)
	config := "storage:\n  tsdb:\n    out_of_order_time_window: 100y\n    retention:\n      time: 100y\n"
	for name, text := range map[string]string{"web.yml": web, "prometheus.yml": config} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	port := FreePort(t)
	startDaemon(t, "prometheus", port, bin, "--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--web.config.file="+filepath.Join(dir, "web.yml"), "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address=127.0.0.1:"+strconv.Itoa(port), "--web.enable-remote-write-receiver", "--web.enable-admin-api")
	// It answers before its storage is open: wait until it says it is
	// ready.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		req, err := http.NewRequest(http.MethodGet, "https://127.0.0.1:"+strconv.Itoa(port)+"/-/ready", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.SetBasicAuth(user, password)
		resp, err := insecureClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return HTTPSServer{Port: port, CA: ca}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("prometheus is not ready after a minute: %v", err)
		}
	}
}
