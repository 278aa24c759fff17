package runner

import (
	"context"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/sysinfo"
	"github.com/tsbench/tsbench/internal/targets"
	_ "github.com/tsbench/tsbench/internal/targets/null"
	_ "github.com/tsbench/tsbench/internal/targets/sqlite"
)

func run(t *testing.T, args ...string) *summary.Summary {
	t.Helper()
	return runOn(t, nil, args...)
}

// runOn runs the configuration against driver d, or the one DB_SWITCH
// names when d is nil.
func runOn(t *testing.T, d *targets.Driver, args ...string) *summary.Summary {
	t.Helper()
	c, err := config.FromArgs(args...)
	if err != nil {
		t.Fatal(err)
	}
	return runConfig(t, c, d, t.TempDir(), 0)
}

// runConfig runs c against driver d (or the one c's DB_SWITCH names) with
// its data in dir, prior rows of every device already stored there.
func runConfig(t *testing.T, c *config.Config, d *targets.Driver, dir string, prior int64) *summary.Summary {
	t.Helper()
	if d == nil {
		var err error
		if d, err = targets.Lookup(c.Target); err != nil {
			t.Fatal(err)
		}
	}
	r, err := New(c, d, targets.Options{Database: "test", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	r.PriorRows = prior
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := r.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Warm-up operations are reported on their own, excluded from the matrices,
// and still counted by verification (they wrote points too). Its queries'
// answers are not written points: counted as such, a find-max step once
// expected 1,452 points more than SQLite could hold and called it a loss.
func TestWarmupCountedApart(t *testing.T) {
	for _, mix := range []string{"1", "1:1:1:1:1:1:1:1:1:1:1"} {
		t.Run("OPERATION_PROPORTION="+mix, func(t *testing.T) {
			s := run(t, "DB_SWITCH=sqlite", "DEVICE_NUMBER=4", "SENSOR_NUMBER=3", "CLIENT_NUMBER=2", "LOOP=22",
				"BATCH_SIZE_PER_WRITE=10", "OPERATION_PROPORTION="+mix, "warmup=500ms")
			var warm *summary.Phase
			for i := range s.Phases {
				if s.Phases[i].Name == "warm-up" {
					warm = &s.Phases[i]
				}
			}
			if warm == nil || warm.Operations == 0 || warm.Points == 0 {
				t.Fatalf("warm-up phase %+v", s.Phases)
			}
			const perWrite = 10 * 3 // rows x sensors
			if warm.Points%perWrite != 0 {
				t.Errorf("warm-up wrote %d points: not whole batches of %d", warm.Points, perWrite)
			}
			w := s.Op("INGESTION")
			if mix == "1" && w.OKOperations != 2*22*2 { // clients x LOOP x devices per client
				t.Fatalf("measured %d write operations, want 88", w.OKOperations)
			}
			if s.Verify == nil || !s.Verify.OK || s.Verify.ExpectedPoints != w.OKPoints+warm.Points {
				t.Fatalf("verify %+v, measured %d + warm-up %d points", s.Verify, w.OKPoints, warm.Points)
			}
		})
	}
}

// OP_MIN_INTERVAL spaces a client's plan steps: 6 steps at 100 ms take at
// least 0.5 s.
func TestOpMinInterval(t *testing.T) {
	s := run(t, "DB_SWITCH=sqlite", "DEVICE_NUMBER=1", "SENSOR_NUMBER=1", "CLIENT_NUMBER=1", "LOOP=6",
		"BATCH_SIZE_PER_WRITE=1", "OPERATION_PROPORTION=1", "OP_MIN_INTERVAL=100")
	if s.Elapsed < 0.5 {
		t.Fatalf("6 steps with OP_MIN_INTERVAL=100 took %.3f s", s.Elapsed)
	}
	if s.Op("INGESTION").OKOperations != 6 {
		t.Fatal("not every step ran")
	}
}

// TEST_MAX_TIME ends the measured phase; what was written is verified.
func TestMaxTimeStops(t *testing.T) {
	s := run(t, "DB_SWITCH=sqlite", "DEVICE_NUMBER=2", "SENSOR_NUMBER=2", "CLIENT_NUMBER=2", "LOOP=100000000",
		"BATCH_SIZE_PER_WRITE=10", "OPERATION_PROPORTION=1", "TEST_MAX_TIME=700")
	if s.StopReason != "duration" || s.Elapsed > 10 {
		t.Fatalf("stop reason %q after %.1f s", s.StopReason, s.Elapsed)
	}
	if s.Verify == nil || !s.Verify.OK {
		t.Fatalf("verify %+v", s.Verify)
	}
}

// The tool's CPU while measuring leaves out the warm-up: a second of the
// null target at full speed before 50 measured steps is most of the run's
// CPU, and none of the measured part's.
func TestMeasuredCPULeavesOutWarmup(t *testing.T) {
	before := sysinfo.SelfUsage()
	s := run(t, "DB_SWITCH=null", "DEVICE_NUMBER=4", "SENSOR_NUMBER=10", "CLIENT_NUMBER=2", "LOOP=50",
		"BATCH_SIZE_PER_WRITE=10", "OPERATION_PROPORTION=1", "warmup=1s")
	whole := sysinfo.CPUSince(before)
	m := s.Tool.MeasuredCPUSeconds
	if !(m > 0) || m >= whole/2 {
		t.Errorf("measured CPU %.4f s of the run's %.4f s: want above 0 and below half (the warm-up took the rest)", m, whole)
	}
}

// At a low open-model rate a client's operations are a second or more
// apart. The warm-up must not hold a client past its end, nor the last
// intended start stretch the measured phase: 4 clients at 2 operations/s
// measured 3 s complete 6 operations, due at 0, 0.5, ... 2.5 s, over a
// phase of 3 s (a find-max step once measured none, another "15.8 % short").
func TestLowRateKeepsItsPhases(t *testing.T) {
	s := run(t, "DB_SWITCH=sqlite", "DEVICE_NUMBER=4", "SENSOR_NUMBER=2", "CLIENT_NUMBER=4", "LOOP=1000000",
		"BATCH_SIZE_PER_WRITE=1", "OPERATION_PROPORTION=1", "RATE=2", "warmup=1300ms", "DURATION=3s")
	w := s.Op("INGESTION")
	if w == nil || w.OKOperations != 6 {
		t.Fatalf("measured %+v operations, want 6", w)
	}
	if s.Elapsed < 2.95 || s.Elapsed > 3.5 {
		t.Errorf("the measured phase lasted %.3f s, want its 3 s", s.Elapsed)
	}
	if s.Verify == nil || !s.Verify.OK {
		t.Errorf("verify %+v", s.Verify)
	}
}
