package cassandra

import (
	"errors"
	"fmt"
	"os"

	"github.com/gocql/gocql"
	"github.com/tsbench/tsbench/internal/targets"
)

// classify marks gocql's errors by what they say of the operation, so
// that a run counts and retries them as it does every target's: gocql
// reports a node it cannot reach, a connection closed under a request and
// a request no answer came back for in errors of its own, which read as
// the server's refusals otherwise (never retried, never in doubt).
//   - no connection in the pool, no stream free on one: nothing was sent
//     (a node down, a ring's node cut off);
//   - a connection closed waiting for the answer: sent, in doubt;
//   - no answer within the timeout: a timeout, in doubt;
//   - the coordinator's write timeout or failure: too few replicas
//     answered, and those that did keep the write (targets.ErrMaybeApplied);
//   - the coordinator's read timeout: too few replicas answered in time (a
//     ring busy catching a node up), a timeout;
//
// a node's other answers (unavailable, invalid, ...) are its refusals.
func classify(err error) error {
	var writeTimeout *gocql.RequestErrWriteTimeout
	var writeFailure *gocql.RequestErrWriteFailure
	var readTimeout *gocql.RequestErrReadTimeout
	switch {
	case errors.Is(err, gocql.ErrNoConnections), errors.Is(err, gocql.ErrNoStreams):
		return fmt.Errorf("%w (%w): %w", targets.ErrConnection, targets.ErrNotSent, err)
	case errors.Is(err, gocql.ErrConnectionClosed):
		return fmt.Errorf("%w: %w", targets.ErrConnection, err)
	case errors.Is(err, gocql.ErrTimeoutNoResponse), errors.As(err, &readTimeout):
		return fmt.Errorf("%w: %w", os.ErrDeadlineExceeded, err)
	case errors.As(err, &writeTimeout), errors.As(err, &writeFailure):
		return fmt.Errorf("%w: %w", targets.ErrMaybeApplied, err)
	}
	return err
}
