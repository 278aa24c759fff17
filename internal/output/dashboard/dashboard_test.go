package dashboard_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/htmlreport/browser"
	"github.com/tsbench/tsbench/internal/output/dashboard"
	"github.com/tsbench/tsbench/internal/output/outputtest"
	"github.com/tsbench/tsbench/internal/runner"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	_ "github.com/tsbench/tsbench/internal/targets/null"
	"github.com/tsbench/tsbench/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// runNull runs the null target for d in the background, handing each
// second to the dashboard; the summary arrives on the channel.
func runNull(t *testing.T, d time.Duration, dash *dashboard.Server) <-chan *summary.Summary {
	t.Helper()
	cfg, err := config.FromArgs("DB_SWITCH=null", "DEVICE_NUMBER=4", "SENSOR_NUMBER=4", "CLIENT_NUMBER=2",
		"LOOP=1000000000", "duration="+d.String(), "warmup=0s", "IS_QUIET_MODE=true")
	if err != nil {
		t.Fatal(err)
	}
	drv, _ := targets.Lookup("null")
	r, err := runner.New(cfg, drv, targets.Options{Database: "test", DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	r.Hooks.OnInterval = dash.Interval
	done := make(chan *summary.Summary, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), d+time.Minute)
		defer cancel()
		s, err := r.Run(ctx)
		if err != nil {
			t.Error(err)
		}
		done <- s
	}()
	return done
}

// While the run goes the page, opened in a real headless Chromium, shows
// the report's charts with the seconds so far; when the run ends the page
// becomes the final HTML report.
func TestLivePage(t *testing.T) {
	chromium := browser.Require(t)
	dash, err := dashboard.Start("127.0.0.1:0", "live-test", "null", "")
	if err != nil {
		t.Fatal(err)
	}
	done := runNull(t, 12*time.Second, dash)
	time.Sleep(5 * time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	charts, err := browser.Charts(ctx, chromium, dash.URL())
	if err != nil {
		t.Fatal(err)
	}
	var st dashboard.Status
	if err := json.Unmarshal(outputtest.Get(t, dash.URL()+"data.json"), &st); err != nil {
		t.Fatal(err)
	}
	if st.Done || st.Seconds < 4 || st.Operations == 0 {
		t.Fatalf("status mid-run: %+v", st)
	}
	var throughput, latency int
	for _, c := range charts {
		switch {
		case strings.HasPrefix(c.ID, "throughput-"):
			throughput++
			if c.Points < 3 || c.DOMVertices+c.DOMSymbols == 0 {
				t.Errorf("chart %s: %d points, %d drawn mid-run", c.ID, c.Points, c.DOMVertices+c.DOMSymbols)
			}
		case strings.HasPrefix(c.ID, "latency-"):
			latency++
		}
	}
	if throughput == 0 || latency == 0 {
		t.Fatalf("mid-run the page drew %d throughput and %d latency charts: %+v", throughput, latency, charts)
	}
	if err := browser.CheckDrawn(charts, len(charts)); err != nil {
		t.Error(err)
	}
	if dir := os.Getenv("TSBENCH_ARTIFACTS"); dir != "" {
		if err := browser.Screenshot(ctx, chromium, dash.URL(), filepath.Join(dir, "dashboard-live.png"), 1280, 900); err != nil {
			t.Error(err)
		}
	}
	s := <-done
	// A page that polls is open: Finish waits for it to load the report.
	poll := make(chan struct{})
	go func() {
		defer close(poll)
		for i := 0; i < 40; i++ {
			var st dashboard.Status
			if json.Unmarshal(outputtest.Get(t, dash.URL()+"data.json"), &st) == nil && st.Done {
				page := string(outputtest.Get(t, dash.URL()))
				if !strings.Contains(page, "tsbench report: live-test") || !regexp.MustCompile(`id="tsbench-data"`).MatchString(page) {
					t.Errorf("after the run / is not the final report: %.300s", page)
				}
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Error("the page never saw the run end")
	}()
	s.RunID, s.Target = "live-test", "null"
	if err := dash.Finish(s, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	<-poll
}

// A long run's page shows its last Window seconds, with totals over all of
// them: the server keeps no more.
func TestWindow(t *testing.T) {
	dash, err := dashboard.Start("127.0.0.1:0", "long", "null", "")
	if err != nil {
		t.Fatal(err)
	}
	defer dash.Close()
	n := 2*dashboard.Window + 7
	for i := 0; i < n; i++ {
		dash.Interval(i, summary.Interval{Start: float64(i), Seconds: 1, Ops: []summary.IntervalOp{
			{Name: "INGESTION", OKOps: 2, OKPoints: 20, P50MS: 1, P99MS: 2, MaxMS: 3, Histogram: "dropped"}}})
	}
	var st struct {
		dashboard.Status
		Charts struct {
			Sections []struct {
				ID     string `json:"id"`
				Charts []struct {
					ID     string `json:"id"`
					Series []struct {
						Data [][2]float64 `json:"data"`
					} `json:"series"`
				} `json:"charts"`
			} `json:"sections"`
		} `json:"charts"`
	}
	if err := json.Unmarshal(outputtest.Get(t, dash.URL()+"data.json"), &st); err != nil {
		t.Fatal(err)
	}
	if st.Operations != int64(2*n) || st.Points != int64(20*n) || st.Seconds != float64(n) {
		t.Errorf("totals: %d operations, %d points, %v s; want %d, %d, %d", st.Operations, st.Points, st.Seconds, 2*n, 20*n, n)
	}
	found := false
	for _, sec := range st.Charts.Sections {
		for _, c := range sec.Charts {
			if c.ID != "throughput-INGESTION" {
				continue
			}
			found = true
			d := c.Series[0].Data
			if len(d) != dashboard.Window || d[0][0] != float64(n-dashboard.Window+1) || d[len(d)-1][1] != 20 {
				t.Errorf("throughput chart: %d points from %v to %v", len(d), d[0], d[len(d)-1])
			}
		}
	}
	if !found {
		t.Errorf("no throughput chart in %+v", st.Charts)
	}
}
