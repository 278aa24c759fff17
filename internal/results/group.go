package results

import (
	"context"
	"fmt"
	"slices"

	"github.com/tsbench/tsbench/internal/summary"
)

// Group is what the store knows of a scaled-out run's group: its workers'
// runs, the worker indexes registered at the start barrier (which know
// workers that left no run), and the group's size as the workers were
// told it (0 when none registered).
type Group struct {
	Runs       []*summary.Summary
	Registered []int
	Workers    int
}

// LoadGroup reads the group's workers' runs (not earlier merges of it) and
// its barrier registrations; a group without any worker's run is an error.
func (st *Store) LoadGroup(ctx context.Context, group string) (Group, error) {
	var g Group
	infos, err := st.List(ctx, Filter{Group: group})
	if err != nil {
		return Group{}, err
	}
	for _, info := range infos {
		if info.WorkerIndex == nil {
			continue // an earlier merge of the group
		}
		s, err := st.Get(ctx, info.ID)
		if err != nil {
			return Group{}, err
		}
		g.Runs = append(g.Runs, s)
	}
	rows, err := st.WorkerRows(ctx, group, "")
	if err != nil {
		return Group{}, err
	}
	for _, r := range rows {
		if !slices.Contains(g.Registered, r.Index) {
			g.Registered = append(g.Registered, r.Index)
		}
		g.Workers = max(g.Workers, r.Workers)
	}
	if len(g.Runs) == 0 {
		return Group{}, fmt.Errorf("group %q: no worker's run in the results store %s (%d registered at the barrier)",
			group, st.Location(), len(g.Registered))
	}
	return g, nil
}
