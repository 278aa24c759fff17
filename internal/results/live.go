package results

// Live: a run kept in the results store while it runs, so that a run
// killed half-way is still known by the seconds it measured.

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// Deadlines of the store's work at the edges of a run. The journal bounds
// each of its own writes.
const (
	OpenTimeout   = 10 * time.Second
	finishTimeout = time.Minute
)

// Live keeps one run in the results store while it runs: the run is
// begun when measuring starts, each second and resource sample is
// journalled as it closes, and the finished summary replaces it all. A
// store that is down or locked costs the run nothing: the journal drops
// what it cannot write, and Finish reports where the run is kept instead.
// A nil *Store (storing is off) does nothing.
type Live struct {
	flag    string // --results as given ("" for the default), for the commands suggested
	loc     Location
	st      *Store // nil when storing is off or the store failed to open
	journal *Journal
	stderr  io.Writer
}

// OpenLive opens the store --results (flag) names, before the run starts, so
// that a store that cannot be reached is reported at once rather than
// after a long run. It returns nil when storing is off.
func OpenLive(flag, dataDir string, stderr io.Writer) *Live {
	loc, off, err := Resolve(flag, dataDir)
	if off {
		return nil
	}
	ls := &Live{flag: flag, stderr: stderr}
	if err != nil { // checked before the run; kept for callers that did not
		fmt.Fprintf(stderr, "tsbench: results store: %v\n", err)
		return ls
	}
	ls.loc = loc
	ctx, cancel := context.WithTimeout(context.Background(), OpenTimeout)
	defer cancel()
	if ls.st, err = Open(ctx, loc); err != nil {
		fmt.Fprintf(stderr, "tsbench: warning: %v; the run goes on, and is kept in its run directory\n", err)
	}
	return ls
}

// Begin starts journalling the run described by partial (id, target,
// configuration, environment: what is known before it measures).
func (ls *Live) Begin(partial *summary.Summary) {
	if ls == nil || ls.st == nil {
		return
	}
	ls.journal = NewJournal(ls.st, partial)
}

// Interval and Resources hand one closed second or one resource sample to
// the journal; they never block.
func (ls *Live) Interval(seq int, iv summary.Interval) {
	if ls != nil && ls.journal != nil {
		ls.journal.Interval(seq, iv)
	}
}

func (ls *Live) Resources(seq int, smp summary.ResourceSample) {
	if ls != nil && ls.journal != nil {
		ls.journal.Resources(seq, smp)
	}
}

// Abandon removes a run that ended before it measured anything (it could
// not connect, say): the store keeps runs, not attempts.
func (ls *Live) Abandon(runID string) {
	if ls == nil || ls.st == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), OpenTimeout)
	defer cancel()
	if ls.journal != nil {
		_ = ls.journal.Close(ctx)
	}
	_, _ = ls.st.Delete(ctx, runID)
	ls.st.Close()
}

// Finish stores the finished run whole, replacing what the journal wrote,
// and returns the line that says where it went ("" when it went nowhere).
// When the store failed at the start it is tried once more: a lock may have
// been released meanwhile.
func (ls *Live) Finish(s *summary.Summary) string {
	if ls == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), finishTimeout)
	defer cancel()
	var journalErr error
	if ls.journal != nil {
		journalErr = ls.journal.Close(ctx)
	}
	err := ls.save(ctx, s)
	if err != nil {
		ls.failed(s, err)
		return ""
	}
	if journalErr != nil {
		fmt.Fprintf(ls.stderr, "tsbench: note: the results store missed part of the run while it ran (%v); the whole run is stored now\n", journalErr)
	}
	return fmt.Sprintf("Stored: run %s in %s (tsbench runs show %s%s)", s.RunID, ls.loc, s.RunID, FlagText(ls.flag, ls.loc))
}

// save writes s with the open store, or opens it for the purpose.
func (ls *Live) save(ctx context.Context, s *summary.Summary) error {
	if ls.loc.Dialect == "" {
		return fmt.Errorf("no usable results store (--results %q)", Redact(ls.flag))
	}
	if ls.st == nil {
		st, err := Open(ctx, ls.loc)
		if err != nil {
			return err
		}
		ls.st = st
	}
	defer func() { ls.st.Close(); ls.st = nil }()
	return ls.st.Save(ctx, s)
}

// failed says that the store lost the run, where it is kept instead, and
// how to store it later.
func (ls *Live) failed(s *summary.Summary, err error) {
	path := filepath.Join(s.ResultsDir, "summary.json")
	fmt.Fprintf(ls.stderr, "tsbench: could not store the run in the results store %s: %v\n", ls.loc, err)
	fmt.Fprintf(ls.stderr, "tsbench: the run is kept in %s; store it later with: tsbench runs import %s%s\n",
		path, path, FlagText(ls.flag, ls.loc))
}

// SaveAgain replaces a stored run with an amended summary (a scenario adds
// its published-vs-measured table once every phase ran). Quietly does
// nothing when storing is off; a failure is reported.
func SaveAgain(flag, dataDir string, s *summary.Summary, stderr io.Writer) {
	ls := &Live{flag: flag, stderr: stderr}
	loc, off, err := Resolve(flag, dataDir)
	if off || err != nil {
		return
	}
	ls.loc = loc
	ctx, cancel := context.WithTimeout(context.Background(), finishTimeout)
	defer cancel()
	if err := ls.save(ctx, s); err != nil {
		ls.failed(s, err)
	}
}

// Results is the open results store the run is kept in, for the workers'
// start barrier, and where it is; the store is nil when it could not be
// opened.
func (ls *Live) Results() (*Store, Location) { return ls.st, ls.loc }
