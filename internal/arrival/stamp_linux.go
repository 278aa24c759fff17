//go:build linux

package arrival

import (
	"io"
	"net"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// OOBSize is the control buffer a stamped read needs.
var OOBSize = unix.CmsgSpace(int(unsafe.Sizeof(unix.Timespec{})))

// StampReceives asks the kernel to stamp what fd receives with its time
// of arrival (SO_TIMESTAMPNS), and reports whether it will: a TCP socket
// does, a Unix socket's stream does not. The first answers after a
// socket first asks may come unstamped: the kernel turns the stamping on
// a moment later.
func StampReceives(fd int) bool {
	sa, err := unix.Getsockname(fd)
	if err != nil {
		return false
	}
	switch sa.(type) {
	case *unix.SockaddrInet4, *unix.SockaddrInet6:
	default:
		return false
	}
	return unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1) == nil
}

// ReadStamped reads fd once into p, as recvmsg, and returns the kernel's
// receive timestamp of the last bytes read (zero when the read carried
// none), which recvmsg gives in oob (SCM_TIMESTAMPNS; OOBSize bytes). It
// allocates nothing and does not tell the runtime (a raw system call).
func ReadStamped(fd int, p, oob []byte) (int, time.Time, unix.Errno) {
	iov := unix.Iovec{Base: unsafe.SliceData(p)}
	iov.SetLen(len(p))
	msg := unix.Msghdr{Iov: &iov, Iovlen: 1, Control: unsafe.SliceData(oob)}
	msg.SetControllen(len(oob))
	n, _, e := unix.RawSyscall(unix.SYS_RECVMSG, uintptr(fd), uintptr(unsafe.Pointer(&msg)), 0)
	if e != 0 {
		return 0, time.Time{}, e
	}
	return int(n), receiveStamp(oob[:msg.Controllen]), 0
}

// receiveStamp is the SCM_TIMESTAMPNS time among the control messages in
// oob, or zero.
func receiveStamp(oob []byte) time.Time {
	head := unix.CmsgLen(0)
	for len(oob) >= head {
		h := (*unix.Cmsghdr)(unsafe.Pointer(unsafe.SliceData(oob)))
		size := int(h.Len)
		if size < head || size > len(oob) {
			return time.Time{}
		}
		if h.Level == unix.SOL_SOCKET && h.Type == unix.SCM_TIMESTAMPNS && size-head >= int(unsafe.Sizeof(unix.Timespec{})) {
			ts := (*unix.Timespec)(unsafe.Pointer(&oob[head]))
			return time.Unix(ts.Unix())
		}
		oob = oob[min(unix.CmsgSpace(size-head), len(oob)):]
	}
	return time.Time{}
}

// stampedConn is a TCP connection whose reads go through recvmsg, each
// read's arrival kept in a Clock. Go's poller still waits for it (a
// syscall.RawConn read), so deadlines and cancellation behave as a plain
// connection's.
type stampedConn struct {
	net.Conn
	raw   syscall.RawConn
	clock *Clock
	oob   []byte
	// the read in progress, for readFD (a method value made once: a
	// closure per read would allocate)
	p      []byte
	n      int
	at     time.Time
	errno  unix.Errno
	readFD func(fd uintptr) bool
}

// Wrap returns conn stamping its reads into c, or conn itself where its
// socket gives no receive timestamps (not TCP, or not a socket) or c is nil.
func Wrap(conn net.Conn, c *Clock) net.Conn {
	sc, ok := conn.(syscall.Conn)
	if !ok || c == nil {
		return conn
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return conn
	}
	stamps := false
	if err := raw.Control(func(fd uintptr) { stamps = StampReceives(int(fd)) }); err != nil || !stamps {
		return conn
	}
	s := &stampedConn{Conn: conn, raw: raw, clock: c, oob: make([]byte, OOBSize)}
	s.readFD = s.recv
	return s
}

func (s *stampedConn) recv(fd uintptr) bool {
	s.n, s.at, s.errno = ReadStamped(int(fd), s.p, s.oob)
	return s.errno != unix.EAGAIN
}

// Read reads as the connection does, keeping the arrival of what it read.
func (s *stampedConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	s.p = p
	defer func() { s.p = nil }()
	for {
		if err := s.raw.Read(s.readFD); err != nil {
			return 0, err
		}
		if s.errno != unix.EINTR {
			break
		}
	}
	switch {
	case s.errno != 0:
		return 0, &net.OpError{Op: "read", Net: "tcp", Source: s.LocalAddr(), Addr: s.RemoteAddr(), Err: s.errno}
	case s.n == 0:
		return 0, io.EOF
	}
	s.clock.Note(s.at)
	return s.n, nil
}

// SyscallConn is the socket's, as the connection's: drivers that look at
// the socket itself (the MySQL driver's liveness check before reusing a
// connection) still can.
func (s *stampedConn) SyscallConn() (syscall.RawConn, error) { return s.raw, nil }
