package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/summary"
)

// storeFlags are the flags of the commands that read the results store.
type storeFlags struct {
	results string
	dataDir string
}

func (sf *storeFlags) register(cmd *cobra.Command) {
	cmd.PersistentFlags().StringVar(&sf.results, "results", "",
		"results store: an SQLite file or postgres://USER@HOST:PORT/DB or mysql://USER@HOST:PORT/DB (default $"+results.Env+", else <data-dir>/results.db)")
	cmd.PersistentFlags().StringVar(&sf.dataDir, "data-dir", "", "data directory whose results.db is the default store")
}

// location is the store the flags name; it is a usage error when storing
// is turned off (command says which command needs the store) or the spec
// is malformed.
func (sf *storeFlags) location(command string) (results.Location, error) {
	loc, off, err := results.Resolve(sf.results, sf.dataDir)
	if off {
		return results.Location{}, exit.Usagef("--results %s: %s needs a results store", sf.results, command)
	}
	if err != nil {
		return results.Location{}, exit.Usagef("--results: %v", err)
	}
	return loc, nil
}

// open opens an existing store: a default SQLite file that is not there
// yet means no run was ever stored, which is said plainly.
func (sf *storeFlags) open(ctx context.Context) (*results.Store, error) {
	loc, err := sf.location("this command")
	if err != nil {
		return nil, err
	}
	if loc.Dialect == "sqlite" {
		if _, err := os.Stat(loc.Path); errors.Is(err, os.ErrNotExist) {
			return nil, exit.With(exit.Failure, fmt.Errorf("no results store at %s: run 'tsbench run' first, or name one with --results", loc))
		}
	}
	return sf.openOrCreate(ctx, loc)
}

// openOrCreate opens the store at loc, making its tables when missing.
func (sf *storeFlags) openOrCreate(ctx context.Context, loc results.Location) (*results.Store, error) {
	ctx, cancel := context.WithTimeout(ctx, results.OpenTimeout)
	defer cancel()
	st, err := results.Open(ctx, loc)
	if err != nil {
		return nil, exit.With(exit.Failure, err)
	}
	return st, nil
}

// loadRuns reads runs named by id or by the path of a summary JSON file
// (see results.Load).
func (sf *storeFlags) loadRuns(ctx context.Context, refs []string) ([]*summary.Summary, error) {
	runs, err := results.Load(ctx, refs, sf.open)
	var fe *results.SummaryFileError
	var ee *exit.Error
	switch {
	case err == nil:
		return runs, nil
	case errors.As(err, &ee):
		return nil, err
	case errors.As(err, &fe):
		return nil, exit.With(exit.Usage, err)
	}
	return nil, storeError(err)
}

// storeError is the exit status of the store's answer: a run or session
// it does not hold was named (2), or the store failed (1).
func storeError(err error) error {
	if errors.Is(err, results.ErrNotFound) {
		return exit.With(exit.Usage, err)
	}
	return exit.With(exit.Failure, err)
}

// newRemoveCmd is an rm subcommand: it removes what each argument names
// with remove, which returns the id removed. A ref the store does not hold
// is a usage error, and what was removed before it stays removed.
func newRemoveCmd(sf *storeFlags, stdout io.Writer, use, short, what string,
	remove func(context.Context, *results.Store, string) (string, error)) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, refs []string) error {
			return sf.withStore(func(ctx context.Context, st *results.Store) error {
				for _, ref := range refs {
					id, err := remove(ctx, st, ref)
					if err != nil {
						return storeError(err)
					}
					fmt.Fprintf(stdout, "Removed %s %s\n", what, id)
				}
				return nil
			})
		},
	}
}

// withStore opens the existing store, calls use and closes it.
func (sf *storeFlags) withStore(use func(context.Context, *results.Store) error) error {
	ctx := context.Background()
	st, err := sf.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	return use(ctx, st)
}

// listStored prints what list reads from the store: as JSON with asJSON,
// else as table prints it.
func listStored[T any](sf *storeFlags, stdout io.Writer, asJSON bool, list func(context.Context, *results.Store) ([]T, error),
	table func(io.Writer, []T, results.Location) error) error {
	return sf.withStore(func(ctx context.Context, st *results.Store) error {
		items, err := list(ctx, st)
		if err != nil {
			return exit.With(exit.Failure, err)
		}
		if asJSON {
			return results.PrintJSON(stdout, items)
		}
		return table(stdout, items, st.Location())
	})
}
