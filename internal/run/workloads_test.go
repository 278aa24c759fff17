package run

import (
	"errors"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
)

// Every workload of the table takes the settings that ask for it, refuses
// each key another workload owns, and each of its own refusals, with exit
// status 2 naming the setting, the run and why. The cases come from the
// table: a workload added to it is tested here without a new test.
func TestWorkloadKeysFromTheTable(t *testing.T) {
	for _, w := range workloadKinds {
		t.Run(w.name, func(t *testing.T) {
			if cfg := asking(t, w); kindOf(cfg).name != w.name {
				t.Fatalf("%v asks for %s", w.asking, kindOf(cfg).name)
			} else if err := workloadKeys(cfg); err != nil {
				t.Fatalf("%v refused: %v", w.asking, err)
			}
			for _, o := range workloadKinds {
				if o.name == w.name {
					continue
				}
				for _, key := range o.owns {
					cfg := asking(t, w)
					v := setChanged(t, cfg, key)
					mustRefuse(t, cfg, key+" = "+v+": not with "+w.name+": "+o.shapes)
				}
			}
			for _, r := range w.refuses {
				for _, key := range r.keys {
					cfg := asking(t, w)
					setChanged(t, cfg, key)
					mustRefuse(t, cfg, ": not with "+w.name+": "+r.why)
				}
			}
		})
	}
}

// Each key belongs to one workload at most, and the table ends with the
// workload every configuration falls back to.
func TestWorkloadTableShape(t *testing.T) {
	owner := map[string]string{}
	for _, w := range workloadKinds {
		for _, key := range w.owns {
			if prev, ok := owner[key]; ok {
				t.Errorf("%s owned by %s and %s", key, prev, w.name)
			}
			owner[key] = w.name
		}
	}
	if last := workloadKinds[len(workloadKinds)-1]; !last.asks(config.Default()) || len(last.asking) != 0 {
		t.Errorf("the table's last row, %s, does not take every configuration", last.name)
	}
}

// asking is a default configuration with the settings that ask for w.
func asking(t *testing.T, w workloadKind) *config.Config {
	t.Helper()
	cfg := config.Default()
	for _, a := range w.asking {
		if err := config.SetArg(cfg, a); err != nil {
			t.Fatal(err)
		}
	}
	return cfg
}

// setChanged gives key the first of a few values it takes that differs
// from its default, and returns it as the configuration shows it.
func setChanged(t *testing.T, cfg *config.Config, key string) string {
	t.Helper()
	if strings.HasPrefix(key, "target.") { // a target's option: any value is set
		if err := config.SetArg(cfg, key+"=remote-write"); err != nil {
			t.Fatal(err)
		}
		return "remote-write"
	}
	for _, v := range []string{"a,b", "3", "true", "2s", "always", "unlogged", "interactive", "devops", "0.5",
		"INGESTION.p99<1s", "1:1:0:0:0:0:0:0:0:0:0", "small", "native", "revision", "while", "now"} {
		probe := config.Default()
		if config.SetArg(probe, key+"="+v) != nil {
			continue
		}
		if shown, ok := probe.Changed(key); ok {
			if err := config.SetArg(cfg, key+"="+v); err != nil {
				t.Fatal(err)
			}
			return shown
		}
	}
	t.Fatalf("no value of %s differs from its default", key)
	return ""
}

// mustRefuse checks that cfg's keys are refused as bad input, saying want.
func mustRefuse(t *testing.T, cfg *config.Config, want string) {
	t.Helper()
	err := workloadKeys(cfg)
	var e *exit.Error
	if !errors.As(err, &e) || e.Code != exit.Usage || !strings.Contains(err.Error(), want) {
		t.Errorf("%v, want exit %d saying %q", err, exit.Usage, want)
	}
}
