package postgres

import (
	"context"
	"fmt"
	"slices"

	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
	"github.com/tsbench/tsbench/internal/ts"
)

// FleetQuery answers one of TSBS's iot questions (targets.FleetQuerier)
// with sqlfamily's SQL: tags read from the devices table's JSONB column,
// the session questions with lag and lead. The narrow layout reads the
// points table; the wide one its group tables (wideSource), whose rows
// are TSBS's own shape: one per truck and time.
func (t *Target) FleetQuery(ctx context.Context, q *ts.Query) ([]ts.FleetRow, error) {
	if err := targets.CheckFleet(q); err != nil {
		return nil, t.wrap("fleet", err)
	}
	what := "fleet " + q.Fleet.Kind.String()
	if err := t.c.lock(ctx); err != nil {
		return nil, t.wrap(what, err)
	}
	defer t.c.mu.Unlock()
	s, err := t.binding.Schema()
	if err != nil {
		return nil, err
	}
	d := t.dialect()
	b := sqlfamily.NewBuilder(d)
	var src sqlfamily.FleetSource = sqlfamily.Narrow{D: d}
	if t.wide {
		ws, err := newWideSource(s, t.names, q.Fleet.Kind)
		if err != nil {
			return nil, t.wrap(what, err)
		}
		src = ws
	}
	if err := d.FleetFrom(b, q, src); err != nil {
		return nil, t.wrap(what, err)
	}
	rows, err := t.c.pg.Query(ctx, b.String(), b.Args...)
	if err != nil {
		return nil, t.wrap(what, err)
	}
	defer rows.Close()
	res, err := sqlfamily.CollectFleet(rows, q.Fleet.Kind)
	if err != nil {
		return nil, t.wrap(what, err)
	}
	return res, nil
}

// wideSource is the sqlfamily.FleetSource of layout=wide: a field is its
// sensor's column of every group's table, an empty cell NULL, the tables
// read in UNION ALL.
type wideSource struct {
	tables, groups []string // each group table and its group's name
	names          *wideNames
}

// newWideSource finds the tables of s's devices; every field kind k reads
// must be a sensor of s (a column of the tables).
func newWideSource(s *ts.Schema, names *wideNames, k ts.FleetKind) (*wideSource, error) {
	for _, f := range fleet.Fields(k) {
		if !slices.ContainsFunc(s.Sensors, func(sn ts.Sensor) bool { return sn.Name == f }) {
			return nil, fmt.Errorf("layout=wide: no sensor %q (a column of the group tables)", f)
		}
	}
	var gs []int
	for _, d := range s.Devices {
		if !slices.Contains(gs, d.Group) {
			gs = append(gs, d.Group)
		}
	}
	slices.Sort(gs)
	w := &wideSource{names: names}
	for _, g := range gs {
		name := ""
		if g >= 0 && g < len(s.Groups) {
			name = s.Groups[g]
		}
		w.tables, w.groups = append(w.tables, quoteIdent(names.table(g))), append(w.groups, name)
	}
	return w, nil
}

// each writes one SELECT per table, in UNION ALL.
func (w *wideSource) each(b *sqlfamily.Builder, sel func(i int, tbl string)) {
	for i, tbl := range w.tables {
		if i > 0 {
			b.S(" UNION ALL ")
		}
		sel(i, tbl)
	}
}

// Points selects the column's non-NULL cells in the window.
func (w *wideSource) Points(b *sqlfamily.Builder, field string, start, end int64) {
	c := w.names.column(field)
	w.each(b, func(_ int, tbl string) {
		b.S("SELECT device AS truck, t, ").S(c).S(" AS v FROM ").S(tbl).S(" WHERE ").S(c).
			S(" IS NOT NULL AND t >= ").P(start).S(" AND t < ").P(end)
	})
}

// Newest walks each device's (device, t) key backwards to its newest
// non-NULL cell of the column, for the devices of the table's group.
func (w *wideSource) Newest(b *sqlfamily.Builder, field string) {
	c := w.names.column(field)
	w.each(b, func(i int, tbl string) {
		b.S("SELECT g.name AS truck, (SELECT x.").S(c).S(" FROM ").S(tbl).S(" x WHERE x.device = g.name AND x.").S(c).
			S(" IS NOT NULL ORDER BY x.t DESC LIMIT 1) AS v FROM devices g WHERE g.grp = ").P(w.groups[i])
	})
}

// Both selects the rows with both columns set: a row is one time of one
// truck.
func (w *wideSource) Both(b *sqlfamily.Builder, field1, field2 string, start, end int64) {
	c1, c2 := w.names.column(field1), w.names.column(field2)
	w.each(b, func(_ int, tbl string) {
		b.S("SELECT device AS truck, ").S(c1).S(" AS v1, ").S(c2).S(" AS v2 FROM ").S(tbl).S(" WHERE ").S(c1).
			S(" IS NOT NULL AND ").S(c2).S(" IS NOT NULL AND t >= ").P(start).S(" AND t < ").P(end)
	})
}
