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

func TestProgressTerminal(t *testing.T) {
	var buf bytes.Buffer
	clk := newFakeClock()
	p := newProgress(&buf, true, 5*time.Second, clk.now)

	p.Update(snap(65 * time.Second)) // first update shows at once
	want := "\rmeasure  1m05s  25.0%  1.2K ops/s  1.23M points/s  2 errors\x1b[K"
	if buf.String() != want {
		t.Fatalf("first live line = %q, want %q", buf.String(), want)
	}

	clk.advance(100 * time.Millisecond)
	p.Update(snap(66 * time.Second)) // too soon: at most ~4 redraws a second
	if buf.String() != want {
		t.Fatalf("redrawn after 100ms: %q", buf.String())
	}

	clk.advance(200 * time.Millisecond)
	s := snap(67 * time.Second)
	s.Total, s.TimeLeft = 0, 90*time.Second // time-bound run: time left instead of %
	p.Update(s)
	want += "\rmeasure  1m07s  1m30s left  1.2K ops/s  1.23M points/s  2 errors\x1b[K"
	if buf.String() != want {
		t.Fatalf("second live line:\n got %q\nwant %q", buf.String(), want)
	}
	if strings.Contains(buf.String(), "\n") {
		t.Fatal("live line contains a newline before Finish")
	}

	p.Finish()
	p.Finish() // a second Finish adds nothing
	if buf.String() != want+"\n" {
		t.Fatalf("after Finish: %q", buf.String())
	}
}

func TestProgressPlain(t *testing.T) {
	var buf bytes.Buffer
	clk := newFakeClock()
	p := newProgress(&buf, false, 5*time.Second, clk.now)

	s := snap(time.Second)
	s.Phase = ""
	p.Update(s) // nothing yet: plain lines come one interval apart
	clk.advance(4 * time.Second)
	p.Update(s)
	if buf.Len() != 0 {
		t.Fatalf("plain progress printed before the interval: %q", buf.String())
	}

	clk.advance(time.Second)
	s.Elapsed = 5 * time.Second
	p.Update(s)
	want := "progress: 5s  25.0%  1.2K ops/s  1.23M points/s  2 errors\n"
	if buf.String() != want {
		t.Fatalf("plain line = %q, want %q", buf.String(), want)
	}

	clk.advance(time.Second)
	s.Phase = "measure" // a new phase is shown at once
	p.Update(s)
	want += "progress: measure  5s  25.0%  1.2K ops/s  1.23M points/s  2 errors\n"
	if buf.String() != want {
		t.Fatalf("phase change:\n got %q\nwant %q", buf.String(), want)
	}
	if strings.ContainsAny(buf.String(), "\r\x1b") {
		t.Fatal("plain output contains terminal control characters")
	}
	p.Finish()
	if buf.String() != want {
		t.Fatalf("Finish in plain mode wrote %q", strings.TrimPrefix(buf.String(), want))
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
