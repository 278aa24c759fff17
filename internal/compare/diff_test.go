package compare

import (
	"reflect"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

func TestDiff(t *testing.T) {
	base := func() *summary.Summary {
		return &summary.Summary{Target: "sqlite",
			Environment: summary.Environment{Hostname: "ci-1", ServerVersion: "3.45", Cores: 4, MemoryBytes: 8 << 30},
			Tool:        summary.Tool{Version: "0.1.0"},
			Config: map[string]any{"batch_size_per_write": 100.0, "db_switch": "sqlite", "verify": true,
				"target_options": map[string]any{"journal": "wal", "sync": "normal"}}}
	}
	cases := []struct {
		name   string
		change func(s *summary.Summary)
		want   []Difference
	}{
		{"the same run: nothing", func(*summary.Summary) {}, []Difference{}},
		{"a configuration key", func(s *summary.Summary) { s.Config["batch_size_per_write"] = 1000.0 },
			[]Difference{{"batch_size_per_write", "100", "1000"}}},
		{"a key only one run has", func(s *summary.Summary) { s.Config["warmup"] = "5s" },
			[]Difference{{"warmup", NotSet, "5s"}}},
		{"a key the run lacks", func(s *summary.Summary) { delete(s.Config, "verify") },
			[]Difference{{"verify", "true", NotSet}}},
		{"nested target options, as JSON", func(s *summary.Summary) {
			s.Config["target_options"] = map[string]any{"sync": "full", "journal": "wal"}
		}, []Difference{{"target_options", `{"journal":"wal","sync":"normal"}`, `{"journal":"wal","sync":"full"}`}}},
		{"target, server and host first, then keys by name", func(s *summary.Summary) {
			s.Target, s.Config["db_switch"] = "duckdb", "duckdb"
			s.Environment.ServerVersion, s.Environment.Hostname, s.Environment.Cores = "", "ci-2", 8
			s.Config["batch_size_per_write"] = 1.5e6
		}, []Difference{{"target", "sqlite", "duckdb"}, {"server version", "3.45", NotSet}, {"host", "ci-1", "ci-2"},
			{"cores", "4", "8"}, {"batch_size_per_write", "100", "1500000"}, {"db_switch", "sqlite", "duckdb"}}},
		{"where the outputs went is no difference", func(s *summary.Summary) {
			s.Config["json"], s.Config["data_dir"], s.Config["is_quiet_mode"] = "ts2.json", "/tmp/other", true
		}, []Difference{}},
		{"the tool's version", func(s *summary.Summary) { s.Tool.Version = "0.2.0" },
			[]Difference{{"tsbench version", "0.1.0", "0.2.0"}}},
		{"what always differs (id, start, length) is no difference", func(s *summary.Summary) {
			s.RunID, s.Elapsed = "other", 42
		}, []Difference{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := base()
			c.change(b)
			if got := Diff(base(), b); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Diff = %+v\nwant   %+v", got, c.want)
			}
		})
	}
}
