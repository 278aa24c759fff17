package influxdb

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/httpclient"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/ts"
)

// The tests against the real InfluxDB 1.x server started by
// scripts/services/influxdb.sh, and against servers the tests start, beside
// those every target passes (conformance_test.go: the conformance suite
// with and without gzip, the refusal of TLS by the plain server).

// BenchmarkWrite is the lean-client comparison's shape against the server:
// go test -run '^$' -bench . -count 3 ./internal/targets/influxdb/
func BenchmarkWrite(b *testing.B) {
	server.BenchmarkWrite(b, Driver, targets.Options{Database: "tsbench_bench"}, nil)
}

const (
	tlsUser     = "bench"
	tlsPassword = "influx-s3cret-0xFACE"
)

// Against an InfluxDB 1.x that takes HTTPS only, with authentication on,
// the target passes the conformance suite with its certificate verified
// and basic authentication; it connects over TLS as asked (verified,
// insecure; refused with another CA or host name, naming the target and
// the key to set); a wrong password is a clear error that does not show
// it. (The plain InfluxDB of scripts/services asked for TLS is
// targets.ErrNoTLS, never a plaintext request: TestNoTLS.)
func TestTLS(t *testing.T) {
	srv := testenv.StartInfluxDBTLS(t, tlsUser, tlsPassword)
	opts := func(tls targets.TLS) targets.Options {
		return targets.Options{Port: srv.Port, User: tlsUser, Password: tlsPassword, Database: "tsbench_tls", TLS: tls}
	}
	targettest.TLSConformance(t, Driver, opts(targets.TLS{}), srv.CA)
	targettest.RunTLS(t, targettest.HTTPSCases(t, srv.CA, "(set TLS_CA_FILE"), targettest.TLSOpener(t, Driver, opts, "", func(_ context.Context, conn targets.Target) (bool, error) {
		return strings.HasPrefix(conn.(*Target).base, "https://"), nil
	}))
	t.Run("wrong password", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		o := opts(targets.TLS{Mode: "on", CAFile: srv.CA})
		o.Password = "not-" + tlsPassword
		conn, err := Driver.Open(ctx, o)
		if err == nil {
			// /ping answers without credentials: the first statement
			// is where InfluxDB asks for them.
			defer conn.Close()
			err = conn.Setup(ctx, &ts.Schema{}, true)
		}
		targettest.CheckAuthRefused(t, err, tlsPassword, "influxdb: POST https://127.0.0.1", "401 Unauthorized")
	})
}

// write_path=v2 posts line protocol to /api/v2/write with org, bucket and
// precision. VictoriaMetrics takes that API (not its queries): a
// VictoriaMetrics the test starts with HTTPS and basic authentication
// receives the conformance dataset at each precision, and its
// /api/v1/export shows every point at its time (the ms times given their
// zeros for us and ns). VictoriaMetrics keeps neither org nor bucket, so
// each precision writes measurements of its own.
func TestWriteV2(t *testing.T) {
	vm := testenv.StartVictoriaMetricsTLS(t, tlsUser, tlsPassword)
	tls := targets.TLS{Mode: "on", CAFile: vm.CA}
	types := []ts.DataType{ts.Boolean, ts.Int32, ts.Int64, ts.Float, ts.Double} // VictoriaMetrics keeps numbers only
	start := time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	for _, precision := range []string{"ms", "us", "ns"} {
		t.Run("precision="+precision, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			d, err := targettest.NewDataset(types, start)
			if err != nil {
				t.Fatal(err)
			}
			prefix := "v2" + precision
			for i := range d.Schema.Groups {
				d.Schema.Groups[i] = prefix + "_" + d.Schema.Groups[i]
			}
			d.OpenAndWrite(ctx, t, Driver, targets.Options{Port: vm.Port, User: tlsUser, Password: tlsPassword, TLS: tls,
				Extra: map[string]string{"write_path": "v2", "org": "bench-org", "bucket": "bench-bucket", "precision": precision}})
			got := exportVM(ctx, t, vm, `{__name__=~"`+prefix+`_.*"}`)
			var n int64
			for series, times := range got {
				if len(times) != 120 {
					t.Errorf("%s: %d points, want 120", series, len(times))
				}
				for i, tm := range times {
					if want := start + int64(i)*d.Schema.PointStep; tm != want {
						t.Fatalf("%s: point %d at %d, want %d", series, i, tm, want)
					}
				}
				n += int64(len(times))
			}
			if n != d.Points() {
				t.Fatalf("VictoriaMetrics holds %d points in %d series, want %d", n, len(got), d.Points())
			}
		})
	}
	t.Run("reset without /api/v2/delete", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := Driver.Open(ctx, targets.Options{Port: vm.Port, User: tlsUser, Password: tlsPassword, TLS: tls,
			Extra: map[string]string{"write_path": "v2", "org": "o"}})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if err := conn.Setup(ctx, &ts.Schema{}, true); err == nil || !strings.Contains(err.Error(), "set IS_DELETE_DATA=false") {
			t.Fatalf("error %v, want one saying to set IS_DELETE_DATA=false", err)
		}
	})
}

// exportVM flushes VictoriaMetrics and returns the times of every series
// match selects, by series, from /api/v1/export.
func exportVM(ctx context.Context, t *testing.T, vm testenv.HTTPSServer, match string) map[string][]int64 {
	t.Helper()
	e, err := httpclient.NewEndpoint(targets.Options{Port: vm.Port, TLS: targets.TLS{Mode: "on", CAFile: vm.CA}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	e.Authorization = httpclient.Basic(tlsUser, tlsPassword)
	c := e.Client()
	if _, err := httpclient.Do(ctx, c, http.MethodGet, e.Base+"/internal/force_flush", nil, nil); err != nil {
		t.Fatal(err)
	}
	data, err := httpclient.Do(ctx, c, http.MethodGet, e.Base+"/api/v1/export?"+url.Values{"match[]": {match}}.Encode(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]int64{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var line struct {
			Metric     map[string]string
			Timestamps []int64
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		key := fmt.Sprint(line.Metric)
		out[key] = append(out[key], line.Timestamps...)
	}
	if len(out) == 0 {
		t.Fatalf("no series match %s", match)
	}
	return out
}

// TSBS's iot questions (every kind, every fleet, three windows) answered
// by InfluxQL on both releases of scripts/services agree with
// internal/fleet's answers from the points written.
func TestFleetQuestions(t *testing.T) {
	targettest.EachServer(t, releases, func(t *testing.T, srv targettest.Server) {
		targettest.FleetQuestions(t, Driver, srv.Options(targets.Options{Database: "tsbench_fleet"}))
	})
}
