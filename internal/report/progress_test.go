package report

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newFakeClock() *fakeClock               { return &fakeClock{t: time.Unix(1_700_000_000, 0)} }

func snap(elapsed time.Duration) Snapshot {
	return Snapshot{
		Elapsed: elapsed, Done: 250, Total: 1000, OpsPerSec: 1234, PointsPerSec: 1234000,
		Errors: 2, Phase: "measure",
	}
}

// progressStep is one Update of a progress test: the clock moves on by
// advance, then the snapshot is handed over; the update must add exactly
// adds to the output.
type progressStep struct {
	what    string
	advance time.Duration
	snap    Snapshot
	adds    string
}

// TestProgress runs updates through a live (terminal) and a plain progress
// display, then Finish twice; each step's output is checked as it comes.
func TestProgress(t *testing.T) {
	timeBound := snap(67 * time.Second)
	timeBound.Total, timeBound.TimeLeft = 0, 90*time.Second // time left instead of %
	noPhase := snap(time.Second)
	noPhase.Phase = ""
	atInterval := noPhase
	atInterval.Elapsed = 5 * time.Second
	newPhase := atInterval
	newPhase.Phase = "measure"
	cases := []struct {
		name     string
		terminal bool
		steps    []progressStep
		finish   string // what Finish adds
	}{
		{
			name: "terminal", terminal: true,
			steps: []progressStep{
				{"first update shows at once", 0, snap(65 * time.Second),
					"\rmeasure  1m05s  25.0%  1.2K ops/s  1.23M points/s  2 errors\x1b[K"},
				{"too soon: at most ~4 redraws a second", 100 * time.Millisecond, snap(66 * time.Second), ""},
				{"time-bound run", 200 * time.Millisecond, timeBound,
					"\rmeasure  1m07s  1m30s left  1.2K ops/s  1.23M points/s  2 errors\x1b[K"},
			},
			finish: "\n",
		},
		{
			name: "plain",
			steps: []progressStep{
				{"nothing yet: plain lines come one interval apart", 0, noPhase, ""},
				{"still within the interval", 4 * time.Second, noPhase, ""},
				{"one interval on", time.Second, atInterval,
					"progress: 5s  25.0%  1.2K ops/s  1.23M points/s  2 errors\n"},
				{"a new phase is shown at once", time.Second, newPhase,
					"progress: measure  5s  25.0%  1.2K ops/s  1.23M points/s  2 errors\n"},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			clk := newFakeClock()
			p := newProgress(&buf, c.terminal, 5*time.Second, clk.now)
			var want string
			for _, st := range c.steps {
				clk.advance(st.advance)
				p.Update(st.snap)
				want += st.adds
				if buf.String() != want {
					t.Fatalf("%s:\n got %q\nwant %q", st.what, buf.String(), want)
				}
			}
			// A live line is redrawn in place until Finish; plain output
			// carries no terminal control at all.
			if c.terminal && strings.Contains(buf.String(), "\n") {
				t.Fatal("live line contains a newline before Finish")
			}
			if !c.terminal && strings.ContainsAny(buf.String(), "\r\x1b") {
				t.Fatal("plain output contains terminal control characters")
			}
			p.Finish()
			p.Finish() // a second Finish adds nothing
			if buf.String() != want+c.finish {
				t.Fatalf("Finish added %q, want %q", strings.TrimPrefix(buf.String(), want), c.finish)
			}
		})
	}
}

func TestProgressDefaultsAndClamp(t *testing.T) {
	p := NewProgress(&bytes.Buffer{}, false, 0)
	if p.every != defaultEvery {
		t.Errorf("every = %v, want %v", p.every, defaultEvery)
	}
	s := Snapshot{Done: 12, Total: 10}
	if got := progressText(s); !strings.Contains(got, "100.0%") {
		t.Errorf("overshoot not clamped: %q", got)
	}
	// A long run with many errors still fits 80 columns.
	long := Snapshot{
		Phase: "warm-up", Elapsed: 99 * time.Hour, Done: 1, Total: 3, TimeLeft: 99 * time.Hour,
		OpsPerSec: 999e6, PointsPerSec: 999e6, Errors: 99_999_999,
	}
	if got := progressText(long); len(got) > liveWidth {
		t.Errorf("progress line is %d columns, would wrap: %q", len(got), got)
	}
	// Beyond that, the live line is cut rather than wrapped.
	var buf bytes.Buffer
	p = newProgress(&buf, true, 0, time.Now)
	long.Errors = 9_999_999_999_999
	long.OpsPerSec = 999e12
	p.Update(long)
	if n := len(buf.String()) - len("\r") - len(clearEOL); n > liveWidth {
		t.Errorf("live line is %d columns: %q", n, buf.String())
	}
}

func TestIsTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("a regular file is reported as a terminal")
	}
	if IsTerminal(nil) {
		t.Error("nil is reported as a terminal")
	}
}
