package metrics

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"reflect"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
)

func TestCause(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	dialTimeout := &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "i/o timeout", IsTimeout: true}}
	cases := []struct {
		name    string
		err     error
		want    string
		inDoubt bool // the write may have been stored
	}{
		{"deadline", fmt.Errorf("influxdb: write: %w", context.DeadlineExceeded), CauseTimeout, true},
		{"net timeout", &net.DNSError{Err: "i/o timeout", IsTimeout: true}, CauseTimeout, true},
		{"dial timeout", fmt.Errorf("POST: %w", dialTimeout), CauseTimeout, false},
		{"refused", fmt.Errorf("POST http://127.0.0.1:1/write: %w", refused), CauseConnection, false},
		{"reset", fmt.Errorf("read: %w", syscall.ECONNRESET), CauseConnection, true},
		{"eof", fmt.Errorf("questdb: %w", io.ErrUnexpectedEOF), CauseConnection, true},
		{"closed", fmt.Errorf("use: %w", net.ErrClosed), CauseConnection, true},
		{"conn closed", fmt.Errorf("postgres: write: %w: conn closed", targets.ErrConnection), CauseConnection, true},
		{"reconnect", fmt.Errorf("reconnect: %w (%w): FATAL: the database system is starting up", targets.ErrConnection, targets.ErrNotSent), CauseConnection, false},
		{"server answer", errors.New(`POST /write: 400 Bad Request: {"error":"field type conflict"}`), CauseServer, false},
		{"sql error", errors.New("ERROR: new row violates check constraint (SQLSTATE 23514)"), CauseServer, false},
		{"failed midway", fmt.Errorf("thanos: write batch: %w", targets.ErrMaybeApplied), CauseServer, true},
	}
	for _, c := range cases {
		if got := Cause(c.err); got != c.want {
			t.Errorf("%s: Cause(%v) = %q, want %q", c.name, c.err, got, c.want)
		}
		if got, want := Transient(c.err), c.want != CauseServer; got != want {
			t.Errorf("%s: Transient = %v, want %v", c.name, got, want)
		}
		if got := InDoubt(c.err); got != c.inDoubt {
			t.Errorf("%s: InDoubt = %v, want %v", c.name, got, c.inDoubt)
		}
	}
}

func TestRetriesAndCausesReachTheRow(t *testing.T) {
	run := NewRun(2, false, time.Now())
	a, b := run.Client(0), run.Client(1)
	a.Record(0, 10, 5e6, 5e6)
	a.Retried(0, 2)
	b.Fail(0, 10, fmt.Errorf("x: %w", syscall.ECONNREFUSED))
	b.Retried(0, 3)
	ops := run.Operations(1e9)
	if len(ops) != 1 {
		t.Fatalf("rows = %d, want 1", len(ops))
	}
	o := ops[0]
	if o.Retries != 5 || o.OKOperations != 1 || o.FailOperations != 1 || o.OKPoints != 10 || o.FailPoints != 10 {
		t.Errorf("row = %+v: want 5 retries, 1 ok and 1 failed operation of 10 points each", o)
	}
	if len(o.Failures) != 1 || o.Failures[0].Cause != CauseConnection {
		t.Errorf("failures = %+v, want one connection failure", o.Failures)
	}
}

// The tally sums each class, keeps its first cause and example, and lists
// the classes most failed operations first, ties in first-seen order.
func TestFailureTally(t *testing.T) {
	var none FailureTally
	if got := none.Failures(); got != nil {
		t.Errorf("nothing added: %+v", got)
	}
	var tally FailureTally
	tally.Add("timeout", CauseTimeout, "deadline", 1, 10)
	tally.Add("refused", CauseConnection, "refused", 2, 20)
	tally.Add("rejected", CauseServer, "bad batch", 3, 30)
	tally.Add("timeout", CauseServer, "later", 1, 5)
	want := []summary.Failure{
		{Class: "rejected", Cause: CauseServer, Example: "bad batch", Operations: 3, Points: 30},
		{Class: "timeout", Cause: CauseTimeout, Example: "deadline", Operations: 2, Points: 15},
		{Class: "refused", Cause: CauseConnection, Example: "refused", Operations: 2, Points: 20},
	}
	if got := tally.Failures(); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}
