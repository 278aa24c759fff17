package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A refusal never suggests a flag the same run refuses: WORKERS without a
// results store suggests --start-at where the workload takes it (the time
// series), not on the Prometheus workload, which refuses START_AT.
func TestNoStoreRefusalSuggestsOnlyWhatTheRunTakes(t *testing.T) {
	cases := []struct {
		name       string
		args       []string
		startAtToo bool
	}{
		{"time series", []string{"--target", "null"}, true},
		// Refused before any server is asked: none listens at port 1.
		{"prometheus", []string{"--workload", "prometheus", "--target", "victoriametrics", "--target-url", "http://127.0.0.1:1"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := append([]string{"run", "--quiet", "--data-dir", t.TempDir(), "--workers", "2", "--group", "g", "--results", "off"}, c.args...)
			code := Main(args, &out, &errb)
			if code != ExitUsage || !strings.Contains(errb.String(), "WORKERS = 2 with --results off") {
				t.Fatalf("exit %d, want 2 naming --results off:\n%s", code, errb.String())
			}
			if got := strings.Contains(errb.String(), "--start-at"); got != c.startAtToo {
				t.Errorf("suggests --start-at: %v, want %v:\n%s", got, c.startAtToo, errb.String())
			}
		})
	}
	// And the suggestion is taken where it is made.
	var out, errb bytes.Buffer
	code := Main([]string{"run", "--quiet", "--data-dir", t.TempDir(), "--workers", "2", "--group", "g", "--results", "off",
		"--target", "null", "--start-at", time.Now().Add(time.Second).UTC().Format(time.RFC3339Nano), "--loop", "1", "--json", filepath.Join(t.TempDir(), "s.json")}, &out, &errb)
	if code != ExitOK {
		t.Errorf("--start-at as suggested: exit %d:\n%s", code, errb.String())
	}
}
