package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// runFlagValues gives each flag of 'tsbench run' with a YAML name a value
// other than its default, so that the flag and the file visibly set the
// same setting.
var runFlagValues = map[string]string{
	"target": "null", "target-url": "postgres://u@db.example.com:5432/bench", "write-url": "postgres://u@primary:5432/bench",
	"query-url": "postgres://u@replica:5432/bench", "duration": "7s", "warmup": "2s", "rate": "150", "retries": "3",
	"clients": "3", "devices": "7", "sensors": "5", "loop": "40", "batch-size": "9", "workload": "tpcc",
	"warehouses": "2", "analytics-engine": "spark", "spark-master": "spark://h:7077", "verify": "false",
	"query-checks": "2", "no-check": "true", "json": "out.json", "data-dir": "/tmp/tsbench-vocabulary",
	"quiet": "true", "data-format": "csv", "workers": "2", "worker-index": "1", "group": "g1",
	"start-at": "2026-11-23T10:00:00Z", "barrier-timeout": "3m", "threshold": "INGESTION.p99<50ms", "find-max": "INGESTION.p99<50ms",
	"out": "csv=live.csv", "data": "points.csv", "queries": "testdata/own-queries.yaml", "query-only": "true", "explain": "true", "client-io": "epoll", "client-loops": "2", "freshness": "true", "burn-in": "10", "print-responses": "true", "max-queries": "100", "crash": "5s", "crash-restart": "true", "crash-command": "true", "crash-pause": "2s", "crash-partition": "2s", "crash-node": "2",
}

// runFlagNeeds are flags a value needs beside it on both sides (tpcc and
// URLs want a server target, a worker's index its workers).
var runFlagNeeds = map[string][]string{
	"workload": {"--target", "postgres"}, "warehouses": {"--target", "postgres", "--workload", "tpcc"},
	"target-url": {"--target", "postgres"}, "write-url": {"--target", "postgres"}, "query-url": {"--target", "postgres"},
	"workers": {"--group", "g1"}, "worker-index": {"--workers", "2", "--group", "g1"},
	"start-at": {"--workers", "2", "--group", "g1"},
	// a key that tunes a capability is refused without it
	"crash-restart":   {"--target", "postgres", "--crash", "5s", "--duration", "10s"},
	"crash-command":   {"--target", "postgres", "--crash", "5s", "--duration", "10s"},
	"crash-pause":     {"--target", "postgres", "--crash", "5s", "--duration", "10s"},
	"crash-partition": {"--target", "postgres", "--crash", "5s", "--duration", "10s"},
	"crash-node":      {"--target", "postgres", "--crash", "5s", "--duration", "10s", "--set", "HOST=a,b"},
}

// commandOnly are the flags of 'tsbench run' that are not settings of the
// benchmark, and why each has no YAML name. A new flag is either a key
// with a YAML name (config's Key.Flag, and a value above) or listed here
// with its reason.
var commandOnly = map[string]string{
	"help":         "cobra's help",
	"config":       "names the YAML file itself",
	"properties":   "names the .properties file itself",
	"set":          "sets keys by any of their names already",
	"strict":       "says how the files are read",
	"print-config": "what the command does instead of running",
	"cpuprofile":   "profiles tsbench itself, not the database",
	"memprofile":   "profiles tsbench itself, not the database",
	"scenario":     "a scenario sets the keys of each of its phases; it is read before any file",
	"scale":        "shapes a scenario's phases, read before any file",
	"repeat":       "repeats a scenario's phases",
	"variant":      "picks a scenario's variant",
	"server-cores": "a figure of the report of a scenario or TPC-C run, not of the run",
	"results":      "where the run is filed, not what it does",
	"hdr-log":      "where the run's histograms are written, not what it does",
	"server-pid":   "which process the resource monitor samples, beside the run",
	"resources":    "the resource monitor beside the run",
	"dashboard":    "a page that watches the run",
	"out-required": "how a failed live receiver ends the run",
	"tsbs-queries": "sets TSBS_QUERY_FILE: the YAML name tsbs_queries is TSBS_QUERIES, TSBS's --queries",
}

// tsbsFlagKeys are TSBS's own flag names (issue 67), and the key each sets
// in a TSBS run, with a value: they are TSBS's vocabulary, beside the
// keys, not names of tsbench's (a file says tsbs_seed, not seed). --scale
// and --queries mean something else outside a TSBS run.
var tsbsFlagKeys = map[string][2]string{
	"use-case": {"TSBS_USE_CASE", "cpu-only"}, "seed": {"TSBS_SEED", "321"}, "scale": {"TSBS_SCALE", "8"},
	"timestamp-start": {"TSBS_START", "2016-01-01T06:00:00Z"}, "timestamp-end": {"TSBS_END", "2016-01-01T07:00:00Z"},
	"log-interval": {"TSBS_LOG_INTERVAL", "20s"}, "queries": {"TSBS_QUERIES", "12"},
}

// TestEveryRunFlagHasAYAMLName: every flag of 'tsbench run', taken from the
// command itself, is either command-only or a YAML key under its own name
// (with '_', and with '-' too) that gives the same configuration as the
// flag, as --print-config shows it.
func TestEveryRunFlagHasAYAMLName(t *testing.T) {
	var names []string
	newRunCmd(&bytes.Buffer{}, &bytes.Buffer{}).Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	dir := t.TempDir()
	for _, name := range names {
		if _, tsbsName := tsbsFlagKeys[name]; commandOnly[name] != "" || (tsbsName && runFlagValues[name] == "") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			value, ok := runFlagValues[name]
			if !ok {
				t.Fatalf("--%s has no YAML name here: give its key the flag's name (config's flag option) and the flag a value "+
					"in runFlagValues, or say in commandOnly why it is no setting", name)
			}
			needs := runFlagNeeds[name]
			base := printConfig(t, append([]string{"run", "--print-config"}, needs...)...)
			byFlag := printConfig(t, append([]string{"run", "--print-config", "--" + name + "=" + value}, needs...)...)
			if byFlag == base {
				t.Fatalf("--%s %s changes nothing --print-config shows: pick a value that does", name, value)
			}
			for _, yamlName := range []string{strings.ReplaceAll(name, "-", "_"), name} {
				file := filepath.Join(dir, strings.ReplaceAll(yamlName, "-", "~")+".yaml")
				writeFile(t, file, fmt.Sprintf("%s: %q\n", yamlName, value))
				byFile := printConfig(t, append([]string{"run", "--print-config", "--config", file}, needs...)...)
				if byFile != byFlag {
					t.Errorf("%s: %q in a file and --%s %s differ:\n%s", yamlName, value, name, value, lineDiff(byFlag, byFile))
				}
			}
		})
	}
}

// TestTSBSFlagsSetTheirKeys: in a TSBS run, each of TSBS's flag names
// gives the configuration --set KEY=VALUE gives, on run and generate
// (whose configuration --print-config of run shows the same way); outside
// one, every one but --queries (the own query file there) is refused,
// naming the flag and its key.
func TestTSBSFlagsSetTheirKeys(t *testing.T) {
	var names []string
	newRunCmd(&bytes.Buffer{}, &bytes.Buffer{}).Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	for name, kv := range tsbsFlagKeys {
		if !slices.Contains(names, name) {
			t.Errorf("run has no --%s", name)
		}
		t.Run(name, func(t *testing.T) {
			base := []string{"run", "--print-config", "--workload", "tsbs-cpu-only"}
			byFlag := printConfig(t, append(base, "--"+name, kv[1])...)
			bySet := printConfig(t, append(base, "--set", kv[0]+"="+kv[1])...)
			if byFlag != bySet {
				t.Errorf("--%s %s and --set %s=%s differ:\n%s", name, kv[1], kv[0], kv[1], lineDiff(bySet, byFlag))
			}
			if byFlag == printConfig(t, base...) && name != "use-case" {
				t.Errorf("--%s %s changes nothing: pick another value", name, kv[1])
			}
			if name == "queries" {
				return
			}
			// Outside a TSBS run --use-case makes it one; --scale is a
			// scenario's factor there, refused without a scenario.
			want := "--" + name + " is TSBS's --" + name + " (" + kv[0] + ")"
			if name == "scale" {
				want = "as TSBS's --scale, the hosts of a TSBS workload"
			}
			var out, errb bytes.Buffer
			if code := Main([]string{"run", "--print-config", "--" + name, kv[1]}, &out, &errb); name != "use-case" &&
				(code != ExitUsage || !strings.Contains(errb.String(), want)) {
				t.Errorf("--%s outside a TSBS run: exit %d, %s; want 2 and %q", name, code, errb.String(), want)
			}
		})
	}
	gen := newGenerateCmd(&bytes.Buffer{}, &bytes.Buffer{}).Flags()
	for name := range tsbsFlagKeys {
		if gen.Lookup(name) == nil && name != "queries" {
			t.Errorf("generate has no --%s", name)
		}
	}
}

func printConfig(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := Main(args, &out, &errb); code != ExitOK {
		t.Fatalf("tsbench %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// lineDiff lists the lines of b that a does not have, and the reverse.
func lineDiff(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	ina, inb := in(a), in(b)
	var out []string
	for _, l := range strings.Split(a, "\n") {
		if !inb[l] {
			out = append(out, "- "+l)
		}
	}
	for _, l := range strings.Split(b, "\n") {
		if !ina[l] {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}

// The annotated YAML file of docs/configuration.md is a configuration as
// written, in tsbench's vocabulary only.
func TestDocsYAMLFileReads(t *testing.T) {
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```yaml\n")
	yamlText, _, ok2 := strings.Cut(rest, "```\n")
	if !ok || !ok2 {
		t.Fatal("docs/configuration.md has no ```yaml block")
	}
	file := filepath.Join(t.TempDir(), "bench.yaml")
	writeFile(t, file, yamlText)
	out := printConfig(t, "run", "--print-config", "--config", file, "--strict")
	for _, want := range []string{"\nclients: 4\n", "\ndevices: 50\n", "\nduration: 5s\n", "\nrate: 200\n",
		"operations:\n  write: 1\n  Q1: 1\n", "types:\n  INT32: 1\n  DOUBLE: 1\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the docs' YAML file gives no %q:\n%s", want, out)
		}
	}
}
