package cassandra

import (
	"strings"
	"testing"

	"github.com/gocql/gocql"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// Target option consistency takes the levels a SimpleStrategy ring
// answers, one when unset, and names what it allows otherwise.
func TestConsistencyOf(t *testing.T) {
	for _, c := range []struct {
		in   string
		want gocql.Consistency
		err  string
	}{
		{"", gocql.One, ""},
		{"one", gocql.One, ""},
		{"quorum", gocql.Quorum, ""},
		{"all", gocql.All, ""},
		{"three", gocql.Three, ""},
		{"local_quorum", 0, `consistency = "local_quorum": allowed: one, two, three, quorum, all`},
		{"QUORUM", 0, "allowed: one"},
	} {
		got, err := consistencyOf(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, v := range []string{"0", "-1", "x", "101", "1.5"} {
		if replicationFactor(v) == nil {
			t.Errorf("replication_factor %q taken", v)
		}
	}
}

// On the one node of scripts/services/cassandra.sh: replication_factor
// alters an existing keyspace to the factor asked for (the server's own
// schema says so), and consistency is the level of every write: two
// replicas asked of a one-node ring, a write at one is stored, one at
// quorum (two of two) is refused by the server as unavailable.
func TestReplicationAndConsistency(t *testing.T) {
	server.Require(t)
	ctx := t.Context()
	s := targettest.OwnSchema("tsbench_ring", targettest.OwnStart.UnixMilli(), ts.Double)
	opts := func(extra map[string]string) targets.Options {
		return targets.Options{Database: s.Database, Extra: extra}
	}
	targettest.OpenSetUp(ctx, t, Driver, opts(map[string]string{"replication_factor": "1"}), s, true)
	one := targettest.OpenSetUp(ctx, t, Driver, opts(map[string]string{"replication_factor": "2"}), s, true).(*Target)
	var replication map[string]string
	if err := one.session.Query("SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?", s.Database).
		WithContext(ctx).Scan(&replication); err != nil {
		t.Fatal(err)
	}
	if replication["replication_factor"] != "2" {
		t.Fatalf("keyspace replication %v after replication_factor=2", replication)
	}
	batch := func() *ts.Batch {
		return &ts.Batch{Device: &s.Devices[0], Decimals: -1, Times: []int64{s.StartTime}, Rows: []int64{0},
			Columns: []ts.Column{{Type: ts.Double, Doubles: []float64{1.5}}}}
	}
	if err := one.Write(ctx, batch()); err != nil {
		t.Fatalf("a write at consistency one: %v", err)
	}
	quorum := targettest.OpenSetUp(ctx, t, Driver, opts(map[string]string{"consistency": "quorum"}), s, false)
	err := quorum.Write(ctx, batch())
	if err == nil || !strings.Contains(err.Error(), "QUORUM") {
		t.Fatalf("a write at quorum of two replicas on one node: %v, want the server's refusal naming QUORUM", err)
	}
}
