package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// One setting given twice on the command line, by --set twice or by --set
// and its key flag (a TSBS flag included), with two values exits 2 naming both arguments as
// written and the setting; the same value twice is taken, and --set still
// overrides the files.
func TestCommandLineGivesASettingOnce(t *testing.T) {
	dir := t.TempDir()
	yamlFile := filepath.Join(dir, "bench.yaml")
	writeFile(t, yamlFile, "clients: 2\ndevices: 3\n")
	propsFile := filepath.Join(dir, "config.properties")
	writeFile(t, propsFile, "DB_SWITCH=null\nCLIENT_NUMBER=2\nDEVICE_NUMBER=6\n")
	tests := []struct {
		name string
		args []string
		// refused: every string must be in stderr; accepted (nil): the
		// printed configuration must hold every string of shows.
		refused []string
		shows   []string
		absent  []string // strings stderr must not hold (secrets)
	}{
		{name: "two --set, two values", args: []string{"--set", "CLIENT_NUMBER=4", "--set", "CLIENT_NUMBER=8"},
			refused: []string{"--set CLIENT_NUMBER=4 and --set CLIENT_NUMBER=8 both set CLIENT_NUMBER: give it once"}},
		{name: "two --set, one value", args: []string{"--set", "CLIENT_NUMBER=4", "--set", "CLIENT_NUMBER=4"},
			shows: []string{"clients: 4\n"}},
		{name: "two spellings, one value", args: []string{"--set", "client_number=4", "--set", "Client-Number = 4"},
			shows: []string{"clients: 4\n"}},
		{name: "one value in two forms", args: []string{"--set", "CLIENT_NUMBER=4", "--set", "CLIENT_NUMBER=04"},
			shows: []string{"clients: 4\n"}},
		{name: "alias and flag name", args: []string{"--set", "DATA_CLIENT_NUMBER=4", "--set", "clients=8"},
			refused: []string{"--set DATA_CLIENT_NUMBER=4 and --set clients=8 both set CLIENT_NUMBER: give it once"}},
		{name: "two cases of one name", args: []string{"--set", "device_number=5", "--set", "DEVICE-NUMBER=7"},
			refused: []string{"--set device_number=5 and --set DEVICE-NUMBER=7 both set DEVICE_NUMBER"}},
		{name: "--set and key flag", args: []string{"--set", "CLIENT_NUMBER=4", "--clients", "8"},
			refused: []string{"--set CLIENT_NUMBER=4 and --clients 8 both set CLIENT_NUMBER: give it once"}},
		{name: "key flag and --set, flag first", args: []string{"--clients", "8", "--set", "clients=4"},
			refused: []string{"--set clients=4 and --clients 8 both set CLIENT_NUMBER: give it once"}},
		{name: "--set and key flag, one value", args: []string{"--set", "CLIENT_NUMBER=4", "--clients", "4"},
			shows: []string{"clients: 4\n"}},
		{name: "--set and --target", args: []string{"--set", "DB_SWITCH=sqlite", "--target", "null"},
			refused: []string{"--set DB_SWITCH=sqlite and --target null both set DB_SWITCH"}},
		{name: "two keys of one setting", args: []string{"--set", "TEST_MAX_TIME=60000", "--duration", "30s"},
			refused: []string{"--set TEST_MAX_TIME=60000 and --duration 30s both set TEST_MAX_TIME: give it once"}},
		{name: "target. and target_options.", args: []string{"--set", "target.service_time=1ms", "--set", "target_options.service_time=2ms"},
			refused: []string{"--set target.service_time=1ms and --set target_options.service_time=2ms both set target.service_time: give it once"}},
		{name: "target. and target_options., one value", args: []string{"--set", "target.service_time=1ms", "--set", "TARGET_OPTIONS.service_time=1ms"},
			shows: []string{"service_time: 1ms"}},
		{name: "TARGET_OPTIONS and target.", args: []string{"--set", "TARGET_OPTIONS=service_time=1ms", "--set", "target.service_time=2ms"},
			refused: []string{"--set TARGET_OPTIONS=service_time=1ms and --set target.service_time=2ms both set target.service_time"}},
		{name: "secrets stay hidden", args: []string{"--set", "PASSWORD=hunter2", "--set", "password=swordfish"},
			refused: []string{"--set PASSWORD=*** and --set password=*** both set PASSWORD"}, absent: []string{"hunter2", "swordfish"}},
		{name: "a quoted value", args: []string{"--set", "DB_NAME=a b", "--set", "DB_NAME=c"},
			refused: []string{`--set "DB_NAME=a b" and --set DB_NAME=c both set DB_NAME`}},
		// The TSBS flags, applied once the run is known to be TSBS's, are
		// checked against --set too.
		{name: "a TSBS flag and --set", args: []string{"--workload", "tsbs-cpu-only", "--log-interval", "10s", "--set", "TSBS_LOG_INTERVAL=20s"},
			refused: []string{"--set TSBS_LOG_INTERVAL=20s and --log-interval 10s both set TSBS_LOG_INTERVAL: give it once"}},
		{name: "--scale in a TSBS run and --set", args: []string{"--workload", "tsbs-cpu-only", "--scale", "4", "--set", "TSBS_SCALE=8"},
			refused: []string{"--set TSBS_SCALE=8 and --scale 4 both set TSBS_SCALE"}},
		{name: "--queries in a TSBS run and --set", args: []string{"--workload", "tsbs-cpu-only", "--queries", "5", "--set", "TSBS_QUERIES=7"},
			refused: []string{"--set TSBS_QUERIES=7 and --queries 5 both set TSBS_QUERIES"}},
		{name: "a TSBS flag and --set, one value", args: []string{"--workload", "tsbs-cpu-only", "--log-interval", "10s", "--set", "TSBS_LOG_INTERVAL=10s"},
			shows: []string{"tsbs_log_interval: 10s"}},
		{name: "YAML file then --set", args: []string{"--config", yamlFile, "--set", "CLIENT_NUMBER=4", "--devices", "5"},
			shows: []string{"clients: 4\n", "devices: 5\n"}},
		{name: ".properties file then --set and a key flag", args: []string{"--properties", propsFile, "--set", "clients=4", "--devices", "5"},
			shows: []string{"clients: 4\n", "devices: 5\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"run", "--print-config"}, tt.args...)
			if !strings.Contains(strings.Join(tt.args, " "), "DB_SWITCH") && !strings.Contains(strings.Join(tt.args, " "), "--properties") {
				args = append(args, "--target", "null")
			}
			var out, errb bytes.Buffer
			code := Main(args, &out, &errb)
			for _, s := range tt.absent {
				if strings.Contains(errb.String()+out.String(), s) {
					t.Errorf("%v: output shows %q:\n%s", tt.args, s, errb.String())
				}
			}
			if tt.refused != nil {
				if code != ExitUsage {
					t.Fatalf("%v: exit %d, want 2\nstderr: %s", tt.args, code, errb.String())
				}
				for _, w := range tt.refused {
					if !strings.Contains(errb.String(), w) {
						t.Errorf("%v: stderr lacks %q:\n%s", tt.args, w, errb.String())
					}
				}
				return
			}
			if code != ExitOK {
				t.Fatalf("%v: exit %d, want 0\nstderr: %s", tt.args, code, errb.String())
			}
			for _, w := range tt.shows {
				if !strings.Contains(out.String(), w) {
					t.Errorf("%v: configuration lacks %q:\n%s", tt.args, w, out.String())
				}
			}
		})
	}
}
