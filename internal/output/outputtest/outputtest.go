// Package outputtest runs a short benchmark in the test's process, on the
// null target, with an exporter wired to the runner as the run command
// wires it, so that a receiver's test can check what reached its server
// against the run's own summary.
package outputtest

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/monitor"
	"github.com/tsbench/tsbench/internal/output"
	"github.com/tsbench/tsbench/internal/runner"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	_ "github.com/tsbench/tsbench/internal/targets/null" // the target of the runs
	"github.com/tsbench/tsbench/internal/testenv"
)

// Labels gives a run's labels, with a run id of its own so that runs of
// one server's earlier tests never mix with this one's.
func Labels(t testing.TB) output.Labels {
	return output.Labels{RunID: fmt.Sprintf("test-%s-%d", t.Name(), time.Now().UnixNano()), Worker: "0",
		Target: "null", Phase: "measure"}
}

// Run runs the null target for d with the given receivers and returns the
// run's summary and the exporter's reports. The tool, the host and (this
// process standing for it) the server are sampled once a second. extra are configuration
// settings (KEY=VALUE) on top of a small mixed workload.
func Run(t testing.TB, d time.Duration, labels output.Labels, opts output.Options, names []string,
	rs []output.Receiver, extra ...string) (*summary.Summary, []output.Report, error) {
	t.Helper()
	args := append([]string{"DB_SWITCH=null", "DEVICE_NUMBER=4", "SENSOR_NUMBER=4", "CLIENT_NUMBER=2",
		"LOOP=1000000000", "duration=" + d.String(), "warmup=0s", "IS_QUIET_MODE=true"}, extra...)
	cfg, err := config.FromArgs(args...)
	if err != nil {
		t.Fatal(err)
	}
	drv, err := targets.Lookup("null")
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(cfg, drv, targets.Options{Database: "test", DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	exp := output.New(labels, names, rs, opts)
	r.Hooks.OnInterval = exp.Interval
	// Resource samples as a run takes them, the test's own process
	// standing for the database server.
	rec := monitor.NewRecorder(&summary.ServerProcess{PID: int32(os.Getpid()), Name: "test", Source: "outputtest"})
	rec.OnSample = exp.Resources
	r.Hooks.Monitor = rec
	ctx, cancel := context.WithTimeout(context.Background(), d+time.Minute)
	defer cancel()
	s, err := r.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	reports, err := exp.Finish(s)
	return s, reports, err
}

// RunToFile runs the null target for d with one required receiver, named
// name, that writes to a file: newReceiver makes it on a path in the test's
// temporary directory (a receiver package's New as it is). It returns the
// run's summary and what the file holds once the exporter has finished.
func RunToFile[R output.Receiver](t testing.TB, d time.Duration, name string, newReceiver func(path string) (R, error)) (*summary.Summary, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "live."+name)
	r, err := newReceiver(path)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := Run(t, d, Labels(t), output.Options{Required: true}, []string{name}, []output.Receiver{r})
	if err != nil {
		t.Fatal(err)
	}
	return s, testenv.ReadText(t, path)
}

// Totals are a run's operations and points, over every operation kind.
func Totals(s *summary.Summary) (ops, points, failed int64) {
	for _, o := range s.Operations {
		ops += o.OKOperations
		points += o.OKPoints
		failed += o.FailOperations
	}
	return ops, points, failed
}

// P99s are each second's p99 of one operation, in seconds, in the
// summary's order (seconds in which it did not run are left out).
func P99s(s *summary.Summary, op string) []float64 {
	var out []float64
	for _, iv := range s.Intervals {
		for _, o := range iv.Ops {
			if o.Name == op && o.OKOps+o.FailOps > 0 {
				out = append(out, o.P99MS/1000)
			}
		}
	}
	return out
}

// CheckP99s fails t where exported, the per-second p99s (seconds) of
// operation op as a receiver's server gave them back, differ from want, the
// summary's (P99s): a second more or fewer, or a value further off than a
// text format's shortest round trip leaves.
func CheckP99s(t testing.TB, op string, exported, want []float64) {
	t.Helper()
	if len(exported) != len(want) {
		t.Errorf("%s: %d seconds of p99 exported, the summary has %d", op, len(exported), len(want))
		return
	}
	for i := range want {
		if math.Abs(exported[i]-want[i]) > 1e-9*math.Max(1, want[i]) {
			t.Errorf("%s second %d: p99 %v s exported, %v s stored", op, i, exported[i], want[i])
		}
	}
}

// Get is the body of an HTTP GET of u, which must answer 200 OK within 30
// seconds.
func Get(t testing.TB, u string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %s %v", u, resp.Status, body, err)
	}
	return body
}
