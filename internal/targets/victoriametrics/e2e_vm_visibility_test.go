package victoriametrics

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// envPort is the port of a service script's server: the script's own
// variable (TSBENCH_VICTORIAMETRICS_PORT, ..._OLD_PORT), else its default.
func envPort(name string, def int) int {
	if p, err := strconv.Atoi(os.Getenv(name)); err == nil && p > 0 {
		return p
	}
	return def
}

// TestAnswersAfterEarlyQuery is the sequence of a mixed run and its answer
// checks: a query right after the run's first samples of a series and day
// (before the server's periodic flush made the new index entries
// searchable, which caches "no series" for the query's filters and day),
// the periodic flush (no cache reset), then verification (Count) and the
// same query again. Count must leave the query seeing every point: with a
// plain /internal/force_flush, 1.148 answered 0 points for up to 11 s more
// (the checks of a mixed TSBS run failed so), since that flush found nothing
// pending and reset no cache. The data starts at midnight on the first of a
// month, as TSBS's does, so Setup's registration (START_TIME - 1 ms) lies in
// the month before.
func TestAnswersAfterEarlyQuery(t *testing.T) {
	for _, srv := range servers {
		t.Run(srv.release, func(t *testing.T) {
			targettest.RequireServer(t, srv.service, "127.0.0.1:"+strconv.Itoa(srv.port))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			d, err := targettest.NewDataset(Driver.Caps.Types, time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli())
			if err != nil {
				t.Fatal(err)
			}
			opts := targets.Options{Database: "tsbench_visibility", Port: srv.port}
			conn, err := Driver.Open(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if err := conn.Setup(ctx, d.Schema, true); err != nil {
				t.Fatal(err)
			}
			// Another client writes, as in a run (the counting connection
			// wrote nothing itself).
			writer, err := Driver.Open(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer writer.Close()
			if err := writer.(targets.Binder).Bind(ctx, d.Schema); err != nil {
				t.Fatal(err)
			}
			start := d.Schema.StartTime
			var qs []ts.Query
			for i := range d.Schema.Devices {
				qs = append(qs, ts.Query{Kind: ts.TimeRange, Devices: []*ts.Device{&d.Schema.Devices[i]}, Sensors: []int{0},
					Start: start + 30*d.Schema.PointStep, End: start + 40*d.Schema.PointStep})
			}
			if err := d.Write(ctx, writer); err != nil {
				t.Fatal(err)
			}
			for i := range qs { // before the new index entries are searchable
				if _, err := conn.Query(ctx, &qs[i]); err != nil {
					t.Fatal(err)
				}
			}
			time.Sleep(2500 * time.Millisecond) // the periodic flushes (1 s) make them searchable
			n, err := conn.Count(ctx, ts.CountRange{})
			if err != nil {
				t.Fatal(err)
			}
			if want := d.Points(); n != want {
				t.Fatalf("Count = %d, want %d", n, want)
			}
			for i := range qs {
				got, err := conn.Query(ctx, &qs[i])
				if err != nil {
					t.Fatal(err)
				}
				if got.Points != 10 {
					t.Fatalf("device %s, 10 rows, after Count: %d points (a series lookup cached before the index flush)",
						qs[i].Devices[0].Name, got.Points)
				}
			}
		})
	}
}

// TestQueriesSeeDataDuringRun: in a run, a query made right after a
// device's first samples of a day (caching "no series" for the day, as in
// TestAnswersAfterEarlyQuery) must not hide them once the server flushed
// them (1-2 s): asked again 3.5 s later, with no Count in between, it
// answers every point. Before the background settle 1.148 answered 0
// points for up to 11 s, and a 2 s mixed TSBS run answered every query
// with no points.
func TestQueriesSeeDataDuringRun(t *testing.T) {
	port := envPort("TSBENCH_VICTORIAMETRICS_PORT", DefaultPort)
	targettest.RequireServer(t, "victoriametrics", "127.0.0.1:"+strconv.Itoa(port))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := targettest.NewDataset(Driver.Caps.Types, time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	opts := targets.Options{Database: "tsbench_visibility_run", Port: port}
	conn, err := Driver.Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Setup(ctx, d.Schema, true); err != nil {
		t.Fatal(err)
	}
	start := d.Schema.StartTime
	var qs []ts.Query
	for i := range d.Schema.Devices {
		qs = append(qs, ts.Query{Kind: ts.TimeRange, Devices: []*ts.Device{&d.Schema.Devices[i]}, Sensors: []int{0},
			Start: start + 30*d.Schema.PointStep, End: start + 40*d.Schema.PointStep})
	}
	if err := d.Write(ctx, conn); err != nil {
		t.Fatal(err)
	}
	for i := range qs {
		if _, err := conn.Query(ctx, &qs[i]); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(3500 * time.Millisecond)
	for i := range qs {
		got, err := conn.Query(ctx, &qs[i])
		if err != nil {
			t.Fatal(err)
		}
		if got.Points != 10 {
			t.Fatalf("device %s, 10 rows written 3.5 s ago: %d points", qs[i].Devices[0].Name, got.Points)
		}
	}
	if _, err := conn.Count(ctx, ts.CountRange{}); err != nil { // deletes the probes
		t.Fatal(err)
	}
}
