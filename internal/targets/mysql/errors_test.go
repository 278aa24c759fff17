package mysql

import (
	"database/sql/driver"
	"errors"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// The driver's broken connections are connection failures in doubt, a
// Galera node that is not ready refused without applying (sent again with
// RETRIES, never in doubt), a commit that failed midway is in doubt, and
// the server's other answers are its own.
func TestClassify(t *testing.T) {
	targettest.CheckClassified(t, classify, []targettest.Classified{
		{Name: "invalid connection", Err: mysql.ErrInvalidConn, Cause: metrics.CauseConnection, Transient: true, InDoubt: true},
		{Name: "bad connection", Err: driver.ErrBadConn, Cause: metrics.CauseConnection, Transient: true, InDoubt: true},
		{Name: "galera not ready", Err: &mysql.MySQLError{Number: 1047, Message: "WSREP has not yet prepared node for application use"},
			Cause: metrics.CauseConnection, Transient: true},
		{Name: "error during commit", Err: &mysql.MySQLError{Number: 1180, Message: "Error while appending streaming replication fragment"},
			Cause: metrics.CauseServer, InDoubt: true},
		{Name: "duplicate key", Err: &mysql.MySQLError{Number: 1062, Message: "Duplicate entry"}, Cause: metrics.CauseServer},
		{Name: "other", Err: errors.New("something"), Cause: metrics.CauseServer},
	})
}
