package run

import (
	"errors"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/targets"
)

// The fault hits the node CRASH_NODE names among HOST's, the first by
// default; CRASH_NODE is refused (exit 2) with one server, or beyond the
// hosts there are.
func TestFaultNode(t *testing.T) {
	d := &targets.Driver{Name: "vm", DefaultPort: 8428}
	for _, c := range []struct {
		sets    []string
		addr    string
		node    string
		refusal string
	}{
		{sets: nil, addr: "127.0.0.1:8428"},
		{sets: []string{"HOST=127.0.0.2,127.0.0.3,127.0.0.4"}, addr: "127.0.0.2:8428", node: "1 of 3"},
		{sets: []string{"HOST=127.0.0.2,127.0.0.3:9000,127.0.0.4", "CRASH_NODE=2"}, addr: "127.0.0.3:9000", node: "2 of 3"},
		{sets: []string{"HOST=127.0.0.2,127.0.0.3", "PORT=9090", "CRASH_NODE=2"}, addr: "127.0.0.3:9090", node: "2 of 2"},
		{sets: []string{"CRASH_NODE=2"}, refusal: "CRASH_NODE = 2: the run has one server"},
		{sets: []string{"HOST=a,b", "CRASH_NODE=3"}, refusal: "CRASH_NODE = 3: HOST names 2 nodes (1 to 2)"},
	} {
		cfg := config.Default()
		for _, kv := range append([]string{"CRASH_AT=1s"}, c.sets...) {
			k, v, _ := strings.Cut(kv, "=")
			if err := config.Set(cfg, k, v); err != nil {
				t.Fatal(err)
			}
		}
		n, err := faultNode(cfg, d)
		if c.refusal != "" {
			var e *exit.Error
			if !errors.As(err, &e) || e.Code != 2 || !strings.Contains(err.Error(), c.refusal) {
				t.Errorf("%v: %v, want %q and exit 2", c.sets, err, c.refusal)
			}
			continue
		}
		host, port := n.opts.HostPort(d.DefaultPort)
		if err != nil || net.JoinHostPort(host, strconv.Itoa(port)) != c.addr || n.name != c.node {
			t.Errorf("%v: node %q at %s:%d, %v; want %q at %s", c.sets, n.name, host, port, err, c.node, c.addr)
		}
	}
}
