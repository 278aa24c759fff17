package postgres

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
)

// A failover URL's nodes become pgx's fallbacks, in order, each at its own
// port or the target's, and a connection is taken only from a node that
// takes writes; without one there is no fallback at all (no retry in
// plaintext, no other host).
func TestConnConfigFailover(t *testing.T) {
	o := targets.Options{Host: "127.0.0.1", Port: 5437, ReadWrite: true, Failover: []string{"127.0.0.1:5438", "standby"}}
	cfg, addr, err := connConfig(o, DefaultPort, false)
	if err != nil {
		t.Fatal(err)
	}
	if addr != "127.0.0.1:5437,127.0.0.1:5438,standby:5433" {
		t.Errorf("addr %q", addr)
	}
	if len(cfg.Fallbacks) != 2 || cfg.Fallbacks[0].Host != "127.0.0.1" || cfg.Fallbacks[0].Port != 5438 ||
		cfg.Fallbacks[1].Host != "standby" || cfg.Fallbacks[1].Port != DefaultPort || cfg.ValidateConnect == nil {
		t.Errorf("fallbacks %+v %+v, validate %v", cfg.Fallbacks[0], cfg.Fallbacks[1], cfg.ValidateConnect != nil)
	}
	plain, _, err := connConfig(targets.Options{Host: "127.0.0.1", Port: 5437}, DefaultPort, false)
	if err != nil || len(plain.Fallbacks) != 0 || plain.ValidateConnect != nil {
		t.Errorf("without failover: fallbacks %v, validate %v (%v)", plain.Fallbacks, plain.ValidateConnect != nil, err)
	}
}
