package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/testenv"
)

// IoT-benchmark's TLS keys, as its .properties file gives them, reach
// IoTDB: USE_SSL=true with TRUST_STORE_PATH (a JKS trust store made by
// keytool) and TRUST_STORE_PWD runs against an IoTDB whose RPC port takes
// TLS only, verified, writing and checking every point, and the header says
// the server is verified; TRUST_STORE_PWD appears in nothing it writes (the
// console, --print-config, the data directory's files). A TRUST_STORE_PWD
// that does not open the store exits 2 before connecting, naming the key
// and not the password.
func TestIoTBenchmarkTrustStore(t *testing.T) {
	inParallel(t)
	ca := testenv.StartIoTDBTLS(t)
	const pw = "trust-store-pw-7"
	jks := testenv.WriteTrustStore(t, ca, "JKS", pw)
	dir, data := t.TempDir(), t.TempDir() // input files (which hold the password) apart from output
	props := func(name, storePwd string) string {
		return writeInputFile(t, dir, name, "DB_SWITCH=IoTDB-200-SESSION_BY_TABLET\nHOST=127.0.0.1\nPORT="+
			strconv.Itoa(testenv.IoTDBTLSPort)+"\nUSE_SSL=true\nTRUST_STORE_PATH="+jks+"\nTRUST_STORE_PWD="+storePwd+"\n")
	}
	js := filepath.Join(data, "s.json")
	r := tsbench(t, nil, "run", "--properties", props("tls.properties", pw), "--quiet", "--data-dir", data, "--json", js,
		"--loop", "20", "--devices", "4", "--sensors", "4", "--clients", "2")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, tail(r.stdout, 30), r.stderr)
	}
	if !strings.Contains(r.stderr, "TLS on: the server's certificate chain and host name are verified") {
		t.Errorf("the header does not say the server is verified:\n%s", r.stderr)
	}
	if s := readSummary(t, js); s.Verify == nil || !s.Verify.OK || s.Verify.StoredPoints == 0 {
		t.Fatalf("verify %+v", s.Verify)
	}
	printed := tsbench(t, nil, "run", "--properties", props("tls.properties", pw), "--print-config")
	if printed.code != 0 || !strings.Contains(printed.stdout, "trust_store_pwd") {
		t.Fatalf("--print-config: exit %d, no trust_store_pwd:\n%s\n%s", printed.code, printed.stdout, printed.stderr)
	}
	for _, out := range []string{r.stdout, r.stderr, printed.stdout, printed.stderr} {
		noSecret(t, "the console", out, []string{pw})
	}
	if files := noSecretInFiles(t, data, []string{pw}); files < 2 {
		t.Fatalf("the data directory holds %d files, want the results store and the run's", files)
	}

	const wrong = "not-the-store-pw"
	r = tsbench(t, nil, "run", "--properties", props("wrong.properties", wrong), "--quiet", "--results", "off")
	if r.code != 2 || !strings.Contains(r.stderr, "TRUST_STORE_PATH "+jks+": a JKS trust store that does not open with TRUST_STORE_PWD") {
		t.Fatalf("wrong TRUST_STORE_PWD: exit %d, want 2 naming the key; stderr:\n%s", r.code, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, wrong) {
		t.Fatalf("the output carries TRUST_STORE_PWD:\n%s\n%s", r.stdout, r.stderr)
	}
}
