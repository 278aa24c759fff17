//go:build !linux

package pgwire

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/tsbench/tsbench/internal/targets"
)

// Loop is Linux's alone: it waits on its sockets through epoll.
type Loop struct{}

var errLoopLinux = errors.New("CLIENT_IO=epoll needs Linux: it waits on its sockets through epoll")

// OpenLoop refuses: see Loop.
func OpenLoop(context.Context, int, time.Duration, func(context.Context) (*pgconn.PgConn, error)) (*Loop, error) {
	return nil, errLoopLinux
}

func (*Loop) Send(context.Context, int, *targets.Statement) error { return errLoopLinux }
func (*Loop) Wait(time.Time, func(int, time.Time, int64, error)) error {
	return errLoopLinux
}
func (*Loop) Abort(int)      {}
func (*Loop) Clock() string  { return "" }
func (*Loop) Reopens() int64 { return 0 }
func (*Loop) Close() error   { return nil }
