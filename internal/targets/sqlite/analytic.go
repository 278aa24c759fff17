package sqlite

import (
	"context"
	"fmt"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Analyze runs an analytics query (targets.Analyzer). Tags live in the
// devices table as a JSON object, so grouping by a tag is a json_extract of
// it; the points of one sensor are found through the series table.
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
		return ts.Result{}, fmt.Errorf("sqlite: analytics %s: %w", a.Name, err)
	}
	defer rows.Close()
	var res ts.Result
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return ts.Result{}, fmt.Errorf("sqlite: analytics %s: %w", a.Name, err)
		}
		var sum float64
		for _, v := range vals[1:] { // the first column is the group key
			sum += number(v)
		}
		res.Add(0, sum)
	}
	if err := rows.Err(); err != nil {
		return ts.Result{}, fmt.Errorf("sqlite: analytics %s: %w", a.Name, err)
	}
	res.First, res.Last = 0, 0
	return res, nil
}

// analyticSQL translates an analytics query. Every row of a device has every
// sensor, so counting the points of one sensor counts rows.
func analyticSQL(a *ts.Analytic) (string, []any, error) {
	const sensor = `FROM points p JOIN series s ON s.id = p.series JOIN devices d ON d.name = s.device
		WHERE s.sensor = (SELECT sensor FROM series WHERE id = ?)`
	tag := "json_extract(d.tags, '$.' || ?)"
	switch a.Kind {
	case ts.TagAggregates:
		return "SELECT " + tag + " g, avg(p.v), min(p.v), max(p.v) " + sensor + " GROUP BY g", []any{a.Tag, a.Sensor}, nil
	case ts.TagAverage:
		return "SELECT " + tag + " g, avg(p.v) " + sensor + " GROUP BY g", []any{a.Tag, a.Sensor}, nil
	case ts.TagAverageDiff:
		return "WITH a AS (SELECT " + tag + " g, avg(p.v) x " + sensor + " GROUP BY g) " +
			"SELECT g, x - (SELECT avg(x) FROM a) FROM a", []any{a.Tag, a.Sensor}, nil
	case ts.DeviceRange:
		return `SELECT s.device, max(p.v) - min(p.v)
			FROM points p JOIN series s ON s.id = p.series JOIN devices d ON d.name = s.device
			JOIN series fs ON fs.device = s.device AND fs.sensor = (SELECT sensor FROM series WHERE id = ?)
			JOIN points f ON f.series = fs.id AND f.t = p.t
			WHERE s.sensor = (SELECT sensor FROM series WHERE id = ?) AND json_extract(d.tags, '$.' || ?) = ? AND f.v = 1
			GROUP BY s.device`, []any{a.Flag, a.Sensor, a.Tag, a.Value}, nil
	case ts.CountRows:
		return "SELECT 'all', count(*) " + sensor, []any{a.Sensor}, nil
	}
	return "", nil, fmt.Errorf("sqlite: analytics kind %s: %w", a.Kind, targets.ErrUnsupported)
}
