package connect

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	_ "github.com/tsbench/tsbench/internal/targets/all"
	"github.com/tsbench/tsbench/internal/testenv"
)

// Every option a target package reads from Options.Extra is declared in its
// Driver.Options, so the command line checks it; the packages' sources are
// read for Extra["NAME"]. A package whose code several targets run reads
// the options of them all: each reads only those its own driver declares.
func TestTargetOptionsDeclared(t *testing.T) {
	read := regexp.MustCompile(`Extra\["([a-z_]+)"\]`)
	// The package whose code a target runs, where it is not its own.
	shared := map[string]string{
		"timescaledb": "postgres",   // a mode of the postgres package
		"mimir":       "prometheus", // a prometheus.Flavor
		"thanos":      "prometheus",
	}
	declared := map[string]map[string]bool{} // package -> the options of the targets that run it
	for _, d := range targets.Drivers() {
		for _, dir := range []string{d.Name, shared[d.Name]} {
			if dir == "" {
				continue
			}
			if declared[dir] == nil {
				declared[dir] = map[string]bool{}
			}
			for _, o := range d.Options {
				declared[dir][o.Name] = true
			}
		}
	}
	for _, d := range targets.Drivers() {
		if shared[d.Name] == "postgres" {
			continue // no package of its own
		}
		testenv.GoSources(t, filepath.Join("..", "targets", d.Name), func(f string, src []byte) {
			for _, m := range read.FindAllStringSubmatch(string(src), -1) {
				if !declared[d.Name][m[1]] {
					t.Errorf("%s reads target option %s, which no Driver.Options of the targets that run it declares", f, m[1])
				}
			}
		})
	}
}

func TestCheckTargetOptions(t *testing.T) {
	tests := []struct {
		target string
		opts   map[string]string
		skip   map[string]bool
		want   string // "" = accepted
	}{
		{"postgres", map[string]string{"write_path": "copy", "layout": "wide"}, nil, ""},
		{"postgres", map[string]string{"write_path": ""}, nil, ""},
		{"postgres", map[string]string{"wrte_path": "copy"}, nil, `target.wrte_path = "copy": target postgres has no option wrte_path (did you mean target.write_path?); its options: write_path, layout`},
		{"postgres", map[string]string{"write_path": "cpy"}, nil, `target.write_path = "cpy": postgres: did you mean copy? allowed: insert, copy`},
		{"sqlite", map[string]string{"write_path": "copy"}, nil, "target sqlite takes no target options"},
		{"null", map[string]string{"service_time": "fast"}, nil, "target.service_time = \"fast\": null: a duration from 0 to 1m"},
		{"sqlite", map[string]string{"compression": "on"}, map[string]bool{"compression": true}, ""},
		{"questdb", map[string]string{"http_port": "x"}, nil, "must be a port number"},
		{"questdb", map[string]string{"http_port": "9000"}, nil, ""},
		{"influxdb", map[string]string{"gzip": "yes"}, nil, "allowed: true, false"},
		{"iotdb", map[string]string{"password": "secret"}, nil, `target.password = "***"`},
	}
	for _, tt := range tests {
		err := CheckTargetOptions(driver(t, tt.target), tt.opts, tt.skip)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s %v: %v", tt.target, tt.opts, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s %v: %v, want %q", tt.target, tt.opts, err, tt.want)
		}
	}
}

func TestScenarioTargetOptions(t *testing.T) {
	got := ScenarioTargetOptions([]string{"CHANGE_RATIO", "target.compression", "TARGET_OPTIONS.layout"})
	if len(got) != 2 || !got["compression"] || !got["layout"] {
		t.Errorf("got %v", got)
	}
}
