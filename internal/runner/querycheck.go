package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/workload"
)

// defaultChecks are the kinds checked after a write-only run: a range, an
// aggregate and the latest points cover every stored value's path.
var defaultChecks = []ts.QueryKind{ts.TimeRange, ts.AggRange, ts.LatestPoint}

// expectation computes, from the rows a run wrote, what a query must
// answer: the generator for a generated run, the file for a replay.
type expectation interface {
	// series returns the points of one series that q's time condition
	// selects among the device's first rows rows.
	series(q *ts.Query, dev *ts.Device, sensor int, rows int64) (clientside.Series, error)
}

// checkQueries asks the target, after a run whose every acknowledged write
// was stored, QUERY_CHECKS queries of each kind the mix runs (defaultChecks for a
// write-only mix), with the parameters client 0 draws, and compares each
// answer with the one computed from the rows the run wrote. The checks are
// timed apart from the measured run. nil when there is nothing to check.
func (r *Runner) checkQueries(ctx context.Context, admin targets.Target, clients []*client, s *summary.Summary) []summary.QueryCheck {
	exp, ok := r.src.(expectation)
	if !ok || r.cfg.QueryChecks == 0 || s.Verify == nil || !s.Verify.OK || s.Interrupted {
		return nil
	}
	if g, ok := r.src.(genSource); ok && !g.g.InOrder() && s.StopReason != "loop" {
		// A window of out-of-order rows is a permutation sent over several
		// batches: stopped inside one, the rows it stored are not a prefix.
		s.Verify.QueriesSkipped = "an out-of-order run stopped before its loop ended; its stored rows are not a prefix of the data"
		return nil
	}
	// The expected answers read each device's first rows, as many as it
	// stored; a write given up leaves a hole among them (or, in doubt,
	// rows past them), so the devices with one are left out. Queries that
	// failed (a node down) leave the data whole.
	rows := map[int]int64{} // rows written, by device index
	holed := 0
	for _, c := range clients {
		for i := range c.devices {
			if c.holed[i] {
				holed++
				continue
			}
			rows[c.devices[i].Index] = r.PriorRows + c.stored[i]*int64(r.cfg.BatchSize)
		}
	}
	if holed > 0 {
		w := s.Op(summary.WriteOperation)
		if len(rows) == 0 {
			s.Verify.QueriesSkipped = fmt.Sprintf("%d writes failed for good, on every device: a device's stored rows may "+
				"not be its first ones, which the expected answers assume", w.FailOperations)
			return nil
		}
		s.Verify.QueriesOn = fmt.Sprintf("on the %d devices whose every write was stored; %d with a write failed for good left out",
			len(rows), holed)
	}
	start := time.Now()
	defer func() { s.Verify.QueriesSeconds = time.Since(start).Seconds() }()
	queries := workload.NewQueries(r.cfg, r.schema, 0)
	var out []summary.QueryCheck
	for _, k := range r.checkedKinds() {
		for range r.cfg.QueryChecks {
			var q ts.Query
			queries.Next(k, &q)
			own := ownDevices(q.Devices, rows)
			if q.Fleet != nil && len(own) < len(q.Devices) {
				// A fleet question reads every truck, and this worker
				// knows only its own trucks' rows: no expectation to
				// compare with (a single-process run checks them).
				s.Verify.QueriesSkipped = "fleet questions read every worker's trucks; a worker checks none"
				continue
			}
			q.Devices, q.Sensors = own, slices.Clone(q.Sensors)
			if len(q.Devices) == 0 {
				continue // another worker's devices: theirs to check
			}
			out = append(out, checkQuery(ctx, r.driver.Caps, admin, exp, &q, rows))
		}
	}
	return out
}

// checkedKinds are the query kinds of the mix, or defaultChecks.
func (r *Runner) checkedKinds() []ts.QueryKind {
	var kinds []ts.QueryKind
	for _, k := range ts.QueryKinds {
		if r.cfg.QueryWeight(k) > 0 {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return defaultChecks
	}
	return kinds
}

// ownDevices keeps the devices whose rows this process wrote.
func ownDevices(devs []*ts.Device, rows map[int]int64) []*ts.Device {
	var out []*ts.Device
	for _, d := range devs {
		if _, ok := rows[d.Index]; ok {
			out = append(out, d)
		}
	}
	return out
}

func checkQuery(ctx context.Context, caps targets.Capabilities, admin targets.Target, exp expectation, q *ts.Query, rows map[int]int64) summary.QueryCheck {
	if q.Fleet != nil {
		return checkFleetQuery(ctx, caps, admin, exp, q, rows)
	}
	qc := summary.QueryCheck{Query: q.Kind.String(), Window: describeWindow(q)}
	var all []clientside.Series
	for _, d := range q.Devices {
		for _, sn := range q.Sensors {
			sr, err := exp.series(q, d, sn, rows[d.Index])
			if err != nil {
				qc.Error = fmt.Sprintf("read the data: %v", err)
				return qc
			}
			all = append(all, sr)
		}
	}
	want := clientside.Answer(q, all)
	got, err := query(ctx, caps, admin, q)
	qc.Judge(err, errors.Is(err, targets.ErrUnsupported), got.Points, func() string { return clientside.Diff(q, got, want) })
	return qc
}

// describeWindow names a checked query's parameters, so that a
// disagreement can be re-run by hand.
func describeWindow(q *ts.Query) string {
	var devs []string
	for _, d := range q.Devices {
		devs = append(devs, d.Name)
	}
	return fmt.Sprintf("devices %v sensors %v time [%d, %d)", devs, q.Sensors, q.Start, q.End)
}

// series of a replay: the file's points of the series, the last value for a
// repeated time, within the query's window.
func (s dataSource) series(q *ts.Query, dev *ts.Device, sensor int, rows int64) (clientside.Series, error) {
	if !s.repeat {
		rows = min(rows, s.ds.Devices[dev.Index-s.ds.Devices[0].Index].Rows)
	}
	sr, err := s.ds.Series(dev, sensor, rows)
	if err != nil {
		return nil, err
	}
	return clientside.InWindow(q, sr), nil
}

// series of a generated run: the generator's rows within the window, computed
// from their indexes alone (row k is at START_TIME + k*POINT_STEP).
func (s genSource) series(q *ts.Query, dev *ts.Device, sensor int, rows int64) (clientside.Series, error) {
	lo, hi := s.rowWindow(q, rows)
	if q.Kind == ts.LatestPoint {
		// The latest point is the last row with a value (Options.Missing).
		for lo > 0 && s.g.Missing(dev.Index, sensor, lo) {
			lo, hi = lo-1, hi-1
		}
	}
	out := make(clientside.Series, 0, max(hi-lo, 0))
	for k := lo; k < hi; k++ {
		if s.g.Missing(dev.Index, sensor, k) {
			continue // never written
		}
		v, numeric := s.g.Number(dev.Index, sensor, k)
		out = append(out, clientside.Point{T: s.g.Time(k), V: v, Numeric: numeric})
	}
	return out, nil
}

// rowWindow is the rows [lo, hi) of the first rows that q's time condition
// selects.
func (s genSource) rowWindow(q *ts.Query, rows int64) (lo, hi int64) {
	switch {
	case q.Kind == ts.PrecisePoint:
		k, exact := s.g.RowAt(q.Start)
		if !exact || k < 0 || k >= rows {
			return 0, 0
		}
		return k, k + 1
	case q.Kind.HasTimeRange():
		return min(s.firstRowFrom(q.Start), rows), min(s.firstRowFrom(q.End), rows)
	case q.Kind == ts.LatestPoint:
		return max(rows-1, 0), rows
	}
	return 0, rows // the whole series: Q5's value filter
}

// firstRowFrom is the first row at time t or later.
func (s genSource) firstRowFrom(t int64) int64 {
	k, exact := s.g.RowAt(t)
	switch {
	case k < 0:
		return 0
	case exact:
		return k
	}
	return k + 1
}

// query sends q unless it asks what the target does not declare: a Q7
// across devices on a target without GroupByAcross would come back as one
// value per series, a wrong answer rather than an unsupported one.
func query(ctx context.Context, caps targets.Capabilities, conn targets.Target, q *ts.Query) (ts.Result, error) {
	if q.Fleet != nil {
		return fleetQuery(ctx, caps, conn, q)
	}
	if !caps.SupportsAcross(q) {
		return ts.Result{}, targets.ErrUnsupported
	}
	return conn.Query(ctx, q)
}

// fleetQuery asks one of TSBS's iot questions of a target that declares
// it answers them; its points are its rows.
func fleetQuery(ctx context.Context, caps targets.Capabilities, conn targets.Target, q *ts.Query) (ts.Result, error) {
	fq, ok := conn.(targets.FleetQuerier)
	if !ok || caps.Fleet == "" {
		return ts.Result{}, targets.ErrUnsupported
	}
	rows, err := fq.FleetQuery(ctx, q)
	return ts.Result{Points: int64(len(rows))}, err
}
