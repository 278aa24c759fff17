package prometheus

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/ts"
)

// The tests against the real server of scripts/services/prometheus.sh, on
// the port the script takes from TSBENCH_PROMETHEUS_PORT.

// port is the script's server's port.
var port = func() int {
	if p, err := strconv.Atoi(os.Getenv("TSBENCH_PROMETHEUS_PORT")); err == nil && p > 0 {
		return p
	}
	return Driver.DefaultPort
}()

// server is the script's server, required by the tests (skipped without
// it, failed in CI).
var server = targettest.Server{Name: "prometheus", Addr: "127.0.0.1:" + strconv.Itoa(port)}

// options are the connection to the server with database db and the
// target options extra.
func options(db string, extra map[string]string) targets.Options {
	return targets.Options{Database: db, Port: port, Extra: extra}
}

// The target passes the conformance suite on each write path: remote
// write 1.0 and 2.0, counts and every answer checked.
func TestConformance(t *testing.T) {
	server.Conformance(t, targettest.Suite{Driver: Driver, Options: options("tsbench_conformance", nil)},
		map[string][]string{"write_path": Driver.WritePaths})
}

// groupByQueries are the conformance suite's Q7s and more: whole buckets
// only, a start before START_TIME, one clipped bucket, a bucket per row,
// limits.
func groupByQueries(s *ts.Schema) []ts.Query {
	var qs []ts.Query
	for _, q := range append(targettest.Queries(s), targettest.AcrossQueries(s)...) {
		if q.Kind == ts.GroupBy {
			qs = append(qs, q)
		}
	}
	at := func(row int64) int64 { return s.StartTime + row*s.PointStep }
	devs := []*ts.Device{&s.Devices[0], &s.Devices[1], &s.Devices[2]}
	n := len(s.Sensors)
	for _, agg := range []ts.Aggregate{ts.Count, ts.Sum, ts.Avg, ts.Min, ts.Max} {
		for _, across := range []bool{false, true} {
			base := ts.Query{Kind: ts.GroupBy, Devices: devs, Sensors: []int{n - 2, n - 1}, Agg: agg, Across: across}
			for _, w := range [][3]int64{
				{at(0), at(100), 10_000},
				{at(0) - 2500, at(60), 10_000},
				{at(7) + 1, at(9), 5000},
				{at(0), at(120), 1000},
			} {
				q := base
				q.Start, q.End, q.Bucket = w[0], w[1], w[2]
				qs = append(qs, q)
			}
		}
	}
	for _, limit := range []int{1, 3} {
		qs = append(qs, ts.Query{Kind: ts.GroupBy, Devices: devs, Sensors: []int{n - 1}, Agg: ts.Avg, Across: true,
			Start: at(20) + 300, End: at(95) + 1, Bucket: 6000, Limit: limit})
	}
	return qs
}

// Every Q7 is answered by the server's rollups (groupBy reports no
// fallback) with the generator's answer, dense and sparse.
func TestGroupByOnServer(t *testing.T) {
	server.Require(t)
	for _, sparse := range []bool{false, true} {
		t.Run(fmt.Sprintf("sparse_%v", sparse), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			d, err := targettest.NewDataset(Driver.Caps.Types, time.Date(2022, 3, 1, 0, 0, 0, 0, time.UTC).UnixMilli())
			if err != nil {
				t.Fatal(err)
			}
			d.Sparse = sparse
			conn := targettest.OpenSetUp(ctx, t, Driver, options("tsbench_rollup", nil), d.Schema, true)
			if err := d.Write(ctx, conn); err != nil {
				t.Fatal(err)
			}
			p := conn.(*Target)
			for _, q := range groupByQueries(d.Schema) {
				var perSensor []string
				p.mu.Lock()
				for _, sn := range q.Sensors {
					perSensor = append(perSensor, p.selector(d.Schema, q.Devices, []int{sn}))
				}
				p.mu.Unlock()
				got, way, err := p.groupBy(ctx, d.Schema, &q, perSensor)
				name := fmt.Sprintf("%s across=%v limit=%d [%+d, %+d) by %d", q.Agg, q.Across, q.Limit,
					q.Start-d.Schema.StartTime, q.End-d.Schema.StartTime, q.Bucket)
				if err != nil || way != onServer {
					t.Errorf("%s: groupBy = %q, %v: not answered on the server", name, way, err)
					continue
				}
				want := targettest.ExpectPresent(d.Gens[0], &q, 120, d.Present)
				if msg := targettest.Compare(&q, got, want); msg != "" {
					t.Errorf("%s: %s", name, msg)
				}
			}
		})
	}
}

// A reset starts a new generation: the data of the one before is neither
// counted nor answered, and a connection that binds joins the newest.
func TestResetAndBind(t *testing.T) {
	server.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := targettest.NewDataset(Driver.Caps.Types, time.Date(2023, 7, 1, 0, 0, 0, 0, time.UTC).UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	first := targettest.OpenSetUp(ctx, t, Driver, options("tsbench_reset", nil), d.Schema, true)
	if err := d.Write(ctx, first); err != nil {
		t.Fatal(err)
	}
	second := targettest.OpenSetUp(ctx, t, Driver, options("tsbench_reset", nil), d.Schema, true)
	if n, err := second.Count(ctx, ts.CountRange{}); err != nil || n != 0 {
		t.Fatalf("after a reset Count = %d, %v; want 0", n, err)
	}
	if err := d.Write(ctx, second); err != nil {
		t.Fatal(err)
	}
	joined := targettest.OpenSetUp(ctx, t, Driver, options("tsbench_reset", nil), d.Schema, false)
	if n, err := joined.Count(ctx, ts.CountRange{}); err != nil || n != d.Points() {
		t.Fatalf("a bound connection counts %d, %v; want %d", n, err, d.Points())
	}
}

// A sample more than 10 minutes ahead of the server's clock is refused
// (Prometheus' receiver limit): the write fails, it is not acknowledged
// and lost.
func TestTooFarAheadIsRefused(t *testing.T) {
	server.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ahead := time.Now().Add(20 * time.Minute).UnixMilli()
	s := targettest.OwnSchema("tsbench_ahead", time.Now().UnixMilli(), ts.Double)
	conn := targettest.OpenSetUp(ctx, t, Driver, options("tsbench_ahead", nil), s, true)
	b := &ts.Batch{Device: &s.Devices[0], Times: []int64{ahead}, Decimals: -1,
		Columns: []ts.Column{{Type: ts.Double, Doubles: []float64{1}}}}
	err := conn.Write(ctx, b)
	if err == nil || !strings.Contains(err.Error(), "too far in the future") {
		t.Fatalf("a write 20 minutes ahead: %v, want the server's refusal", err)
	}
}

// The target refuses in Setup, before writing, a name that is not UTF-8
// (Prometheus would drop its series and answer success), and TEXT.
func TestSetupRefusals(t *testing.T) {
	server.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := Driver.Open(ctx, options("tsbench_refusals", nil))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	s := targettest.OwnSchema("tsbench_refusals", time.Now().UnixMilli(), ts.Double)
	s.Devices[1].Name = "bad\xff"
	if err := conn.Setup(ctx, s, true); err == nil || !strings.Contains(err.Error(), "not UTF-8") {
		t.Errorf("a device name that is not UTF-8: Setup = %v", err)
	}
	s = targettest.OwnSchema("tsbench_refusals", time.Now().UnixMilli(), ts.Text)
	if err := conn.Setup(ctx, s, true); !errors.Is(err, targets.ErrUnsupported) {
		t.Errorf("TEXT: Setup = %v, want ErrUnsupported", err)
	}
	if _, err := Driver.Open(ctx, options("x", map[string]string{"write_path": "import"})); err == nil {
		t.Error("write_path=import: opened")
	}
}

// The server reports its version (compiled in by the script) and the size
// of its storage.
func TestServerVersionAndSize(t *testing.T) {
	server.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := Driver.Open(ctx, options("", nil))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if v, err := conn.(targets.Versioner).ServerVersion(ctx); err != nil || v != "Prometheus 3.16.0" {
		t.Errorf("ServerVersion = %q, %v; want Prometheus 3.16.0", v, err)
	}
	if n, err := conn.(targets.Sizer).StorageBytes(ctx); err != nil || n <= 0 {
		t.Errorf("StorageBytes = %d, %v", n, err)
	}
}

// The user's own PromQL queries: answers of known result, hostile values
// as label values and metric names selecting nothing, a bad query an
// error.
func TestRunStatement(t *testing.T) {
	server.Require(t)
	t0 := time.Date(2023, 5, 1, 12, 0, 0, 0, time.UTC).UnixMilli()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// A database of its own: a reset cannot delete the earlier runs'
	// samples, which lie behind the head (out of order; Prometheus
	// deletes no out-of-order data, prometheus/prometheus#11790), and
	// these queries, as a user's, do not name the generation.
	own := "tsbench_own_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	conn := targettest.OpenOwn(ctx, t, Driver, options(own, nil),
		targettest.OwnSchema(own, t0, ts.Double, ts.Int64), 5, targettest.OwnSeries(nil))
	run := conn.(*Target)
	lit, id := language.Literal, language.Ident
	db := "db=" + lit(own)
	sel := func(metric, dev string) string { return id(metric) + "{" + db + ",device=" + lit(dev) + "}" }
	at := time.UnixMilli(t0 + 4000)
	check := targettest.Checker(ctx, t, run)
	check("max_over_time("+sel("s_0", "d_0")+"[5s])", at, []string{"value"}, [][]any{{5.5}})
	check("sum_over_time("+sel("s_1", "d_1")+"[3s])", at, []string{"value"}, [][]any{{int64(390)}})
	check("sort(max_over_time(s_0{"+db+"}[5s]))", at, []string{"value"}, [][]any{{5.5}, {14.5}})
	check(sel("s_0", "d_0")+"[3s]", at, []string{"time", "value"},
		[][]any{{t0 + 2000, 3.5}, {t0 + 3000, 4.5}, {t0 + 4000, 5.5}})
	for _, h := range targettest.Hostile {
		check("max_over_time("+sel("s_0", h)+"[5s])", at, nil, nil)
		check("max_over_time({__name__="+lit(h)+","+db+"}[5s])", at, nil, nil)
	}
	targettest.Refused(ctx, t, run, at, "sum(", `s_0{device="d_0}`)
}

// BenchmarkWrite is the lean-client comparison's shape against the server,
// on each write path:
// go test -run '^$' -bench Write ./internal/targets/prometheus/
func BenchmarkWrite(b *testing.B) {
	server.BenchmarkWrite(b, Driver, options("tsbench_bench", nil), map[string][]string{"write_path": Driver.WritePaths})
}

// Windows longer than PromQL reads to the millisecond (promql.MaxExactWindow):
// the conformance queries, and counts of ranges from inside the data, on
// rows 20 days and 7 ms apart (6.5 years) answer exactly, split or
// computed from raw points where a window would not be exact. (Sent as
// they are, a third of the windows came out a millisecond short.)
func TestLongWindows(t *testing.T) {
	server.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d, err := targettest.NewDataset(Driver.Caps.Types, time.Date(2015, 3, 1, 0, 0, 0, 0, time.UTC).UnixMilli()+7)
	if err != nil {
		t.Fatal(err)
	}
	s := d.Schema
	s.PointStep = 20*24*3600*1000 + 7
	conn := targettest.OpenSetUp(ctx, t, Driver, options("tsbench_long", nil), s, true)
	if err := d.Write(ctx, conn); err != nil {
		t.Fatal(err)
	}
	at := func(row int64) int64 { return s.StartTime + row*s.PointStep }
	devs := []*ts.Device{&s.Devices[0], &s.Devices[3]}
	for _, c := range []struct{ from, to int64 }{{0, 120}, {5, 100}, {1, 2}, {41, 119}} {
		n, err := conn.Count(ctx, ts.CountRange{Devices: devs, Start: at(c.from), End: at(c.to)})
		want := int64(len(s.Sensors)) * 2 * (c.to - c.from)
		if err != nil || n != want {
			t.Errorf("Count rows [%d, %d) = %d, %v; want %d", c.from, c.to, n, err, want)
		}
	}
	qs := targettest.Queries(s)
	for _, agg := range []ts.Aggregate{ts.Count, ts.Min} {
		qs = append(qs, ts.Query{Kind: ts.AggRange, Devices: devs, Sensors: []int{len(s.Sensors) - 1}, Agg: agg,
			Start: at(3) + 1, End: at(100)})
	}
	for _, q := range qs {
		got, err := conn.Query(ctx, &q)
		if err != nil {
			t.Fatalf("%s: %v", q.Kind, err)
		}
		if msg := targettest.Compare(&q, got, targettest.ExpectPresent(d.Gens[0], &q, 120, d.Present)); msg != "" {
			t.Errorf("%s [%d, %d): %s", q.Kind, q.Start-s.StartTime, q.End-s.StartTime, msg)
		}
	}
}

// The test's Prometheus takes HTTPS only, with a certificate signed by a
// CA the test makes, and basic authentication.
const (
	tlsUser     = "bench"
	tlsPassword = "prom-s3cret-0xC0DE"
)

// Over TLS with the right password the target passes the conformance
// suite: every write through the Poster, and every query, over verified
// HTTPS with basic authentication.
func TestTLSConformance(t *testing.T) {
	srv := testenv.StartPrometheusTLS(t, tlsUser, tlsPassword)
	targettest.Run(t, targettest.Suite{Driver: Driver, Options: targets.Options{Database: "tsbench_tls", Port: srv.Port,
		User: tlsUser, Password: tlsPassword, TLS: targets.TLS{Mode: "on", CAFile: srv.CA}}})
}

// The target connects over TLS as asked: verified against the test's CA,
// unverified when insecure, refused with another CA or host name, a
// plaintext request refused by the server, a wrong password a clear error;
// a server without TLS asked for TLS is ErrNoTLS.
func TestTLS(t *testing.T) {
	srv := testenv.StartPrometheusTLS(t, tlsUser, tlsPassword)
	cases := targettest.HTTPSCases(t, srv.CA, "prometheus: GET https://127.0.0.1")
	opts := func(tls targets.TLS) targets.Options {
		return targets.Options{Port: srv.Port, User: tlsUser, Password: tlsPassword, TLS: tls}
	}
	targettest.RunTLS(t, cases, targettest.TLSOpener(t, Driver, opts, "", func(_ context.Context, conn targets.Target) (bool, error) {
		return strings.HasPrefix(conn.(*Target).query, "https://"), nil
	}))
	t.Run("wrong password", func(t *testing.T) {
		targettest.CheckPassword(t, Driver, opts(targets.TLS{Mode: "on", CAFile: srv.CA}), "not-"+tlsPassword,
			"prometheus: GET https://127.0.0.1", "401 Unauthorized")
	})
	t.Run("server without TLS", func(t *testing.T) {
		server.NoTLS(t, Driver, targets.Options{Port: port}, srv.CA)
	})
}
