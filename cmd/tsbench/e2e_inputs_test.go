package main

// End-to-end tests of "nothing silent": every input that would do nothing
// (a misspelt flag, key, target option, threshold operation or filter
// value, a scenario-only flag without a scenario, a YAML null, one of two
// values given for one setting on the command line) exits 2
// before any work, naming it and, where one is near, what was meant; and
// --duration means what k6 and pgbench mean by it.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func inputEnv(t *testing.T) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	return dir, []string{"TSBENCH_DATA_DIR=" + dir, "TSBENCH_RESULTS="}
}

func TestInputsExitTwoBeforeAnyWork(t *testing.T) {
	inParallel(t)
	dir, env := inputEnv(t)
	yamlUnknown := writeInputFile(t, dir, "unknown.yaml", "target: null\n")
	yamlTypo := writeInputFile(t, dir, "typo.yaml", "target: sqlite\ndevce_number: 3\n")
	propsTypo := writeInputFile(t, dir, "typo.properties", "DB_SWITCH=null\nDEVICE_NUMBR=10\n")
	tests := []struct {
		name string
		args []string
		want []string // every string must be in stderr
	}{
		{"target option", []string{"run", "--target", "postgres", "--set", "target.wrte_path=copy"},
			[]string{"target.wrte_path", "did you mean target.write_path?"}},
		{"target option of a target without options", []string{"run", "--target", "sqlite", "--set", "target.wrte_path=copy"},
			[]string{"target.wrte_path", "target sqlite takes no target options"}},
		{"target option value", []string{"run", "--target", "postgres", "--set", "target.write_path=cpy"},
			[]string{"target.write_path", "did you mean copy?"}},
		{"--scale without --scenario", []string{"run", "--target", "null", "--scale", "0.1"}, []string{"--scale", "--scenario"}},
		{"--variant without --scenario", []string{"run", "--variant", "week"}, []string{"--variant", "--scenario"}},
		{"--repeat of no run", []string{"run", "--repeat", "0"}, []string{"--repeat = 0", "must be >= 1"}},
		{"--repeat with find-max", []string{"run", "--repeat", "2", "--target", "null", "--find-max", "INGESTION.p99<5ms"},
			[]string{"--repeat 2 with FIND_MAX"}},
		{"--server-cores without --scenario", []string{"run", "--server-cores", "8"}, []string{"--server-cores", "--scenario"}},
		{"threshold operation", []string{"run", "--target", "null", "--threshold", "INGESTON.p99<50ms"},
			[]string{"INGESTON", "did you mean INGESTION?"}},
		{"threshold metric", []string{"run", "--target", "null", "--threshold", "INGESTION.avgg<50ms"},
			[]string{"avgg", "did you mean avg?"}},
		{"runs --status", []string{"runs", "--status", "okk"}, []string{`--status "okk"`, "did you mean ok?"}},
		{"YAML null", []string{"run", "--config", yamlUnknown}, []string{"DB_SWITCH", "null", `quote it (target: "null")`}},
		{"YAML unknown key", []string{"run", "--config", yamlTypo}, []string{"typo.yaml:2", "devce_number", "did you mean device_number?"}},
		{".properties unknown key", []string{"run", "--properties", propsTypo},
			[]string{"typo.properties:2", "DEVICE_NUMBR", "did you mean DEVICE_NUMBER?"}},
		{"--set unknown key", []string{"run", "--set", "DEVICE_NUMBR=3"}, []string{"DEVICE_NUMBR", "did you mean DEVICE_NUMBER?"}},
		{"flag typo", []string{"run", "--clinets", "3"}, []string{"--clinets", "did you mean --clients?"}},
		{"key as a flag", []string{"run", "--device-number", "3"}, []string{"--device-number", "--set DEVICE_NUMBER=VALUE"}},
		{"flag typo of another command", []string{"runs", "--limt", "3"}, []string{"--limt", "did you mean --limit?"}},
		{"--set and its key flag disagree", []string{"run", "--target", "null", "--set", "CLIENT_NUMBER=4", "--clients", "8"},
			[]string{"--set CLIENT_NUMBER=4 and --clients 8 both set CLIENT_NUMBER: give it once"}},
		{"one target option twice", []string{"run", "--target", "null", "--set", "target.service_time=1ms", "--set", "target_options.service_time=2ms"},
			[]string{"--set target.service_time=1ms and --set target_options.service_time=2ms both set target.service_time"}},
		{"TLS asked of a target without it", []string{"run", "--target", "hbase", "--set", "USE_SSL=true"},
			[]string{"TLS", "does not connect over TLS yet", "will not connect in plaintext"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tsbench(t, env, tt.args...)
			if r.code != 2 {
				t.Fatalf("%v: exit %d, want 2\nstderr: %s", tt.args, r.code, r.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("%v: stderr lacks %q:\n%s", tt.args, w, r.stderr)
				}
			}
			if strings.Contains(r.stderr, "tsbench: run ") {
				t.Errorf("%v: a run started:\n%s", tt.args, r.stderr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "runs")); err == nil {
		t.Error("a refused input left a run directory")
	}
}

// Harmless IoT-benchmark keys and a padded OPERATION_PROPORTION are warnings,
// listed once before the run; --strict refuses every warning.
func TestInputWarningsAndStrict(t *testing.T) {
	inParallel(t)
	dir, env := inputEnv(t)
	props := writeInputFile(t, dir, "iot.properties",
		"DB_SWITCH=null\nTEST_DATA_PERSISTENCE=None\nIS_COPY_MODE=false\nLOOP=10\nOPERATION_PROPORTION=1:0\n")
	r := tsbench(t, env, "run", "--properties", props, "--quiet")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	head := r.stderr[:strings.Index(r.stderr, "tsbench: run ")]
	for _, w := range []string{"2 IoT-benchmark key(s) accepted but not used", "iot.properties:2: TEST_DATA_PERSISTENCE",
		"iot.properties:3: IS_COPY_MODE", `iot.properties:5: OPERATION_PROPORTION = "1:0": has 2 of the 11 fields`} {
		if !strings.Contains(head, w) {
			t.Errorf("warnings before the run lack %q:\n%s", w, r.stderr)
		}
	}
	if n := strings.Count(r.stderr, "TEST_DATA_PERSISTENCE"); n != 1 {
		t.Errorf("TEST_DATA_PERSISTENCE named %d times", n)
	}

	r = tsbench(t, env, "run", "--properties", props, "--quiet", "--strict")
	if r.code != 2 || !strings.Contains(r.stderr, "--strict: 3 warning(s) refused") || strings.Contains(r.stderr, "tsbench: run ") {
		t.Errorf("--strict: exit %d\n%s", r.code, r.stderr)
	}
	r = tsbench(t, env, "run", "--target", "null", "--set", "OPERATION_PROPORTION=1:1", "--strict")
	if r.code != 2 || !strings.Contains(r.stderr, "OPERATION_PROPORTION") {
		t.Errorf("--strict with --set: exit %d\n%s", r.code, r.stderr)
	}
	// Without warnings --strict changes nothing.
	r = tsbench(t, env, "run", "--target", "null", "--loop", "10", "--quiet", "--strict")
	if r.code != 0 {
		t.Errorf("--strict without warnings: exit %d\n%s", r.code, r.stderr)
	}
}

// --duration alone runs for the duration (k6 --duration, pgbench -T); with
// --loop too, the loop may end it first.
func TestInputDurationLikeK6(t *testing.T) {
	inParallel(t)
	dir, env := inputEnv(t)
	js := filepath.Join(dir, "d.json")
	r := tsbench(t, env, "run", "--duration", "2s", "--target", "null", "--json", js)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := readSummary(t, js)
	if s.Elapsed < 1.5 || s.Elapsed > 4 || s.StopReason != "duration" {
		t.Errorf("--duration 2s alone: elapsed %.2f s, stopped by %s; want about 2 s, by the duration", s.Elapsed, s.StopReason)
	}
	if !strings.Contains(r.stderr, " left") {
		t.Errorf("the progress line shows no time left:\n%s", r.stderr)
	}

	r = tsbench(t, env, "run", "--duration", "30s", "--loop", "100", "--target", "null", "--json", js, "--quiet")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s = readSummary(t, js)
	if s.Elapsed > 4 || s.StopReason != "loop" {
		t.Errorf("--duration 30s --loop 100: elapsed %.2f s, stopped by %s; want the loop to end it", s.Elapsed, s.StopReason)
	}
}

// IoT-benchmark's own configuration/conf/config.properties sets no key:
// given to tsbench, it runs IoT-benchmark's default workload (20 clients,
// 6000 devices x 200 sensors), and the header says which defaults applied.
func TestIoTBenchmarkOwnPropertiesFile(t *testing.T) {
	inParallel(t)
	dir, env := inputEnv(t)
	props := writeInputFile(t, dir, "config.properties",
		"# IoT-benchmark's shipped file: every key commented out\n#DB_SWITCH=IoTDB-200-SESSION_BY_TABLET\n#DEVICE_NUMBER=6000\n#LOOP=100\n")
	for _, flag := range []string{"--config", "--properties"} {
		r := tsbench(t, env, "run", flag, props, "--target", "null", "--loop", "1", "--quiet")
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", flag, r.code, r.stderr)
		}
		checkContains(t, r.stderr, "target null, 20 clients, 6000 devices x 200 sensors",
			"keys the .properties file leaves out take IoT-benchmark's defaults: CLIENT_NUMBER=20")
	}
}

// A .properties file runs IoT-benchmark's operation draws: each client
// draws each operation from java.util.Random seeded with its index. The
// counts below are what IoT-benchmark's OperationController draws for
// clients 0..2, LOOP 50, proportion 1:1:1 (write, Q1, Q2), computed by a
// Java program that draws with java.util.Random itself: 15/13/22, 20/17/13
// and 19/12/19. tsbench's own spread order gives 17/17/16 to each client.
func TestPropertiesDrawOperationsAsIoTBenchmark(t *testing.T) {
	inParallel(t)
	dir, env := inputEnv(t)
	props := writeInputFile(t, dir, "mix.properties",
		"CLIENT_NUMBER=3\nDEVICE_NUMBER=3\nSENSOR_NUMBER=2\nLOOP=50\nOPERATION_PROPORTION=1:1:1:0:0:0:0:0:0:0:0\n")
	want := map[string]int64{"INGESTION": 54, "PRECISE_POINT": 42, "TIME_RANGE": 54}
	spread := map[string]int64{"INGESTION": 51, "PRECISE_POINT": 51, "TIME_RANGE": 48}
	for _, tc := range []struct {
		name  string
		extra []string
		want  map[string]int64
	}{
		{"properties default: random", nil, want},
		{"spread asked for", []string{"--set", "OPERATION_ORDER=spread"}, spread},
	} {
		js := filepath.Join(dir, "x.json")
		args := append([]string{"run", "--config", props, "--target", "null", "--json", js, "--quiet"}, tc.extra...)
		r := tsbench(t, env, args...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", tc.name, r.code, r.stderr)
		}
		got := map[string]int64{}
		for _, op := range readSummary(t, js).Operations {
			got[op.Name] = op.OKOperations
		}
		for name, n := range tc.want {
			if got[name] != n {
				t.Errorf("%s: %s ran %d times, want %d (all: %v)", tc.name, name, got[name], n, got)
			}
		}
	}
}

// What IoT-benchmark refuses, or reads its own way, in a .properties file.
func TestPropertiesIoTBenchmarkRules(t *testing.T) {
	inParallel(t)
	dir, env := inputEnv(t)
	base := "CLIENT_NUMBER=1\nDEVICE_NUMBER=1\nSENSOR_NUMBER=2\n"
	for _, tc := range []struct {
		name, props string
		code        int
		want        []string
	}{
		{"LOOP below the weighted kinds", "LOOP=2\nOPERATION_PROPORTION=1:1:1:0:0:0:0:0:0:0:0\n", 2,
			[]string{"LOOP = \"2\"", "cannot run the 3 kinds"}},
		{"a workload key at another value", "LOOP=5\nREAL_INSERT_RATE=0.5\n", 2,
			[]string{"REAL_INSERT_RATE = \"0.5\"", "lower LOOP or the write weight"}},
		{"IoTDB aggregate without a counterpart", "LOOP=5\nQUERY_AGGREGATE_FUN=last_value\n", 2,
			[]string{"QUERY_AGGREGATE_FUN = \"last_value\"", "max (max_value)"}},
		{"DOUBLE_LENGTH -1 rounds to whole numbers", "LOOP=5\nDOUBLE_LENGTH=-1\n", 0,
			[]string{"DOUBLE_LENGTH = -1 in a .properties file: values are whole numbers"}},
		{"START_TIME without a zone", "LOOP=5\nSTART_TIME=2022-01-01T00:00:00\n", 0,
			[]string{"START_TIME 2022-01-01T00:00:00 has no zone: read as UTC"}},
	} {
		props := writeInputFile(t, dir, "rules.properties", base+tc.props)
		r := tsbench(t, env, "run", "--config", props, "--target", "null", "--quiet")
		if r.code != tc.code {
			t.Fatalf("%s: exit %d, want %d\n%s", tc.name, r.code, tc.code, r.stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", tc.name, w, r.stderr)
			}
		}
	}
}

// Random operation draws give each client its own number of writes; with
// out-of-order delivery each device's last window is cut to its own rows,
// so every point is sent once and stored: verification and the answer
// checks pass on SQLite.
func TestPropertiesRandomOrderOutOfOrderVerifies(t *testing.T) {
	inParallel(t)
	dir, env := inputEnv(t)
	props := writeInputFile(t, dir, "ooo.properties",
		"DB_SWITCH=sqlite\nCLIENT_NUMBER=3\nDEVICE_NUMBER=6\nSENSOR_NUMBER=3\nBATCH_SIZE_PER_WRITE=7\nLOOP=40\n"+
			"OPERATION_PROPORTION=1:1:1:0:1:0:0:0:1:0:0\nIS_OUT_OF_ORDER=true\nOUT_OF_ORDER_RATIO=0.5\nLAMBDA=20\nMAX_K=50\n")
	js := filepath.Join(dir, "ooo.json")
	r := tsbench(t, env, "run", "--config", props, "--json", js, "--quiet")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := readSummary(t, js)
	if s.Verify == nil || !s.Verify.OK || s.Verify.StoredPoints == 0 {
		t.Fatalf("verify = %+v", s.Verify)
	}
	var writes int64
	for _, op := range s.Operations {
		if op.Name == "INGESTION" {
			writes = op.OKOperations
		}
	}
	// 2 devices a client; the clients drew different numbers of writes, so
	// the total is not 3 clients x 2 devices x an equal share.
	if writes == 0 || s.Verify.StoredPoints != writes*7*3 {
		t.Errorf("stored %d points for %d write operations of 7 rows x 3 sensors", s.Verify.StoredPoints, writes)
	}
	if len(s.Verify.Queries) == 0 {
		t.Fatal("no query answer was checked")
	}
	for _, q := range s.Verify.Queries {
		if !q.OK {
			t.Errorf("answer differs: %+v", q)
		}
	}
}
