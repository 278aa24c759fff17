package victoriametrics

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// servers are the two releases scripts/services starts: the current one
// (victoriametrics.sh) and Debian's 1.79 (victoriametrics-1.79.sh), on the
// ports the scripts take from the same variables (envPort).
var servers = []struct {
	service, release string
	port             int
}{
	{"victoriametrics", "current", envPort("TSBENCH_VICTORIAMETRICS_PORT", DefaultPort)},
	{"victoriametrics-1.79", "1.79", envPort("TSBENCH_VICTORIAMETRICS_OLD_PORT", 8438)},
}

// The target passes the conformance suite against both releases; TEXT is
// declared unsupported and the suite checks that Setup refuses it.
func TestConformance(t *testing.T) {
	for _, srv := range servers {
		t.Run(srv.release, func(t *testing.T) {
			targettest.RequireServer(t, srv.service, "127.0.0.1:"+strconv.Itoa(srv.port))
			targettest.Run(t, targettest.Suite{Driver: Driver,
				Options: targets.Options{Database: "tsbench_conformance", Port: srv.port},
				Settle:  func(ctx context.Context, conn targets.Target) error { return conn.(*Target).flush(ctx) }})
		})
	}
}

// TestQueryBeforeFlush: a query made right after the run's first writes,
// before they were flushed, must not hide them from the queries that follow
// the flush. Without Setup's registration of the series, both
// releases cache the first query's empty series lookup and answer 0 points
// for seconds after the data became searchable.
func TestQueryBeforeFlush(t *testing.T) {
	for _, srv := range servers {
		t.Run(srv.release, func(t *testing.T) {
			targettest.RequireServer(t, srv.service, "127.0.0.1:"+strconv.Itoa(srv.port))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			d, err := targettest.NewDataset(Driver.Caps.Types, time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC).UnixMilli())
			if err != nil {
				t.Fatal(err)
			}
			conn, err := Driver.Open(ctx, targets.Options{Database: "tsbench_early", Port: srv.port})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if err := conn.Setup(ctx, d.Schema, true); err != nil {
				t.Fatal(err)
			}
			start := d.Schema.StartTime
			q := ts.Query{Kind: ts.TimeRange, Devices: []*ts.Device{&d.Schema.Devices[0]}, Sensors: []int{0},
				Start: start, End: start + 10*d.Schema.PointStep}
			if err := d.Write(ctx, conn); err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Query(ctx, &q); err != nil { // before the flush
				t.Fatal(err)
			}
			if err := conn.(*Target).flush(ctx); err != nil {
				t.Fatal(err)
			}
			got, err := conn.Query(ctx, &q)
			if err != nil {
				t.Fatal(err)
			}
			if got.Points != 10 {
				t.Fatalf("10 rows after the flush: %d points (the series' lookup was cached empty before the flush)", got.Points)
			}
		})
	}
}

// TestServerVersion: the current release reports its version (compiled in
// by the service script); Debian's reports none, and the target says so.
func TestServerVersion(t *testing.T) {
	want := map[string]string{"current": "VictoriaMetrics v1.148.8", "1.79": "VictoriaMetrics (the server reports no version)"}
	for _, srv := range servers {
		t.Run(srv.release, func(t *testing.T) {
			targettest.RequireServer(t, srv.service, "127.0.0.1:"+strconv.Itoa(srv.port))
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			conn, err := Driver.Open(ctx, targets.Options{Port: srv.port})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			got, err := conn.(targets.Versioner).ServerVersion(ctx)
			if err != nil || got != want[srv.release] {
				t.Fatalf("ServerVersion = %q, %v; want %q", got, err, want[srv.release])
			}
		})
	}
}
