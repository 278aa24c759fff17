package targettest

import (
	"net"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/testenv"
)

// RequireServer checks that the server of a target answers at addr
// (host:port). When it does not, the test fails in CI (CI=true: a missing
// server there is a broken pipeline, never a skip) and is skipped elsewhere,
// naming the script that starts it (see testenv).
func RequireServer(t testing.TB, name, addr string) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err == nil {
		conn.Close()
		return
	}
	testenv.Require(t, name+" server not reachable at "+addr+" ("+err.Error()+"); start it with: scripts/services/"+name+".sh install && scripts/services/"+name+".sh start")
}
