package cassandra

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gocql/gocql"
	"github.com/tsbench/tsbench/internal/metrics"
)

// gocql's own errors are counted by what they say of the operation: a
// node out of reach fails writes that were never sent (retried, not in
// doubt), a closed connection and a silent one leave them in doubt, and a
// coordinator's write timeout may have been applied by the replicas that
// answered; a refusal stays the server's.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		name      string
		err       error
		cause     string
		transient bool
		inDoubt   bool
	}{
		{"no hosts", gocql.ErrNoConnections, metrics.CauseConnection, true, false},
		{"no streams", gocql.ErrNoStreams, metrics.CauseConnection, true, false},
		{"connection closed", gocql.ErrConnectionClosed, metrics.CauseConnection, true, true},
		{"no response", gocql.ErrTimeoutNoResponse, metrics.CauseTimeout, true, true},
		{"write timeout", &gocql.RequestErrWriteTimeout{}, metrics.CauseServer, false, true},
		{"read timeout", &gocql.RequestErrReadTimeout{}, metrics.CauseTimeout, true, true},
		{"write failure", &gocql.RequestErrWriteFailure{}, metrics.CauseServer, false, true},
		{"unavailable", &gocql.RequestErrUnavailable{}, metrics.CauseServer, false, false},
		{"other", errors.New("invalid query"), metrics.CauseServer, false, false},
	} {
		// As the target reports it: wrapped with the operation and node.
		err := fmt.Errorf("cassandra: write batch of d_0 at 127.0.0.1:9042: %w", classify(c.err))
		if got := metrics.Cause(err); got != c.cause {
			t.Errorf("%s: cause %q, want %q", c.name, got, c.cause)
		}
		if got := metrics.Transient(err); got != c.transient {
			t.Errorf("%s: transient %v, want %v", c.name, got, c.transient)
		}
		if got := metrics.InDoubt(err); got != c.inDoubt {
			t.Errorf("%s: in doubt %v, want %v", c.name, got, c.inDoubt)
		}
		if !errors.Is(err, c.err) && !errors.As(err, new(*gocql.RequestErrWriteTimeout)) &&
			!errors.As(err, new(*gocql.RequestErrWriteFailure)) && !errors.As(err, new(*gocql.RequestErrUnavailable)) &&
			!errors.As(err, new(*gocql.RequestErrReadTimeout)) {
			t.Errorf("%s: gocql's error lost: %v", c.name, err)
		}
	}
}
