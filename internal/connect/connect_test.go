package connect

import (
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/targets"
)

// TLS asked of a target without it is refused, naming the targets that
// have it; the notes say how connections go.
func TestCheckTLSAndNotes(t *testing.T) {
	d := driver(t, "null")
	cfg := config.Default()
	cfg.TLS = "on"
	if err := CheckTLS(cfg, d); err == nil || !strings.Contains(err.Error(), `TLS = "on" (or USE_SSL): the null target does not connect over TLS`) {
		t.Errorf("CheckTLS: %v", err)
	}
	if !strings.Contains(TLSNote(cfg), "verified") {
		t.Errorf("TLSNote: %q", TLSNote(cfg))
	}
	cfg.TLS = "off"
	if err := CheckTLS(cfg, d); err != nil || TLSNote(cfg) != "" {
		t.Errorf("off: %v %q", err, TLSNote(cfg))
	}
	cfg.Host = "a:1,b:2"
	if note := EndpointsNote(cfg, d); !strings.HasPrefix(note, "2 hosts, client i on host i mod 2") {
		t.Errorf("EndpointsNote: %q", note)
	}
}

func TestApplyURLs(t *testing.T) {
	d := driver(t, "postgres")
	cfg := config.Default()
	cfg.TargetURL = "postgres://bench:secret@db.example:5433/tsdb"
	if err := ApplyURLs(cfg, d); err != nil {
		t.Fatal(err)
	}
	if cfg.Host != "db.example" || cfg.Port != 5433 || cfg.User != "bench" || cfg.Password != "secret" || cfg.Database != "tsdb" {
		t.Errorf("TARGET_URL read as host %q port %d user %q db %q", cfg.Host, cfg.Port, cfg.User, cfg.Database)
	}
	if o := Options(cfg, d, "/data"); o.Host != "db.example" || o.DataDir != "/data/postgres" {
		t.Errorf("Options: host %q, data dir %q", o.Host, o.DataDir)
	}
	cfg.TargetURL = ""
	cfg.Host = "a:1,b:x"
	if err := ApplyURLs(cfg, d); err == nil || !strings.Contains(err.Error(), `HOST = "a:1,b:x": entry "b:x"`) {
		t.Errorf("a bad host: %v", err)
	}
}

// A failover URL (target_session_attrs=read-write) is one database on its
// nodes: the run starts on the first (HOST, PORT), the others are where a
// connection goes when it refuses or takes no writes, and no client is
// sent to a standby of its own.
func TestApplyFailoverURL(t *testing.T) {
	d := driver(t, "postgres")
	cfg := config.Default()
	cfg.TargetURL = "postgres://postgres@127.0.0.1:5437,127.0.0.1:5438,standby2/test?target_session_attrs=read-write"
	if err := ApplyURLs(cfg, d); err != nil {
		t.Fatal(err)
	}
	if cfg.Host != "127.0.0.1" || cfg.Port != 5437 {
		t.Errorf("HOST %q, PORT %d: want the first node, 127.0.0.1 and 5437", cfg.Host, cfg.Port)
	}
	o := Options(cfg, d, "")
	if !o.ReadWrite || !slices.Equal(o.Failover, []string{"127.0.0.1:5438", "standby2"}) || len(o.PerHost()) != 1 {
		t.Errorf("options: read-write %v, failover %q, %d hosts for the clients", o.ReadWrite, o.Failover, len(o.PerHost()))
	}
	want := "one database on 3 nodes (target_session_attrs=read-write): each connection goes to the first of " +
		"127.0.0.1:5437, 127.0.0.1:5438, standby2 that takes writes"
	if note := EndpointsNote(cfg, d); note != want {
		t.Errorf("EndpointsNote:\n got %q\nwant %q", note, want)
	}
}

// driver is the registered target name, failing the test if there is none:
// the tests check what connect makes of each target's declarations.
func driver(t *testing.T, name string) *targets.Driver {
	t.Helper()
	d, err := targets.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
