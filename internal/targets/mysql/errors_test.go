package mysql

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/tsbench/tsbench/internal/metrics"
)

// The driver's broken connections are connection failures in doubt, a
// Galera node that is not ready refused without applying (sent again with
// RETRIES, never in doubt), a commit that failed midway is in doubt, and
// the server's other answers are its own.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		name      string
		err       error
		cause     string
		transient bool
		inDoubt   bool
	}{
		{"invalid connection", mysql.ErrInvalidConn, metrics.CauseConnection, true, true},
		{"bad connection", driver.ErrBadConn, metrics.CauseConnection, true, true},
		{"galera not ready", &mysql.MySQLError{Number: 1047, Message: "WSREP has not yet prepared node for application use"},
			metrics.CauseConnection, true, false},
		{"error during commit", &mysql.MySQLError{Number: 1180, Message: "Error while appending streaming replication fragment"},
			metrics.CauseServer, false, true},
		{"duplicate key", &mysql.MySQLError{Number: 1062, Message: "Duplicate entry"}, metrics.CauseServer, false, false},
		{"other", errors.New("something"), metrics.CauseServer, false, false},
	} {
		err := fmt.Errorf("mysql: write batch at 127.0.0.1:3307: %w", classify(c.err))
		if got := metrics.Cause(err); got != c.cause {
			t.Errorf("%s: cause %q, want %q", c.name, got, c.cause)
		}
		if got := metrics.Transient(err); got != c.transient {
			t.Errorf("%s: transient %v, want %v", c.name, got, c.transient)
		}
		if got := metrics.InDoubt(err); got != c.inDoubt {
			t.Errorf("%s: in doubt %v, want %v", c.name, got, c.inDoubt)
		}
		if !errors.Is(err, c.err) {
			t.Errorf("%s: the driver's error lost: %v", c.name, err)
		}
	}
}
