package metrics

import (
	"context"
	"errors"
	"io"
	"net"
	"sort"
	"syscall"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
)

// Causes of a failed operation, as the summary's failures name them.
const (
	// CauseConnection: the connection could not be made or broke (refused,
	// reset, closed, the server went away mid-answer).
	CauseConnection = "connection"
	// CauseTimeout: no answer within the operation's timeout.
	CauseTimeout = "timeout"
	// CauseServer: the server (or the target for it) answered with an
	// error: a rejected batch, a type conflict, a failed query.
	CauseServer = "server"
)

// Cause says why an operation failed, from the error's chain: a timeout, a
// broken or refused connection, or anything else, which is the server's
// refusal. Targets wrap their errors with %w, so the network error under a
// driver's message is found.
func Cause(err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return CauseTimeout
	case brokenConnection(err):
		return CauseConnection
	default:
		return CauseServer
	}
}

// Transient reports whether an operation that failed with err may succeed
// if sent again: the server did not refuse it, the connection or the clock
// failed it.
func Transient(err error) bool { return Cause(err) != CauseServer }

// InDoubt reports whether a write that failed with err may have been stored
// all the same: it timed out, or its connection broke once the request could
// have reached the server (a server killed between committing a batch and
// answering it), or the server answered that it failed midway
// (targets.ErrMaybeApplied: a replicated store that reached too few
// replicas). A refused connection, a failed dial and a failed re-opening
// sent nothing, and a server's refusal stored nothing.
func InDoubt(err error) bool {
	return Transient(err) && !notSent(err) || errors.Is(err, targets.ErrMaybeApplied)
}

func notSent(err error) bool {
	var op *net.OpError
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, targets.ErrNotSent) ||
		errors.As(err, &op) && op.Op == "dial"
}

func brokenConnection(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNABORTED) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) || errors.Is(err, targets.ErrConnection)
}

// FailureTally adds an operation's failures up by error class, over the
// clients of a run (Run) or the workers of a merged run (merge): the first
// failure of a class gives its cause and example.
type FailureTally struct {
	byClass map[string]*summary.Failure
	classes []string // first-seen order, so that ties sort stably
}

// Add counts operations and points that failed with class.
func (t *FailureTally) Add(class, cause, example string, operations, points int64) {
	agg := t.byClass[class]
	if agg == nil {
		if t.byClass == nil {
			t.byClass = map[string]*summary.Failure{}
		}
		agg = &summary.Failure{Class: class, Cause: cause, Example: example}
		t.byClass[class] = agg
		t.classes = append(t.classes, class)
	}
	agg.Operations += operations
	agg.Points += points
}

// Failures are the classes added, most failed operations first; nil when
// none was.
func (t *FailureTally) Failures() []summary.Failure {
	var out []summary.Failure
	for _, c := range t.classes {
		out = append(out, *t.byClass[c])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Operations > out[j].Operations })
	return out
}
