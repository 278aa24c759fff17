package sqlfamily

import (
	"fmt"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Analytic writes the analytics query a into b (which it resets first).
// Every row is one value: the sum of the row's aggregates (for per-tag
// avg/min/max, their sum), as ts.Analytic defines. Every row of a device has
// every sensor, so counting the points of one sensor counts rows.
func (d *Dialect) Analytic(b *Builder, a *ts.Analytic) error {
	b.Reset()
	if d.Tag == nil {
		return fmt.Errorf("%s: analytics: %w", d.Name, targets.ErrUnsupported)
	}
	from := func() {
		b.S(" FROM points p JOIN series s ON s.id = p.series JOIN devices d ON d.name = s.device" +
			" WHERE s.sensor = (SELECT sensor FROM series WHERE id = ").P(a.Sensor).S(")")
	}
	byTag := func() { b.S(" GROUP BY ").S(d.Tag(b, a.Tag)) }
	switch a.Kind {
	case ts.TagAggregates:
		b.S("SELECT avg(p.v) + min(p.v) + max(p.v)")
		from()
		byTag()
	case ts.TagAverage:
		b.S("SELECT avg(p.v)")
		from()
		byTag()
	case ts.TagAverageDiff:
		b.S("WITH a AS (SELECT avg(p.v) AS x")
		from()
		byTag()
		b.S(") SELECT x - (SELECT avg(x) FROM a) FROM a")
	case ts.DeviceRange:
		b.S("SELECT max(p.v) - min(p.v) FROM points p JOIN series s ON s.id = p.series JOIN devices d ON d.name = s.device" +
			" JOIN series fs ON fs.device = s.device AND fs.sensor = (SELECT sensor FROM series WHERE id = ").P(a.Flag).
			S(") JOIN points f ON f.series = fs.id AND f.t = p.t" +
				" WHERE s.sensor = (SELECT sensor FROM series WHERE id = ").P(a.Sensor).S(") AND ").
			S(d.Tag(b, a.Tag)).S(" = ").P(a.Value).S(" AND f.v = 1 GROUP BY s.device")
	case ts.CountRows:
		b.S("SELECT ").S(d.Count)
		from()
	default:
		return fmt.Errorf("%s: analytics kind %s: %w", d.Name, a.Kind, targets.ErrUnsupported)
	}
	return nil
}

// CollectAnalytic adds the one-value rows of an analytics statement to a
// Result, at time 0 (a NULL value counts as 0).
func CollectAnalytic(rows Rows) (ts.Result, error) {
	var (
		res ts.Result
		v   any
	)
	for rows.Next() {
		if err := rows.Scan(&v); err != nil {
			return ts.Result{}, err
		}
		res.Add(0, Number(v))
	}
	if err := rows.Err(); err != nil {
		return ts.Result{}, err
	}
	res.First, res.Last = 0, 0
	return res, nil
}
