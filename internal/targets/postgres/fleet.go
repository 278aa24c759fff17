package postgres

import (
	"context"
	"fmt"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
	"github.com/tsbench/tsbench/internal/ts"
)

// FleetQuery answers one of TSBS's iot questions (targets.FleetQuerier)
// with sqlfamily's SQL over the narrow layout: tags read from the devices
// table's JSONB column, the session questions with lag and lead. The wide
// layout keeps no series table to find a field's points by name, so its
// questions are unsupported.
func (t *Target) FleetQuery(ctx context.Context, q *ts.Query) ([]ts.FleetRow, error) {
	if q.Fleet == nil {
		return nil, t.wrap("fleet", fmt.Errorf("%s is not a fleet question", q.Kind))
	}
	if t.wide {
		return nil, t.wrap("fleet "+q.Fleet.Kind.String(),
			fmt.Errorf("%w: layout=wide has no fleet questions; use layout=narrow", targets.ErrUnsupported))
	}
	if err := t.c.lock(ctx); err != nil {
		return nil, t.wrap("fleet "+q.Fleet.Kind.String(), err)
	}
	defer t.c.mu.Unlock()
	if _, err := t.binding.Schema(); err != nil {
		return nil, err
	}
	d := t.dialect()
	b := sqlfamily.NewBuilder(d)
	if err := d.Fleet(b, q); err != nil {
		return nil, t.wrap("fleet "+q.Fleet.Kind.String(), err)
	}
	rows, err := t.c.pg.Query(ctx, b.String(), b.Args...)
	if err != nil {
		return nil, t.wrap("fleet "+q.Fleet.Kind.String(), err)
	}
	defer rows.Close()
	res, err := sqlfamily.CollectFleet(rows, q.Fleet.Kind)
	if err != nil {
		return nil, t.wrap("fleet "+q.Fleet.Kind.String(), err)
	}
	return res, nil
}
