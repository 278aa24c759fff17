// Package browser opens HTML reports in a real, headless Chromium for the
// tests: it reads back what the page's charts drew (the JSON the report
// leaves in #tsbench-chart-check once ECharts has rendered) and takes
// screenshots. Install Chromium with scripts/ci/install-chromium.sh
// (Debian's chromium package). Tests skip without it, and fail in CI.
package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Chart is what the report says one chart drew.
type Chart struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Series   int    `json:"series"`
	Points   int    `json:"points"`   // data points handed to the chart
	Drawn    int    `json:"drawn"`    // points laid out on screen (finite coordinates)
	SVGPaths int    `json:"svgPaths"` // SVG paths in the chart's element
}

// Find returns the Chromium to use: $TSBENCH_CHROMIUM, else chromium,
// chromium-browser, google-chrome or chrome on the PATH.
func Find() (string, error) {
	if p := os.Getenv("TSBENCH_CHROMIUM"); p != "" {
		return exec.LookPath(p)
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no Chromium found (install it with scripts/ci/install-chromium.sh, or set TSBENCH_CHROMIUM)")
}

// Require returns Chromium's path, or skips the test without it — except
// in CI (CI set), where a missing browser fails the test.
func Require(t testing.TB) string {
	t.Helper()
	p, err := Find()
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal(err)
	}
	t.Skip(err)
	return ""
}

// run starts a fresh headless Chromium (own profile, no network services,
// no sandbox: CI runs as root) with the extra arguments and returns its
// standard output.
func run(ctx context.Context, bin string, args ...string) ([]byte, error) {
	profile, err := os.MkdirTemp("", "tsbench-chromium-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(profile)
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--disable-extensions", "--hide-scrollbars", "--mute-audio",
		"--user-data-dir=" + profile}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Dir = profile
	if err := cmd.Run(); err != nil {
		return out.Bytes(), fmt.Errorf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args, " "), err, tail(errb.String(), 2000))
	}
	return out.Bytes(), nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

func fileURL(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return (&url.URL{Scheme: "file", Path: abs}).String(), nil
}

var checkElement = regexp.MustCompile(`(?s)<pre id="tsbench-chart-check"[^>]*>(.*?)</pre>`)

// Charts loads the report at path in Chromium and returns what its charts
// drew, read from the DOM after the page's scripts ran.
func Charts(ctx context.Context, bin, path string) ([]Chart, error) {
	u, err := fileURL(path)
	if err != nil {
		return nil, err
	}
	dom, err := run(ctx, bin, "--virtual-time-budget=15000", "--dump-dom", u)
	if err != nil {
		return nil, err
	}
	m := checkElement.FindSubmatch(dom)
	if m == nil {
		return nil, fmt.Errorf("%s: no #tsbench-chart-check element in the rendered page (%d bytes of DOM)", path, len(dom))
	}
	text := strings.TrimSpace(html.UnescapeString(string(m[1])))
	if text == "" {
		return nil, fmt.Errorf("%s: the page's chart script did not run (empty #tsbench-chart-check)", path)
	}
	var charts []Chart
	if err := json.Unmarshal([]byte(text), &charts); err != nil {
		return nil, fmt.Errorf("%s: #tsbench-chart-check: %v: %q", path, err, tail(text, 200))
	}
	return charts, nil
}

// Screenshot writes a PNG of the report's first width x height pixels.
func Screenshot(ctx context.Context, bin, path, png string, width, height int) error {
	u, err := fileURL(path)
	if err != nil {
		return err
	}
	absPNG, err := filepath.Abs(png)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(absPNG), 0o755); err != nil {
		return err
	}
	_, err = run(ctx, bin, "--virtual-time-budget=15000", fmt.Sprintf("--window-size=%d,%d", width, height),
		"--screenshot="+absPNG, u)
	if err != nil {
		return err
	}
	if st, err := os.Stat(absPNG); err != nil || st.Size() == 0 {
		return fmt.Errorf("no screenshot written to %s", absPNG)
	}
	return nil
}

// CheckDrawn returns an error naming every chart that drew no data point,
// or nil when each drew some; want, when > 0, is the number of charts
// expected.
func CheckDrawn(charts []Chart, want int) error {
	var bad []string
	for _, c := range charts {
		if c.Points == 0 || c.Drawn <= 0 || c.SVGPaths == 0 {
			bad = append(bad, fmt.Sprintf("%s (%d points, %d drawn, %d SVG paths)", c.ID, c.Points, c.Drawn, c.SVGPaths))
		}
	}
	switch {
	case len(charts) == 0:
		return fmt.Errorf("the page drew no chart")
	case want > 0 && len(charts) != want:
		return fmt.Errorf("the page drew %d charts, want %d", len(charts), want)
	case len(bad) > 0:
		return fmt.Errorf("charts without drawn data points: %s", strings.Join(bad, ", "))
	}
	return nil
}
