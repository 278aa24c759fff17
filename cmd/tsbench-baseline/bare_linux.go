package main

import (
	"io"
	"net"
	"syscall"
	"unsafe"
)

// rawIO makes write(2) and read(2) raw, inside the runtime poller's
// readiness loop: without the scheduler's entersyscall, which wakes its
// monitor thread when the process was idle (a client waiting on its
// server), the exchange costs about a third less CPU here. On a
// non-blocking socket neither call blocks; EAGAIN hands the wait to the
// poller.
//
// The call in progress keeps its buffer and results in the struct, and
// the functions handed to the poller are made once: a closure per call
// would be two allocations per request in the floor's own cost.
type rawIO struct {
	rc      syscall.RawConn
	p       []byte
	n       int
	errno   syscall.Errno
	writeFn func(fd uintptr) bool
	readFn  func(fd uintptr) bool
}

func newBareIO(c *net.TCPConn) (bareIO, error) {
	rc, err := c.SyscallConn()
	r := &rawIO{rc: rc}
	r.writeFn, r.readFn = r.writeReady, r.readReady
	return r, err
}

func (r *rawIO) write(p []byte) error {
	r.p, r.errno = p, 0
	err := r.rc.Write(r.writeFn)
	r.p = nil
	if err == nil && r.errno != 0 {
		err = r.errno
	}
	return err
}

func (r *rawIO) writeReady(fd uintptr) bool {
	for len(r.p) > 0 && r.errno == 0 {
		n, done, e := rawCall(syscall.SYS_WRITE, fd, r.p)
		if !done {
			return false // the socket's buffer is full: wait until it drains
		}
		r.p, r.errno = r.p[n:], e
	}
	return true
}

func (r *rawIO) read(p []byte) (int, error) {
	r.p, r.n, r.errno = p, 0, 0
	err := r.rc.Read(r.readFn)
	r.p = nil
	switch {
	case err != nil:
		return 0, err
	case r.errno != 0:
		return 0, r.errno
	case r.n == 0:
		return 0, io.EOF
	}
	return r.n, nil
}

func (r *rawIO) readReady(fd uintptr) bool {
	var done bool
	r.n, done, r.errno = rawCall(syscall.SYS_READ, fd, r.p)
	return done
}

// rawCall makes read(2) or write(2) (trap) on p, again when a signal
// interrupted it; done is false when the socket is not ready (EAGAIN),
// for the poller to wait.
func rawCall(trap, fd uintptr, p []byte) (n int, done bool, errno syscall.Errno) {
	for {
		r, _, e := syscall.RawSyscall(trap, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		switch e {
		case 0:
			return int(r), true, 0
		case syscall.EAGAIN:
			return 0, false, 0
		case syscall.EINTR:
		default:
			return 0, true, e
		}
	}
}
