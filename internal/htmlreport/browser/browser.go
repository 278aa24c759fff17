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

	"github.com/tsbench/tsbench/internal/testenv"
)

// Chart is what one chart drew. The first fields are what the report's
// script says of it; the DOM fields are counted by this package from the
// rendered page itself, so a script that misreports cannot pass.
type Chart struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Series   int    `json:"series"`
	Points   int    `json:"points"`   // data points handed to the chart
	Drawn    int    `json:"drawn"`    // points laid out on screen (finite coordinates)
	SVGPaths int    `json:"svgPaths"` // SVG paths in the chart's element
	Bands    int    `json:"bands"`    // shaded stretches (stalls) handed to the chart

	DOMLines    int `json:"-"` // series lines in the rendered SVG
	DOMVertices int `json:"-"` // their vertices: data points drawn as a line
	DOMSymbols  int `json:"-"` // data points drawn as a symbol
	DOMBands    int `json:"-"` // shaded stretches drawn (filled in the stall colour)
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
	testenv.Require(t, err.Error())
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
		return out.Bytes(), fmt.Errorf("%s %s: %w\n%s", filepath.Base(bin), strings.Join(args, " "), err, tail(errb.String(), 2000))
	}
	return out.Bytes(), nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// fileURL is the URL of a report file; an http(s) URL (a live page) is
// taken as it is.
func fileURL(path string) (string, error) {
	if strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://") {
		return path, nil
	}
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
		return nil, fmt.Errorf("%s: #tsbench-chart-check: %w: %q", path, err, tail(text, 200))
	}
	drawn := countDrawn(string(dom))
	for i := range charts {
		d := drawn[charts[i].ID]
		charts[i].DOMLines, charts[i].DOMVertices, charts[i].DOMSymbols, charts[i].DOMBands = d.lines, d.vertices, d.symbols, d.bands
	}
	return charts, nil
}

// chartStart finds each chart's element in the rendered page.
var chartStart = regexp.MustCompile(`<div class="chart" id="chart-([^"]+)"`)

// svgPath matches an SVG path element with its attributes.
var svgPath = regexp.MustCompile(`<path ([^>]*)>`)

var attr = regexp.MustCompile(`([a-z-]+)="([^"]*)"`)

// Grey strokes belong to axes, grid lines, ticks and the toolbox, never to a
// data series.
var greys = map[string]bool{"#E0E6F1": true, "#6E7079": true, "#666": true, "#ccc": true, "#000": true, "#fff": true}

type drawnCounts struct{ lines, vertices, symbols, bands int }

// countDrawn reads, for every chart, the data the browser actually laid
// out in its SVG: a series line is an unfilled path in a series colour
// placed in plot coordinates (legend entries are translated into place, so
// they carry a transform); a data symbol is a small circle in a series
// colour placed by a matrix transform.
func countDrawn(dom string) map[string]drawnCounts {
	out := map[string]drawnCounts{}
	starts := chartStart.FindAllStringSubmatchIndex(dom, -1)
	for i, st := range starts {
		end := len(dom)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		id := dom[st[2]:st[3]]
		var c drawnCounts
		for _, m := range svgPath.FindAllStringSubmatch(dom[st[1]:end], -1) {
			a := map[string]string{}
			for _, kv := range attr.FindAllStringSubmatch(m[1], -1) {
				a[kv[1]] = kv[2]
			}
			if stallFill(a) {
				c.bands++
				continue
			}
			stroke := a["stroke"]
			if stroke == "" || greys[stroke] {
				continue
			}
			switch tr := a["transform"]; {
			case tr == "" && a["fill"] == "none":
				c.lines++
				c.vertices += strings.Count(a["d"], "M") + strings.Count(a["d"], "L")
			case strings.HasPrefix(tr, "matrix(") && strings.Contains(a["d"], "A"):
				c.symbols++
			}
		}
		out[id] = c
	}
	return out
}

// stallFill says a path is filled in the report's stall colour (its
// script's markArea, rgba(214, 39, 40, 0.10)).
func stallFill(a map[string]string) bool {
	f := strings.ReplaceAll(a["fill"], " ", "")
	return f == "rgba(214,39,40,0.1)" || (f == "rgb(214,39,40)" && a["fill-opacity"] == "0.1")
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

// CheckDrawn returns an error naming every chart in whose rendered SVG no
// data point can be found, or nil when each drew some; want, when > 0, is
// the number of charts expected.
func CheckDrawn(charts []Chart, want int) error {
	var bad []string
	for _, c := range charts {
		if c.Points == 0 || c.Drawn <= 0 || c.DOMVertices+c.DOMSymbols == 0 {
			bad = append(bad, fmt.Sprintf("%s (%d points given, the page found no drawn data: %d lines with %d vertices, %d symbols)",
				c.ID, c.Points, c.DOMLines, c.DOMVertices, c.DOMSymbols))
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
