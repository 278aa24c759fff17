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
type rawIO struct{ rc syscall.RawConn }

func newBareIO(c *net.TCPConn) (bareIO, error) {
	rc, err := c.SyscallConn()
	return rawIO{rc}, err
}

func (r rawIO) write(p []byte) error {
	var errno syscall.Errno
	err := r.rc.Write(func(fd uintptr) bool {
		for len(p) > 0 && errno == 0 {
			n, done, e := rawCall(syscall.SYS_WRITE, fd, p)
			if !done {
				return false // the socket's buffer is full: wait until it drains
			}
			p, errno = p[n:], e
		}
		return true
	})
	if err == nil && errno != 0 {
		err = errno
	}
	return err
}

func (r rawIO) read(p []byte) (int, error) {
	var got int
	var errno syscall.Errno
	err := r.rc.Read(func(fd uintptr) bool {
		var done bool
		got, done, errno = rawCall(syscall.SYS_READ, fd, p)
		return done
	})
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, errno
	case got == 0:
		return 0, io.EOF
	}
	return got, nil
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
