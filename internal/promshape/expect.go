package promshape

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

// MaxPoints bounds a range query's evaluation times, as Prometheus does
// (11,000 points a series).
const MaxPoints = 11_000

// Expect is the exact answer of the query at t, which must be a scrape
// time, on engine (promql.EnginePrometheus or promql.EngineMetricsQL):
// what it must return, computed from the model alone. A query whose
// answer does not depend on the engine (Query.PerEngine false) has the
// same answer on any, "" included.
func (m *Model) Expect(q Query, t int64, engine string) (Vector, error) {
	if _, ok := m.Index(t); !ok {
		return nil, fmt.Errorf("promshape: %s: eval time %d must be a scrape time: %d plus a multiple of %d ms",
			q.Name, t, m.cfg.Start, m.interval)
	}
	if err := q.checkEngine(engine); err != nil {
		return nil, err
	}
	return Sorted(q.eval(modelSource{m, engine}, t)), nil
}

// ExpectRange is the exact answer of the query as a range query from
// start to end by the query's step (Interval for a query without one):
// Expect at each time on engine, a series per label set with a point
// where present.
func (m *Model) ExpectRange(q Query, start, end int64, engine string) (Matrix, error) {
	if err := q.checkEngine(engine); err != nil {
		return nil, err
	}
	step := q.Step
	if step == 0 {
		step = m.cfg.Interval
	}
	if step%m.cfg.Interval != 0 {
		return nil, fmt.Errorf("promshape: %s: step %v must be a multiple of the interval %v", q.Name, step, m.cfg.Interval)
	}
	ms := step.Milliseconds()
	if end < start || (end-start)/ms >= MaxPoints {
		return nil, fmt.Errorf("promshape: %s: range [%d, %d] by %v must be ordered and at most %d points",
			q.Name, start, end, step, MaxPoints)
	}
	var out Matrix
	var keys []string // out's, in its order
	at := map[string]int{}
	var key []byte
	for t := start; t <= end; t += ms {
		if _, ok := m.Index(t); !ok {
			return nil, fmt.Errorf("promshape: %s: eval time %d must be a scrape time: %d plus a multiple of %d ms",
				q.Name, t, m.cfg.Start, m.interval)
		}
		// Each step's answer unsorted: the series are sorted once, at the end.
		for _, s := range q.eval(modelSource{m, engine}, t) {
			key = appendKey(key[:0], s.Labels, true)
			i, ok := at[string(key)]
			if !ok {
				i = len(out)
				k := string(key)
				at[k] = i
				out, keys = append(out, Series{Labels: s.Labels}), append(keys, k)
			}
			out[i].Points = append(out[i].Points, Point{T: t, V: s.Value, Tol: s.Tol})
		}
	}
	return sortedMatrix(out, keys), nil
}

// modelSource reads selectors from the model: at a scrape time every
// live target has a sample exactly at t, and a replaced one a staleness
// marker at its boundary, at or before t, so an instant selector returns
// exactly the live generations' series, whatever the engine's lookback.
// (Had the markers not been written, a replaced target's series would
// linger in instant selectors for up to the 5-minute lookback.)
type modelSource struct {
	m   *Model
	eng string
}

func (s modelSource) engine() string { return s.eng }

func (s modelSource) instant(sl selector, t int64) Vector {
	m := s.m
	k, ok := m.Index(t)
	if !ok {
		return nil // before the first scrape (an offset reaching back)
	}
	matching := m.matching(sl)
	out := make(Vector, 0, int(m.targets)*len(matching))
	var slab labelSlab
	for slot := 0; slot < int(m.targets); slot++ {
		g := m.Generation(slot, k)
		s.each(matching, &slab, slot, g, func(tp *template, ls []remotewrite.Label, tk uint64) {
			out = append(out, Sample{Labels: ls, Value: m.value(tp, tk, k-m.Birth(slot, g), k)})
		})
	}
	return out
}

func (s modelSource) window(sl selector, t, w int64) Matrix {
	m := s.m
	k, ok := m.Index(t)
	if !ok {
		return nil
	}
	// Scrapes in (t-w, t]: from k - ceil(w/interval) + 1.
	first := max(0, k-(w+m.interval-1)/m.interval+1)
	var out Matrix
	matching := m.matching(sl)
	var slab labelSlab
	for slot := 0; slot < int(m.targets); slot++ {
		for g := m.Generation(slot, first); g <= m.Generation(slot, k); g++ {
			birth := m.Birth(slot, g)
			from, to := max(first, birth), min(k, m.Birth(slot, g+1)-1)
			s.each(matching, &slab, slot, g, func(tp *template, ls []remotewrite.Label, tk uint64) {
				ser := Series{Labels: ls, Points: make([]Point, 0, max(0, to-from+1))}
				for j := from; j <= to; j++ {
					ser.Points = append(ser.Points, Point{T: m.Time(j), V: m.value(tp, tk, j-birth, j)})
				}
				out = append(out, ser)
			})
		}
	}
	return out
}

// each calls fn for each of the generation's series the selector
// matches (matching: the templates it matches, the selectors never
// matching on instance).
func (s modelSource) each(matching []*template, slab *labelSlab, slot int, g int64, fn func(*template, []remotewrite.Label, uint64)) {
	if len(matching) == 0 {
		return
	}
	open, tk := s.m.openValues(nil, &slab.text, slot, g), s.m.targetKey(slot, g)
	for _, tp := range matching {
		ls := slab.clone(tp.labels)
		tp.setOpen(ls, open)
		fn(tp, ls, tk)
	}
}

// matching is the templates the selector matches, once per selector
// rather than per target.
func (m *Model) matching(sl selector) []*template {
	var out []*template
	for i := range m.series {
		if sl.matches(m.series[i].labels) {
			out = append(out, &m.series[i])
		}
	}
	return out
}

// sortedMatrix sorts a matrix by its series' keys.
func sortedMatrix(m Matrix, keys []string) Matrix {
	order := make([]int, len(m))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
	out := make(Matrix, len(m))
	for i, j := range order {
		out[i] = m[j]
	}
	return out
}

// RangeStart is the first time at or after t where a range query by step
// can start so that every engine evaluates at the times ExpectRange
// does: a scrape time and a multiple of step (VictoriaMetrics rounds a
// range query's start down to one). With Start a multiple of Interval
// and step a multiple of Interval, every multiple of step from Start on
// is one; otherwise no time is.
func (m *Model) RangeStart(t int64, step time.Duration) (int64, error) {
	if step <= 0 || step%m.cfg.Interval != 0 {
		return 0, fmt.Errorf("promshape: step %v must be a positive multiple of the interval %v", step, m.cfg.Interval)
	}
	if m.cfg.Start%m.interval != 0 {
		return 0, fmt.Errorf("promshape: start %d is not a multiple of the interval %v: no scrape time is a multiple of the step %v",
			m.cfg.Start, m.cfg.Interval, step)
	}
	ms := step.Milliseconds()
	t = max(t, m.cfg.Start)
	return (t + ms - 1) / ms * ms, nil
}
