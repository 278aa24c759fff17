package run

import (
	"errors"
	"fmt"
	"net"
	"regexp"
	"strings"
	"syscall"

	"github.com/tsbench/tsbench/internal/targets"
)

// refusedHint says what to do about a refused connection to a target's
// server, or "" when err is no refused connection. On this machine
// (127.0.0.1, localhost, ::1) the server is most likely not started, and
// the target's service script starts one; elsewhere, either the server is
// down or tsbench was pointed at the wrong place, which HOST and PORT or
// --target-url set.
func refusedHint(err error, d *targets.Driver) string {
	if d == nil || !refused(err) {
		return ""
	}
	addr := refusedAddr(err)
	host, _, splitErr := net.SplitHostPort(addr)
	if splitErr != nil {
		host = addr
	}
	if scripts := serviceScripts(d); isLocal(host) && len(scripts) > 0 {
		var steps []string
		for _, s := range scripts {
			steps = append(steps, "sudo "+s+" install", "sudo "+s+" start")
		}
		return fmt.Sprintf("no %s server answers at %s; start it with: %s", d.Name, addr, strings.Join(steps, " && "))
	}
	return fmt.Sprintf("the %s server is not reachable at %s: check that it runs and listens there, "+
		"or say where it is with HOST and PORT (--set HOST=... --set PORT=...) or --target-url", d.Name, addr)
}

// refused reports a connection the server's host refused. Drivers wrap
// the dial error in their own types; the ones that keep no chain keep
// the text.
func refused(err error) bool {
	return err != nil && (errors.Is(err, syscall.ECONNREFUSED) || strings.Contains(err.Error(), "connection refused"))
}

// dialAddr finds the address of a failed dial in a driver's message
// ("dial tcp 127.0.0.1:5433: connect: connection refused").
var dialAddr = regexp.MustCompile(`dial tcp (\S+): `)

// refusedAddr is the address the refused dial went to.
func refusedAddr(err error) string {
	var op *net.OpError
	if errors.As(err, &op) && op.Addr != nil {
		return op.Addr.String()
	}
	if m := dialAddr.FindStringSubmatch(err.Error()); m != nil {
		return m[1]
	}
	return "its address"
}

func isLocal(host string) bool {
	switch strings.Trim(host, "[]") {
	case "127.0.0.1", "localhost", "::1":
		return true
	}
	return false
}

// scriptRef finds the service scripts a target's Server text names.
var scriptRef = regexp.MustCompile(`(after )?(scripts/services/[a-z0-9.-]+\.sh)`)

// serviceScripts are the scripts that start a target's server, in the
// order to run them: one the text says to run first ("after
// scripts/services/hbase.sh", for opentsdb) comes first. The mapping is
// the Driver's own (mysql's server is mariadb.sh).
func serviceScripts(d *targets.Driver) []string {
	var first, then []string
	for _, m := range scriptRef.FindAllStringSubmatch(d.Server, -1) {
		if m[1] != "" {
			first = append(first, m[2])
		} else {
			then = append(then, m[2])
		}
	}
	return append(first, then...)
}
