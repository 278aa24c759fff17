//go:build linux

package monitor

import (
	"encoding/binary"
	"fmt"
	"net"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// diagListening lists the inodes of the TCP sockets listening on port
// through the kernel's socket diagnostics (sock_diag, as ss does), asking
// for listening sockets alone: reading /proc/net/tcp walks every socket
// table's bucket, 8 ms of system time on an idle host. ok is false when
// the kernel would not answer.
func diagListening(a listenAddr) (inodes map[string]bool, ok bool) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return nil, false
	}
	defer unix.Close(fd)
	// A second bounds a kernel that never answers the dump.
	tv := unix.Timeval{Sec: 1}
	if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
		return nil, false
	}
	inodes = map[string]bool{}
	for _, family := range []uint8{unix.AF_INET, unix.AF_INET6} {
		if err := diagDump(fd, family, a, inodes); err != nil {
			return nil, false
		}
	}
	return inodes, true
}

// The layouts of linux/inet_diag.h: inet_diag_req_v2 is 56 bytes, the
// inet_diag_msg of each socket 72, its source port at 4 (big-endian), its
// source address at 8 (4 bytes for IPv4, 16 for IPv6) and its inode at 68.
const (
	diagReqSize   = 56
	diagMsgSize   = 72
	diagMsgSport  = 4
	diagMsgSrc    = 8
	diagMsgInode  = 68
	tcpListen     = 10 // TCP_LISTEN, in the states bit mask
	nlmsgHdrSize  = unix.SizeofNlMsghdr
	diagDumpFlags = unix.NLM_F_REQUEST | unix.NLM_F_DUMP
)

// diagDump asks for family's listening TCP sockets and adds those at a.
func diagDump(fd int, family uint8, a listenAddr, inodes map[string]bool) error {
	req := make([]byte, nlmsgHdrSize+diagReqSize)
	binary.NativeEndian.PutUint32(req[0:], uint32(len(req)))
	binary.NativeEndian.PutUint16(req[4:], unix.SOCK_DIAG_BY_FAMILY)
	binary.NativeEndian.PutUint16(req[6:], diagDumpFlags)
	binary.NativeEndian.PutUint32(req[8:], uint32(family)) // the sequence number
	body := req[nlmsgHdrSize:]
	body[0], body[1] = family, unix.IPPROTO_TCP
	binary.NativeEndian.PutUint32(body[4:], 1<<tcpListen)
	if err := unix.Sendto(fd, req, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return fmt.Errorf("sock_diag: %w", err)
	}
	buf := make([]byte, 32<<10)
	for {
		n, _, err := unix.Recvfrom(fd, buf, 0)
		if err != nil {
			return fmt.Errorf("sock_diag: %w", err)
		}
		msgs, err := syscall.ParseNetlinkMessage(buf[:n])
		if err != nil {
			return fmt.Errorf("sock_diag: %w", err)
		}
		for _, m := range msgs {
			switch m.Header.Type {
			case unix.NLMSG_DONE:
				return nil
			case unix.NLMSG_ERROR:
				return fmt.Errorf("sock_diag: the kernel refused the dump")
			}
			if len(m.Data) < diagMsgSize {
				continue
			}
			src := net.IP(m.Data[diagMsgSrc : diagMsgSrc+net.IPv4len])
			if family == unix.AF_INET6 {
				src = net.IP(m.Data[diagMsgSrc : diagMsgSrc+net.IPv6len])
			}
			if int(binary.BigEndian.Uint16(m.Data[diagMsgSport:])) == a.port && a.serves(src) {
				inodes[socketLink(strconv.FormatUint(uint64(binary.NativeEndian.Uint32(m.Data[diagMsgInode:])), 10))] = true
			}
		}
	}
}
