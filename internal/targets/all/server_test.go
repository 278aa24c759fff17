package all

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/cassandra"
	"github.com/tsbench/tsbench/internal/targets/clickhouse"
	"github.com/tsbench/tsbench/internal/targets/hbase"
	"github.com/tsbench/tsbench/internal/targets/influxdb"
	"github.com/tsbench/tsbench/internal/targets/iotdb"
	"github.com/tsbench/tsbench/internal/targets/kairosdb"
	"github.com/tsbench/tsbench/internal/targets/opentsdb"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// TestMain says in one line which tests were skipped for want of a server
// or tool (see testenv).
func TestMain(m *testing.M) { testenv.Main(m) }

// servers are the targets whose tests against the real servers of
// scripts/services (the script of each server's name) need nothing of the
// target's own: the conformance suite, in database, with each variant of
// the target options variants; and, for a server that takes plaintext only
// (plain), TLS asked of it is targets.ErrNoTLS, never a plaintext
// connection. The targets that settle their writes, or test more against
// their servers, test so in their own packages.
var servers = []struct {
	driver   *targets.Driver
	server   targettest.Server
	database string
	variants map[string][]string
	plain    bool
}{
	// Q5, Q7 and Q8 are declared unsupported and the suite checks that
	// they say so.
	{cassandra.Driver, targettest.Server{Name: "cassandra", Addr: "127.0.0.1:9042"}, "tsbench_conformance", nil, true},
	// ClickHouse 18.16, without an HTTPS port.
	{clickhouse.Driver, targettest.Server{Name: "clickhouse", Addr: "127.0.0.1:8124"}, "tsbench_conformance", nil, true},
	// HBase's ZooKeeper; every data type and query kind is supported.
	{hbase.Driver, targettest.Server{Name: "hbase", Addr: "127.0.0.1:2181"}, "tsbench_conformance", nil, false},
	// InfluxDB 1.x, with and without gzip.
	{influxdb.Driver, targettest.Server{Name: "influxdb", Addr: "127.0.0.1:8086"}, "tsbench_conformance",
		map[string][]string{"gzip": {"false", "true"}}, true},
	// IoTDB, inside scripts/netns-run, as it binds every interface.
	{iotdb.Driver, targettest.Server{Name: "iotdb", Addr: "127.0.0.1:6667"}, "conformance", nil, true},
	// KairosDB on its H2 datastore: writes are visible to queries once it
	// answered 204, so no Settle is needed.
	{kairosdb.Driver, targettest.Server{Name: "kairosdb", Addr: "127.0.0.1:8080"}, "tsbench_conformance", nil, true},
	// OpenTSDB on HBase; TEXT is declared unsupported and the suite checks
	// that Setup refuses it.
	{opentsdb.Driver, targettest.Server{Name: "opentsdb", Addr: "127.0.0.1:4242"}, "tsbench_conformance", nil, true},
}

// Each target passes the conformance suite against its server.
func TestConformance(t *testing.T) {
	for _, s := range servers {
		t.Run(s.driver.Name, func(t *testing.T) {
			s.server.Conformance(t, targettest.Suite{Driver: s.driver, Options: targets.Options{Database: s.database}}, s.variants)
		})
	}
}

// TLS asked of a server that takes plaintext only is targets.ErrNoTLS,
// with the system's authorities as with a CA file: tsbench does not fall
// back to plaintext.
func TestNoTLS(t *testing.T) {
	for _, s := range servers {
		if !s.plain {
			continue
		}
		t.Run(s.driver.Name, func(t *testing.T) {
			s.server.NoTLS(t, s.driver, targets.Options{}, "")
			targettest.CheckNoTLS(t, s.driver, targets.Options{}, testenv.WriteCerts(t, t.TempDir()))
		})
	}
}
