package iotdb

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/ts"
)

// The tests against the real IoTDB server started by scripts/services/iotdb.sh
// (inside scripts/netns-run, as IoTDB binds every interface), and one that
// takes TLS only, beside those every target passes (conformance_test.go:
// the conformance suite and the refusal of TLS by the plain server).

// The target connects over TLS as asked, against an IoTDB whose client RPC
// port takes TLS only (scripts/services/iotdb.sh with enable_thrift_ssl and
// a key store made from the test's certificate): verified against the
// test's CA, unverified when insecure, refused with another CA or another
// host name, with an error naming the target and the certificate problem;
// a plaintext session is refused by that port; and the conformance suite
// passes over a verified connection.
func TestTLS(t *testing.T) {
	ca := testenv.StartIoTDBTLS(t)
	addr := "127.0.0.1:" + strconv.Itoa(testenv.IoTDBTLSPort)
	t.Run("plaintext", func(t *testing.T) {
		// The port takes nothing but TLS: what the cases below connect to
		// is encrypted when a session opens.
		targettest.CheckPlaintextRefused(t, Driver, targets.Options{Port: testenv.IoTDBTLSPort})
	})
	otherCA := testenv.WriteCerts(t, t.TempDir())
	// IoT-benchmark's USE_SSL with TRUST_STORE_PATH and TRUST_STORE_PWD: a
	// Java trust store, JKS or PKCS#12, as keytool makes them.
	const storePwd = "trust-store-pw"
	cases := append(targettest.TLSCases(ca, otherCA),
		targettest.TLSCase{Name: "system CAs", TLS: targets.TLS{Mode: "on"}, Want: "certificate signed by unknown authority"},
		targettest.TLSCase{Name: "JKS trust store", TLS: targets.TLS{Mode: "on",
			TrustStore: testenv.WriteTrustStore(t, ca, "JKS", storePwd), TrustStorePassword: storePwd}},
		targettest.TLSCase{Name: "PKCS12 trust store of another CA", TLS: targets.TLS{Mode: "on",
			TrustStore: testenv.WriteTrustStore(t, otherCA, "PKCS12", storePwd), TrustStorePassword: storePwd},
			Want: "certificate signed by unknown authority"},
		targettest.TLSCase{Name: "SSL_PROTOCOL TLSv1.2", TLS: targets.TLS{Mode: "on", CAFile: ca, Protocol: "TLSv1.2"}})
	opts := func(tls targets.TLS) targets.Options { return targets.Options{Port: testenv.IoTDBTLSPort, TLS: tls} }
	targettest.RunTLS(t, cases, targettest.TLSOpener(t, Driver, opts, "iotdb: connect to "+addr+" as root: ",
		func(ctx context.Context, tg targets.Target) (bool, error) {
			v, err := tg.(*Target).ServerVersion(ctx)
			if err == nil && v == "" {
				t.Error("an empty server version")
			}
			return err == nil, err
		}))
	targettest.TLSConformance(t, Driver, targets.Options{Database: "conformance", Port: testenv.IoTDBTLSPort}, ca)
}

// compression=off creates PLAIN, UNCOMPRESSED series; the default creates
// encoded LZ4 ones (the switch the hakom-compression scenario flips).
func TestCompressionSwitch(t *testing.T) {
	server.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s := &ts.Schema{Groups: []string{"g_0"}, Devices: []ts.Device{{Name: "d_0"}},
		Sensors: []ts.Sensor{{Name: "s_0", Type: ts.Double}}, StartTime: 0, PointStep: 1000}
	for _, c := range []struct{ option, want string }{{"off", "UNCOMPRESSED"}, {"on", "LZ4"}} {
		conn, err := Driver.Open(ctx, targets.Options{Database: "compression", Extra: map[string]string{"compression": c.option}})
		if err != nil {
			t.Fatal(err)
		}
		if err := conn.Setup(ctx, s, true); err != nil {
			t.Fatal(err)
		}
		ds, err := conn.(*Target).session.ExecuteStatementWithContext(ctx, "SHOW TIMESERIES root.compression.**")
		if err != nil {
			t.Fatal(err)
		}
		ok, err := ds.Next()
		if err != nil || !ok {
			t.Fatalf("no timeseries (%v)", err)
		}
		got, err := ds.GetString("Compression")
		ds.Close()
		conn.Close()
		if err != nil || !strings.EqualFold(got, c.want) {
			t.Fatalf("compression=%s: series compression %q (%v), want %s", c.option, got, err, c.want)
		}
	}
}

// TSBS's iot questions, asked in IoTDB SQL of the real server, agree with
// internal/fleet's answers over the points written.
func TestFleetQuestions(t *testing.T) {
	server.Require(t)
	targettest.FleetQuestions(t, Driver, targets.Options{})
}
