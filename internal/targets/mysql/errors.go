package mysql

import (
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/go-sql-driver/mysql"
	"github.com/tsbench/tsbench/internal/targets"
)

// notReady is the server error a Galera node answers every statement with
// while it is not part of the cluster's primary component (joining, or cut
// off): "WSREP has not yet prepared node for application use".
const notReady = 1047

// duringCommit is ER_ERROR_DURING_COMMIT: the commit itself failed, its
// outcome unknown to the server's answer (a Galera node cut off from its
// cluster as it replicated the transaction: "Error while appending
// streaming replication fragment ... Not connected to Primary
// Component"), and the rows may be stored all the same.
const duringCommit = 1180

// classify marks the driver's errors by what they say of the operation, so
// that a run counts and retries them as it does every target's: the
// driver's "invalid connection" (a connection that broke under a request,
// which may have been sent: in doubt) and a bad connection reads as the
// server's refusal otherwise; a Galera node that is not ready refused the
// statement without applying it, as a node out of reach would (nothing
// sent, worth sending again); a commit that failed midway may have been
// applied (in doubt).
func classify(err error) error {
	var my *mysql.MySQLError
	switch {
	case errors.Is(err, mysql.ErrInvalidConn), errors.Is(err, driver.ErrBadConn):
		return fmt.Errorf("%w: %w", targets.ErrConnection, err)
	case errors.As(err, &my) && my.Number == notReady:
		return fmt.Errorf("%w (%w): %w", targets.ErrConnection, targets.ErrNotSent, err)
	case errors.As(err, &my) && my.Number == duringCommit:
		return fmt.Errorf("%w: %w", targets.ErrMaybeApplied, err)
	}
	return err
}
