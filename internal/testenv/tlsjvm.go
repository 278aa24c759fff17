package testenv

import (
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// StartCassandraTLS starts, through scripts/services/cassandra.sh, a second
// Cassandra that takes TLS connections only on CassandraTLSPort, with a
// certificate for 127.0.0.1 signed by a CA the test makes, and stops it
// when the test ends. It returns the CA file. Cassandra takes 15-40 s and
// 1 GB to start: one such server per test binary at a time. Like every JVM
// server here, it runs only inside a loopback-only network namespace
// (scripts/netns-run), as CI runs tests.
func StartCassandraTLS(t testing.TB) string {
	t.Helper()
	requireInstalled(t, "cassandra")
	return startJVMTLS(t, "cassandra", CassandraTLSPort, "TSBENCH_CASSANDRA_STORAGE_PORT=7100", "TSBENCH_CASSANDRA_JMX_PORT=7299")
}

// StartIoTDBTLS starts, through scripts/services/iotdb.sh, a second IoTDB
// (ConfigNode and DataNode) whose client RPC port IoTDBTLSPort takes TLS
// only (enable_thrift_ssl), its internal ports moved off the plain
// server's, and stops it when the test ends. It returns the CA file. IoTDB
// binds some ports to every interface, so the script starts it only inside
// a loopback-only network namespace (scripts/netns-run), as CI runs tests.
func StartIoTDBTLS(t testing.TB) string {
	t.Helper()
	requireInstalled(t, "iotdb")
	return startJVMTLS(t, "iotdb", IoTDBTLSPort, "TSBENCH_IOTDB_INTERNAL_PORT=11710")
}

// requireLoopbackOnly skips (fails in CI) the test outside a network
// namespace whose only interface is loopback: JVM servers run only inside
// one (scripts/netns-run), where nothing they bind is reachable from
// elsewhere.
func requireLoopbackOnly(t testing.TB, service string) {
	t.Helper()
	ifs, err := net.Interfaces()
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range ifs {
		if i.Flags&net.FlagLoopback == 0 {
			Require(t, "loopback-only network namespace not found (a TLS "+service+" runs only inside one: scripts/netns-run go test ...)")
		}
	}
}

// requireInstalled skips (fails in CI) the test when the service's server
// has not been assembled by "scripts/services/SERVICE.sh install", which
// leaves $TSBENCH_CACHE_DIR/SERVICE-VERSION/lib/.complete.
func requireInstalled(t testing.TB, service string) {
	t.Helper()
	done, _ := filepath.Glob(filepath.Join(cacheDir(), service+"-*", "lib", ".complete"))
	_, errJava := exec.LookPath("java")
	_, errSSL := exec.LookPath("openssl")
	if len(done) == 0 || errJava != nil || errSSL != nil {
		Require(t, "TLS "+service+" server not installed (it needs java, openssl and scripts/services/"+service+".sh install)")
	}
	requireLoopbackOnly(t, service)
}

// startJVMTLS starts a TLS-only JVM server through its script
// (startScriptTLS) in a services directory of the test; it returns the CA
// file.
func startJVMTLS(t testing.TB, service string, port int, env ...string) string {
	t.Helper()
	// The scripts wait up to 180 s for a JVM server's port.
	return startScriptTLS(t, service, port, t.TempDir(), 5*time.Minute, env...)
}

// WriteTrustStore makes with keytool, beside caFile, a Java trust store of
// storeType (JKS or PKCS12) holding caFile's authority as a trusted
// certificate, as IoT-benchmark's TRUST_STORE_PATH takes one, and returns
// its path. Without keytool (a JDK) the test is skipped, or fails in CI.
func WriteTrustStore(t testing.TB, caFile, storeType, password string) string {
	t.Helper()
	if _, err := exec.LookPath("keytool"); err != nil {
		Require(t, "keytool not found (Java trust stores are made by keytool, of a JDK)")
	}
	path := filepath.Join(filepath.Dir(caFile), "truststore."+strings.ToLower(storeType))
	out, err := exec.Command("keytool", "-importcert", "-noprompt", "-alias", "ca", "-file", caFile,
		"-keystore", path, "-storetype", storeType, "-storepass", password).CombinedOutput()
	if err != nil {
		t.Fatalf("keytool: %v\n%s", err, out)
	}
	return path
}
