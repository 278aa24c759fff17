package run

import (
	"fmt"
	"net"
	"strings"
	"syscall"
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
)

// refusedDial is the error a dial to addr gives when nothing listens
// there, made without dialing (nor resolving a name).
func refusedDial(addr string) error {
	return fmt.Errorf("connect: %w", &net.OpError{Op: "dial", Net: "tcp", Addr: dialTarget(addr), Err: syscall.ECONNREFUSED})
}

type dialTarget string

func (a dialTarget) Network() string { return "tcp" }
func (a dialTarget) String() string  { return string(a) }

func TestRefusedHint(t *testing.T) {
	lookup := func(name string) *targets.Driver {
		d, err := targets.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	tests := []struct {
		target string
		err    error
		want   string
	}{
		{"postgres", refusedDial("127.0.0.1:5433"), "no postgres server answers at 127.0.0.1:5433; start it with: " +
			"sudo scripts/services/postgres.sh install && sudo scripts/services/postgres.sh start"},
		{"mysql", refusedDial("[::1]:3307"), "start it with: sudo scripts/services/mariadb.sh install && sudo scripts/services/mariadb.sh start"},
		{"opentsdb", refusedDial("localhost:4242"), "sudo scripts/services/hbase.sh install && sudo scripts/services/hbase.sh start && " +
			"sudo scripts/services/opentsdb.sh install"},
		{"postgres", refusedDial("db.example.com:5432"), "the postgres server is not reachable at db.example.com:5432: " +
			"check that it runs and listens there, or say where it is with HOST and PORT (--set HOST=... --set PORT=...) or --target-url"},
		{"postgres", fmt.Errorf("x: %w", syscall.ECONNRESET), ""},
		{"sqlite", fmt.Errorf("x: %w", syscall.EACCES), ""},
	}
	for _, tt := range tests {
		got := refusedHint(tt.err, lookup(tt.target))
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s, %v: %q, want %q", tt.target, tt.err, got, tt.want)
		}
	}
}
