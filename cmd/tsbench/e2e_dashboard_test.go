package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/htmlreport/browser"
	"github.com/tsbench/tsbench/internal/output/dashboard"
	"github.com/tsbench/tsbench/internal/testenv"
)

// freeAddr is a loopback address with a port nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func httpGet(ctx context.Context, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// tsbench run --dashboard serves the live page while the run goes: in
// headless Chromium its charts have the seconds so far; a page that keeps
// polling sees the run end and loads the final HTML report from the same
// address before tsbench exits.
func TestDashboard(t *testing.T) {
	testenv.Alone(t)
	chromium := browser.Require(t)
	addr := freeAddr(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// At a rate: a closed loop on the null target would take both cores
	// from Chromium, which must load the page while the run goes.
	cmd := exec.CommandContext(ctx, binary, "run", "--target", "null", "--duration", "15s", "--rate", "2000", "--dashboard="+addr,
		"--data-dir", dir, "--results", "off", "--quiet")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	base := "http://" + addr + "/"
	// Poll as an open page does, from the start until the run is over,
	// then load what the page then shows.
	type pageEnd struct {
		final []byte
		err   error
	}
	polled := make(chan pageEnd, 1)
	go func() {
		for i := 0; i < 1000; i++ {
			var st dashboard.Status
			b, err := httpGet(ctx, base+"data.json")
			if err == nil && json.Unmarshal(b, &st) == nil && st.Done {
				final, err := httpGet(ctx, base)
				polled <- pageEnd{final, err}
				return
			}
			if err != nil && i > 20 { // the first tries may come before it listens
				polled <- pageEnd{nil, fmt.Errorf("the dashboard stopped answering before the page had the report: %w", err)}
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		polled <- pageEnd{nil, fmt.Errorf("the run never ended")}
	}()
	time.Sleep(6 * time.Second)
	charts, err := browser.Charts(ctx, chromium, base)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	drawn := 0
	for _, c := range charts {
		if strings.HasPrefix(c.ID, "throughput-INGESTION") && c.Points >= 3 && c.DOMVertices+c.DOMSymbols > 0 {
			drawn++
		}
	}
	if drawn != 1 {
		t.Errorf("mid-run the page's write throughput chart did not draw: %+v", charts)
	}
	end := <-polled
	if end.err != nil {
		t.Fatalf("%v\n%s", end.err, stderr.String())
	}
	final := end.final
	if !bytes.Contains(final, []byte("tsbench report: ")) || !bytes.Contains(final, []byte(`id="tsbench-data"`)) {
		t.Errorf("after the run the page is not the HTML report: %.300s", final)
	}
	if err := <-exited; err != nil {
		t.Fatalf("tsbench: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "tsbench: dashboard: "+base) {
		t.Errorf("the dashboard's address is not said:\n%s", stderr.String())
	}
	// A taken address is refused before the run, naming it.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	r := tsbench(t, nil, "run", "--target", "null", "--duration", "1s", "--dashboard="+ln.Addr().String(), "--results", "off")
	if r.code != 2 || !strings.Contains(r.stderr, ln.Addr().String()) {
		t.Errorf("--dashboard on a taken port: exit %d\n%s", r.code, r.stderr)
	}
}
