package mysql

import (
	"context"
	"fmt"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Analyze runs an analytics query (targets.Analyzer); tags are read from the
// devices table's JSON text with JSON_VALUE.
func (t *Target) Analyze(ctx context.Context, a *ts.Analytic) (ts.Result, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, err := t.binding.Schema(); err != nil {
		return ts.Result{}, err
	}
	q, args, err := analyticSQL(a)
	if err != nil {
		return ts.Result{}, err
	}
	rows, err := t.db.QueryContext(ctx, q, args...)
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

func analyticSQL(a *ts.Analytic) (string, []any, error) {
	const from = `FROM points p JOIN series s ON s.id = p.series JOIN devices d ON d.name = s.device
		WHERE s.sensor = (SELECT sensor FROM series WHERE id = ?)`
	tag := "JSON_VALUE(d.tags, CONCAT('$.', ?))"
	switch a.Kind {
	case ts.TagAggregates:
		return "SELECT AVG(p.v) + MIN(p.v) + MAX(p.v) " + from + " GROUP BY " + tag, []any{a.Sensor, a.Tag}, nil
	case ts.TagAverage:
		return "SELECT AVG(p.v) " + from + " GROUP BY " + tag, []any{a.Sensor, a.Tag}, nil
	case ts.TagAverageDiff:
		return "WITH a AS (SELECT AVG(p.v) AS x " + from + " GROUP BY " + tag + ") SELECT x - (SELECT AVG(x) FROM a) FROM a",
			[]any{a.Sensor, a.Tag}, nil
	case ts.DeviceRange:
		return `SELECT MAX(p.v) - MIN(p.v) FROM points p JOIN series s ON s.id = p.series JOIN devices d ON d.name = s.device
			JOIN series fs ON fs.device = s.device AND fs.sensor = (SELECT sensor FROM series WHERE id = ?)
			JOIN points f ON f.series = fs.id AND f.t = p.t
			WHERE s.sensor = (SELECT sensor FROM series WHERE id = ?) AND ` + tag + ` = ? AND f.v = 1
			GROUP BY s.device`, []any{a.Flag, a.Sensor, a.Tag, a.Value}, nil
	case ts.CountRows:
		return "SELECT COUNT(*) " + from, []any{a.Sensor}, nil
	}
	return "", nil, fmt.Errorf("mysql: analytics kind %s: %w", a.Kind, targets.ErrUnsupported)
}
