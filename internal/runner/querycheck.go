package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/target"
	"github.com/tsbench/tsbench/internal/target/clientside"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/workload"
)

// defaultChecks are the kinds checked after a write-only replay: a range,
// an aggregate and the latest points cover every stored value's path.
var defaultChecks = []ts.QueryKind{ts.TimeRange, ts.AggRange, ts.LatestPoint}

// checkQueries asks the target, after a replay whose every write was
// stored, one query of each kind the mix runs (defaultChecks for a
// write-only mix) with the parameters client 0 draws, and compares each
// answer with the one computed from the rows the run wrote (the file's
// last value for a repeated time). nil when there is nothing to check.
func (r *Runner) checkQueries(ctx context.Context, admin target.Target, clients []*client, s *summary.Summary) []summary.QueryCheck {
	src, ok := r.src.(dataSource)
	if !ok || s.Verify == nil || !s.Verify.OK || s.Interrupted || s.Failed() {
		return nil
	}
	rows := map[int]int64{} // rows written, by device index
	for _, c := range clients {
		for i := range c.devices {
			rows[c.devices[i].Index] = c.stored[i] * int64(r.cfg.BatchSize)
		}
	}
	var kinds []ts.QueryKind
	for _, k := range ts.QueryKinds {
		if r.cfg.QueryWeight(k) > 0 {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		kinds = defaultChecks
	}
	queries := workload.NewQueries(r.cfg, r.schema, 0)
	var out []summary.QueryCheck
	for _, k := range kinds {
		var q ts.Query
		queries.Next(k, &q)
		q.Devices, q.Sensors = slices.Clone(q.Devices), slices.Clone(q.Sensors)
		out = append(out, r.checkQuery(ctx, admin, src, &q, rows))
	}
	return out
}

func (r *Runner) checkQuery(ctx context.Context, admin target.Target, src dataSource, q *ts.Query, rows map[int]int64) summary.QueryCheck {
	qc := summary.QueryCheck{Query: q.Kind.String()}
	var all []clientside.Series
	for _, d := range q.Devices {
		n := rows[d.Index]
		if !src.repeat {
			n = min(n, src.ds.Devices[d.Index-src.ds.Devices[0].Index].Rows)
		}
		for _, sn := range q.Sensors {
			sr, err := src.ds.Series(d, sn, n)
			if err != nil {
				qc.Error = fmt.Sprintf("read the data: %v", err)
				return qc
			}
			all = append(all, clientside.InWindow(q, sr))
		}
	}
	want := clientside.Answer(q, all)
	got, err := admin.Query(ctx, q)
	switch {
	case errors.Is(err, target.ErrUnsupported):
		qc.OK, qc.Detail = true, "not supported by the target"
	case err != nil:
		qc.Error = err.Error()
	default:
		qc.Points = got.Points
		qc.Detail = clientside.Diff(q, got, want)
		qc.OK = qc.Detail == ""
	}
	return qc
}
