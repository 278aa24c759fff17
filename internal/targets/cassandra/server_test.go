package cassandra

import (
	"context"
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// The target connects over TLS as asked, against a Cassandra that takes TLS
// connections only (scripts/services/cassandra.sh with the test's own
// certificate): verified against the test's CA, unverified when insecure,
// refused with another CA or another host name, with an error naming the
// target and the certificate problem; and the conformance suite passes
// over a verified connection.
func TestTLS(t *testing.T) {
	ca := testenv.StartCassandraTLS(t)
	cases := append(targettest.TLSCases(ca, testenv.WriteCerts(t, t.TempDir())),
		targettest.TLSCase{Name: "system CAs", TLS: targets.TLS{Mode: "on"}, Want: "certificate signed by unknown authority"})
	opts := func(tls targets.TLS) targets.Options {
		return targets.Options{Port: testenv.CassandraTLSPort, TLS: tls}
	}
	// The server's own view of its clients: every one of them (this
	// session's) is encrypted.
	allEncrypted := func(ctx context.Context, tg targets.Target) (bool, error) {
		iter := tg.(*Target).session.Query("SELECT ssl_enabled FROM system_views.clients").WithContext(ctx).Iter()
		var ssl bool
		n, all := 0, true
		for iter.Scan(&ssl) {
			n++
			all = all && ssl
		}
		if err := iter.Close(); err != nil {
			return false, err
		}
		return n > 0 && all, nil
	}
	targettest.RunTLS(t, cases, targettest.TLSOpener(t, Driver, opts, "cassandra: connect to 127.0.0.1:9142: ", allEncrypted))
	t.Run("plaintext", func(t *testing.T) {
		targettest.CheckPlaintextRefused(t, Driver, targets.Options{Port: testenv.CassandraTLSPort})
	})
	targettest.TLSConformance(t, Driver, targets.Options{Database: "tsbench_conformance", Port: testenv.CassandraTLSPort}, ca)
}

// TSBS's iot questions, answered from the points the real server returns
// (FleetQuery), agree with internal/fleet's answers over the generated
// data: every kind, every fleet, TSBS's windows at three places.
func TestFleetQuestions(t *testing.T) {
	server.Require(t)
	targettest.FleetQuestions(t, Driver, targets.Options{Database: "tsbench_fleet"})
}
