package report

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// Snapshot is the state of a run at one moment, as the progress line shows
// it.
type Snapshot struct {
	Elapsed time.Duration
	// Done and Total are operations done and planned; Total 0 = unknown.
	Done, Total float64
	// TimeLeft is the time until the run's time limit; 0 = unknown.
	TimeLeft     time.Duration
	OpsPerSec    float64
	PointsPerSec float64
	Errors       int64
	Phase        string
	// P99MS is the last second's 99th-percentile latency in milliseconds
	// (0 = none), as pgbench -P shows the last interval's latency.
	P99MS float64
}

// ttyInterval bounds how often the live line is redrawn: faster than about 4
// times a second is unreadable and costs the terminal more than it shows.
const ttyInterval = 250 * time.Millisecond

// defaultEvery is the plain-mode interval when the caller gives none.
const defaultEvery = 5 * time.Second

// clearEOL is the ANSI "erase to end of line" sequence: it wipes what is left
// of a longer previous line after "\r".
const clearEOL = "\x1b[K"

// Progress prints the progress of a run: on a terminal one line rewritten in
// place, elsewhere (a log file, CI) a plain line every so often, because
// carriage returns turn a log into one unreadable line. Its methods may be
// called from several goroutines.
type Progress struct {
	mu        sync.Mutex
	w         io.Writer
	tty       bool
	every     time.Duration
	now       func() time.Time
	last      time.Time // when a line was last printed
	lastPhase string
	live      bool // a live line is on screen without its newline
}

// NewProgress returns a Progress writing to w. isTerminal selects the live
// line (see IsTerminal); every is the plain-mode interval (0 = 5 s).
func NewProgress(w io.Writer, isTerminal bool, every time.Duration) *Progress {
	return newProgress(w, isTerminal, every, time.Now)
}

// newProgress takes the clock as an argument so that tests can drive it.
func newProgress(w io.Writer, isTerminal bool, every time.Duration, now func() time.Time) *Progress {
	if every <= 0 {
		every = defaultEvery
	}
	p := &Progress{w: w, tty: isTerminal, every: every, now: now}
	// Plain lines come one interval apart counting from now, not from a
	// first line at t=0 that could only say "0 ops/s"; the live line shows
	// at once.
	if !isTerminal {
		p.last = now()
	}
	return p
}

// Update shows s if enough time has passed since the last line, or at once
// when the phase changed (the start of the measured phase matters).
func (p *Progress) Update(s Snapshot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	interval := p.every
	if p.tty {
		interval = ttyInterval
	}
	if s.Phase == p.lastPhase && !p.last.IsZero() && now.Sub(p.last) < interval {
		return
	}
	p.last, p.lastPhase = now, s.Phase
	if p.tty {
		fmt.Fprint(p.w, "\r"+clip(progressText(s), liveWidth)+clearEOL)
		p.live = true
		return
	}
	fmt.Fprintln(p.w, "progress: "+progressText(s))
}

// Finish ends the live line with a newline so that what is printed next
// starts on a line of its own. It is safe to call more than once.
func (p *Progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live {
		fmt.Fprintln(p.w)
		p.live = false
	}
}

// progressText is one short line: it must fit 80 columns, because a wrapped
// line cannot be rewritten in place with "\r".
func progressText(s Snapshot) string {
	parts := make([]string, 0, 7)
	if s.Phase != "" {
		parts = append(parts, s.Phase)
	}
	parts = append(parts, ShortDuration(s.Elapsed))
	// One measure of what remains: a loop-bound run knows its fraction done,
	// a time-bound one its time left; both would crowd the line.
	if s.Total > 0 {
		parts = append(parts, fmt.Sprintf("%.1f%%", 100*min(s.Done/s.Total, 1)))
	} else if s.TimeLeft > 0 {
		parts = append(parts, ShortDuration(s.TimeLeft)+" left")
	}
	parts = append(parts,
		Compact(s.OpsPerSec)+" ops/s",
		Compact(s.PointsPerSec)+" points/s")
	if s.P99MS > 0 {
		ms := Compact(s.P99MS)
		if s.P99MS < 1000 {
			ms = fmt.Sprintf("%.3g", s.P99MS) // 0.0523, 12.3, 987
		}
		parts = append(parts, "p99 "+ms+"ms")
	}
	parts = append(parts, fmt.Sprintf("%d errors", s.Errors))
	return strings.Join(parts, "  ")
}

// liveWidth keeps the live line within an 80-column terminal even with
// extreme figures: a wrapped line leaves a trail of stale copies.
const liveWidth = 79

func clip(s string, width int) string {
	if len(s) > width {
		return s[:width]
	}
	return s
}

// IsTerminal reports whether f is a terminal that understands the live line.
// TERM=dumb (Emacs shells, some CI consoles) is a terminal without cursor
// control, so it gets plain lines.
func IsTerminal(f *os.File) bool {
	if f == nil || os.Getenv("TERM") == "dumb" {
		return false
	}
	return term.IsTerminal(int(f.Fd()))
}
