package results

// Loading the runs a command names: by id in the results
// store (anything Store.Get takes: an id, a unique prefix, latest,
// latest~1) or by the path of a summary JSON file (summary.json, --json).

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/summary"
)

// SummaryFileError is a summary file that could not be read or is not a tsbench
// summary: bad input rather than a failure.
type SummaryFileError struct{ Err error }

func (e *SummaryFileError) Error() string { return e.Err.Error() }
func (e *SummaryFileError) Unwrap() error { return e.Err }

// Load reads each of refs, in order. The store is opened with open only
// when a ref names a stored run, and closed before Load returns; open's
// errors and the store's (ErrNotFound among them) come back as
// they are.
func Load(ctx context.Context, refs []string, open func(context.Context) (*Store, error)) ([]*summary.Summary, error) {
	var out []*summary.Summary
	var st *Store
	defer func() {
		if st != nil {
			st.Close()
		}
	}()
	for _, ref := range refs {
		if IsSummaryFile(ref) {
			s, err := ReadSummaryFile(ref)
			if err != nil {
				return nil, &SummaryFileError{err}
			}
			out = append(out, s)
			continue
		}
		if st == nil {
			var err error
			if st, err = open(ctx); err != nil {
				return nil, err
			}
		}
		s, err := st.Get(ctx, ref)
		if err != nil {
			return nil, err
		}
		if len(s.Operations) == 0 {
			// A run that never finished (still running, or killed) is
			// known by the seconds it stored as it went.
			s.Operations = metrics.FromIntervals(s.Intervals)
		}
		out = append(out, s)
	}
	return out, nil
}

// IsSummaryFile reports whether ref names a summary file rather than a stored
// run: a path (or a name ending in .json) of a file that exists.
func IsSummaryFile(ref string) bool {
	if !strings.HasSuffix(strings.ToLower(ref), ".json") && !strings.ContainsRune(ref, os.PathSeparator) {
		return false
	}
	st, err := os.Stat(ref)
	return err == nil && !st.IsDir()
}

// AnyStored reports whether any of refs names a stored run.
func AnyStored(refs []string) bool {
	for _, ref := range refs {
		if !IsSummaryFile(ref) {
			return true
		}
	}
	return false
}

// ReadSummaryFile reads a summary JSON file, refusing JSON that is not a tsbench
// summary (no run_id or schema_version).
func ReadSummaryFile(path string) (*summary.Summary, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s summary.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: not a tsbench summary: %w", path, err)
	}
	if s.RunID == "" || s.SchemaVersion == 0 {
		return nil, fmt.Errorf("%s: not a tsbench summary (no run_id or schema_version)", path)
	}
	return &s, nil
}
