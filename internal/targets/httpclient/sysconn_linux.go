package httpclient

import (
	"io"
	"net"
	"syscall"
	"time"
	"unsafe"

	"github.com/tsbench/tsbench/internal/arrival"
)

// sysConn reads and writes a TCP connection with raw system calls, inside
// the runtime poller's readiness loop (syscall.RawConn).
//
// Why: conn.Read and conn.Write enter each system call through the
// scheduler (entersyscall), and when the process's threads were all idle —
// which is the usual state of a benchmark client waiting on its server —
// that wakes the runtime's monitor thread, a futex wake and two context
// switches per call. On this project's CI machines (nested virtualisation,
// where a context switch is dear) a 1,000-point write then cost 70-100
// CPU-µs of the client through fasthttp, and 32-44 with raw calls on the
// same socket. A write to a non-blocking socket and a read of what is
// already there do not block, so the raw form is safe: when the socket is
// not ready the call returns EAGAIN and the poller waits, deadlines and all.
type sysConn struct {
	rc syscall.RawConn

	// The arguments and results of the call in progress, so that the
	// functions handed to rc are made once (a closure per call would be an
	// allocation per request).
	iov     [2]syscall.Iovec
	iovs    []syscall.Iovec
	buf     []byte
	n       int
	errno   syscall.Errno
	writeFn func(fd uintptr) bool
	readFn  func(fd uintptr) bool

	// clock, when set, takes each read's arrival: the kernel's receive
	// timestamp, which recvmsg returns in oob (arrival.ReadStamped).
	clock *arrival.Clock
	oob   []byte
}

// stamp has s's reads keep their arrival in c, where the socket gives
// receive timestamps (a nil c: none).
func (s *sysConn) stamp(c *arrival.Clock) {
	if c == nil {
		return
	}
	stamps := false
	if err := s.rc.Control(func(fd uintptr) { stamps = arrival.StampReceives(int(fd)) }); err == nil && stamps {
		s.clock, s.oob = c, make([]byte, arrival.OOBSize)
	}
}

func newSysConn(c *net.TCPConn) (*sysConn, error) {
	rc, err := c.SyscallConn()
	if err != nil {
		return nil, err
	}
	s := &sysConn{rc: rc}
	s.writeFn, s.readFn = s.writeReady, s.readReady
	return s, nil
}

// writev writes a and then b in full.
func (s *sysConn) writev(a, b []byte) error {
	s.iovs = s.iov[:0]
	for _, p := range [2][]byte{a, b} {
		if len(p) > 0 {
			v := syscall.Iovec{Base: &p[0]}
			v.SetLen(len(p))
			s.iovs = append(s.iovs, v)
		}
	}
	s.errno = 0
	err := s.rc.Write(s.writeFn)
	s.iovs = nil // the buffers are the caller's
	if err == nil && s.errno != 0 {
		err = s.errno
	}
	return err
}

func (s *sysConn) writeReady(fd uintptr) bool {
	for len(s.iovs) > 0 {
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITEV, fd, uintptr(unsafe.Pointer(&s.iovs[0])), uintptr(len(s.iovs)))
		switch e {
		case 0:
		case syscall.EAGAIN:
			return false // the socket's buffer is full: wait until it drains
		case syscall.EINTR:
			continue
		default:
			s.errno = e
			return true
		}
		s.advance(int(n))
	}
	return true
}

// advance drops n written bytes from the front of s.iovs.
func (s *sysConn) advance(n int) {
	for n > 0 && len(s.iovs) > 0 {
		v := &s.iovs[0]
		if uint64(n) < uint64(v.Len) {
			v.Base = (*byte)(unsafe.Add(unsafe.Pointer(v.Base), n))
			v.SetLen(int(v.Len) - n)
			return
		}
		n -= int(v.Len)
		s.iovs = s.iovs[1:]
	}
}

// read reads into p what the socket has, waiting until it has something;
// io.EOF when the server closed the connection.
func (s *sysConn) read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil // readReady needs a byte to point at
	}
	s.buf, s.n, s.errno = p, 0, 0
	err := s.rc.Read(s.readFn)
	s.buf = nil
	switch {
	case err != nil:
		return 0, err
	case s.errno != 0:
		return 0, s.errno
	case s.n == 0:
		return 0, io.EOF
	}
	return s.n, nil
}

func (s *sysConn) readReady(fd uintptr) bool {
	for {
		var n uintptr
		var e syscall.Errno
		if s.oob != nil {
			var got int
			var at time.Time
			got, at, e = arrival.ReadStamped(int(fd), s.buf, s.oob)
			if e == 0 {
				n = uintptr(got)
				s.clock.Note(at)
			}
		} else {
			n, _, e = syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&s.buf[0])), uintptr(len(s.buf)))
		}
		switch e {
		case 0:
			s.n = int(n)
			return true
		case syscall.EAGAIN:
			return false
		case syscall.EINTR:
		default:
			s.errno = e
			return true
		}
	}
}
