package main

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A server that is down gives a clear message naming the target and the
// address, and exit status 1 — no stack trace.
func TestServerDown(t *testing.T) {
	inParallel(t)
	r := tsbench(t, nil, "run", "--target", "influxdb", "--set", "PORT=1", "--quiet", "--data-dir", t.TempDir())
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.code, r.stderr)
	}
	checkContains(t, r.stderr, "influxdb", "127.0.0.1:1", "connection refused")
}

// Refused credentials: the server's own text, the target and the address —
// and never the password.
func TestCredentialsRefused(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "mysql")
	r := tsbench(t, nil, "run", "--target", "mysql", "--set", "USERNAME=nobody", "--set", "PASSWORD=s3cr3t-pw",
		"--quiet", "--data-dir", t.TempDir())
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.code, r.stderr)
	}
	checkContains(t, r.stderr, "mysql", "127.0.0.1:3307", "Access denied")
	if strings.Contains(r.stdout+r.stderr, "s3cr3t-pw") {
		t.Fatal("the password was printed")
	}
}

// Batches the server rejects are counted as failed operations and points,
// grouped by the server's error, and the run goes on to the end.
func TestRejectedBatchesCounted(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "influxdb")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// A string field s_0 in measurement g_0 makes every later float s_0
	// a field type conflict.
	for _, step := range []struct{ path, body string }{
		{"/query", "q=DROP DATABASE conflict"},
		{"/query", "q=CREATE DATABASE conflict"},
		{"/write?db=conflict&precision=ms", `g_0,device=other s_0="text" 1640966400000`}, // same shard (week) as the run
	} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://127.0.0.1:8086"+step.path, strings.NewReader(step.body))
		if strings.HasPrefix(step.path, "/query") {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		msg, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode/100 != 2 || strings.Contains(string(msg), "error") {
			t.Fatalf("preparing the conflict: %s %s: %s %s", step.path, step.body, resp.Status, msg)
		}
	}
	dir := t.TempDir()
	js := filepath.Join(dir, "s.json")
	r := tsbench(t, nil, "run", "--target", "influxdb", "--set", "DB_NAME=conflict", "--set", "IS_DELETE_DATA=false",
		"--set", "INSERT_DATATYPE_PROPORTION=0:0:0:0:1:0", "--set", "OPERATION_PROPORTION=1", "--loop", "5",
		"--devices", "4", "--clients", "2", "--verify=false", "--quiet", "--data-dir", dir, "--json", js)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (operations failed)\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	s := readSummary(t, js)
	w := s.Op("INGESTION")
	if w == nil || w.FailOperations != 20 || w.FailPoints != 20*100*10 || w.OKOperations != 0 {
		t.Fatalf("INGESTION row %+v, want 20 failed operations of 1,000 points", w)
	}
	if len(w.Failures) != 1 || !strings.Contains(w.Failures[0].Example, "field type conflict") ||
		!strings.Contains(w.Failures[0].Example, "127.0.0.1:8086") || w.Failures[0].Operations != 20 {
		t.Fatalf("failure classes %+v", w.Failures)
	}
	if !strings.Contains(r.stdout, "field type conflict") {
		t.Fatalf("the failure table does not show the server's error:\n%s", r.stdout)
	}
}

// TSBENCH_PASSWORD gives the password without a command line or file: the
// server is sent one (MariaDB says "using password: YES"), and it is printed
// nowhere, --print-config included.
func TestPasswordFromEnvironment(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "mysql")
	env := []string{"TSBENCH_PASSWORD=s3cr3t-env"}
	r := tsbench(t, env, "run", "--target", "mysql", "--set", "USERNAME=nobody", "--quiet", "--data-dir", t.TempDir())
	if r.code != 1 || !strings.Contains(r.stderr, "using password: YES") {
		t.Fatalf("exit %d, want 1 with a password sent:\n%s", r.code, r.stderr)
	}
	p := tsbench(t, env, "run", "--target", "mysql", "--print-config")
	if strings.Contains(r.stdout+r.stderr+p.stdout+p.stderr, "s3cr3t-env") {
		t.Fatal("the password from the environment was printed")
	}
}
