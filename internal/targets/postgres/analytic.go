package postgres

import (
	"context"
	"fmt"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Analyze runs an analytics query (targets.Analyzer); tags are read from the
// devices table's JSONB column.
func (t *Target) Analyze(ctx context.Context, a *ts.Analytic) (ts.Result, error) {
	if err := t.c.lock(ctx); err != nil {
		return ts.Result{}, t.wrap("analytics query", err)
	}
	defer t.c.mu.Unlock()
	if _, err := t.binding.Schema(); err != nil {
		return ts.Result{}, err
	}
	sql, args, err := analyticSQL(a)
	if err != nil {
		return ts.Result{}, err
	}
	rows, err := t.c.pg.Query(ctx, sql, args...)
	if err != nil {
		return ts.Result{}, t.wrap("analytics "+a.Name, err)
	}
	defer rows.Close()
	var res ts.Result
	for rows.Next() {
		var v float64
		if err := rows.Scan(&v); err != nil {
			return ts.Result{}, t.wrap("analytics "+a.Name, err)
		}
		res.Add(0, v)
	}
	if err := rows.Err(); err != nil {
		return ts.Result{}, t.wrap("analytics "+a.Name, err)
	}
	res.First, res.Last = 0, 0
	return res, nil
}

// analyticSQL returns one value per result row: the sum of the row's values
// (for per-tag avg/min/max, their sum), as ts.Analytic defines.
func analyticSQL(a *ts.Analytic) (string, []any, error) {
	const from = `FROM points p JOIN series s ON s.id = p.series JOIN devices d ON d.name = s.device
		WHERE s.sensor = (SELECT sensor FROM series WHERE id = $1)`
	switch a.Kind {
	case ts.TagAggregates:
		return "SELECT avg(p.v) + min(p.v) + max(p.v) " + from + " GROUP BY d.tags->>$2", []any{a.Sensor, a.Tag}, nil
	case ts.TagAverage:
		return "SELECT avg(p.v) " + from + " GROUP BY d.tags->>$2", []any{a.Sensor, a.Tag}, nil
	case ts.TagAverageDiff:
		return "WITH a AS (SELECT avg(p.v) AS x " + from + " GROUP BY d.tags->>$2) SELECT x - (SELECT avg(x) FROM a) FROM a",
			[]any{a.Sensor, a.Tag}, nil
	case ts.DeviceRange:
		return `SELECT max(p.v) - min(p.v) FROM points p JOIN series s ON s.id = p.series JOIN devices d ON d.name = s.device
			JOIN series fs ON fs.device = s.device AND fs.sensor = (SELECT sensor FROM series WHERE id = $2)
			JOIN points f ON f.series = fs.id AND f.t = p.t
			WHERE s.sensor = (SELECT sensor FROM series WHERE id = $1) AND d.tags->>$3 = $4 AND f.v = 1
			GROUP BY s.device`, []any{a.Sensor, a.Flag, a.Tag, a.Value}, nil
	case ts.CountRows:
		return "SELECT count(*)::double precision " + from, []any{a.Sensor}, nil
	}
	return "", nil, fmt.Errorf("postgres: analytics kind %s: %w", a.Kind, targets.ErrUnsupported)
}
