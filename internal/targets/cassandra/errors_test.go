package cassandra

import (
	"errors"
	"testing"

	"github.com/gocql/gocql"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// gocql's own errors are counted by what they say of the operation: a
// node out of reach fails writes that were never sent (retried, not in
// doubt), a closed connection and a silent one leave them in doubt, and a
// coordinator's write timeout may have been applied by the replicas that
// answered; a refusal stays the server's.
func TestClassify(t *testing.T) {
	targettest.CheckClassified(t, classify, []targettest.Classified{
		{Name: "no hosts", Err: gocql.ErrNoConnections, Cause: metrics.CauseConnection, Transient: true},
		{Name: "no streams", Err: gocql.ErrNoStreams, Cause: metrics.CauseConnection, Transient: true},
		{Name: "connection closed", Err: gocql.ErrConnectionClosed, Cause: metrics.CauseConnection, Transient: true, InDoubt: true},
		{Name: "no response", Err: gocql.ErrTimeoutNoResponse, Cause: metrics.CauseTimeout, Transient: true, InDoubt: true},
		{Name: "write timeout", Err: &gocql.RequestErrWriteTimeout{}, Cause: metrics.CauseServer, InDoubt: true},
		{Name: "write failure", Err: &gocql.RequestErrWriteFailure{}, Cause: metrics.CauseServer, InDoubt: true},
		{Name: "read timeout", Err: &gocql.RequestErrReadTimeout{}, Cause: metrics.CauseTimeout, Transient: true, InDoubt: true},
		{Name: "unavailable", Err: &gocql.RequestErrUnavailable{}, Cause: metrics.CauseServer},
		{Name: "other", Err: errors.New("invalid query"), Cause: metrics.CauseServer},
	})
}
