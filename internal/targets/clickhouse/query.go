package clickhouse

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
	"github.com/tsbench/tsbench/internal/ts"
)

// statement is what a statement on the bound schema starts from: the
// schema, read under the lock (Binding.SchemaUnder: no statement holds it
// while the server answers), and a builder of the dialect's SQL.
func (t *Target) statement() (*ts.Schema, *sqlfamily.Builder, error) {
	s, err := t.Binding.SchemaUnder(&t.Mu)
	if err != nil {
		return nil, nil, err
	}
	return s, sqlfamily.NewBuilder(&t.dialect), nil
}

// Query runs one of Q1..Q10 (see ts.Query for the semantics).
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	s, b, err := t.statement()
	if err != nil {
		return ts.Result{}, err
	}
	if err := t.dialect.Query(b, q, s.SeriesIDs(q.Devices, q.Sensors), len(s.Sensors)); err != nil {
		return ts.Result{}, err
	}
	data, err := t.exec(ctx, b.String()+" FORMAT TabSeparated", nil)
	if err != nil {
		return ts.Result{}, fmt.Errorf("%s: %w", q.Kind, err)
	}
	return t.dialect.Collect(newTSVRows(data), q)
}

// Count returns the distinct points: FINAL collapses rewritten rows.
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	s, b, err := t.statement()
	if err != nil {
		return 0, err
	}
	if len(r.Devices) > 0 {
		t.dialect.CountPoints(b, s.SeriesIDs(r.Devices, s.AllSensors()), false, r.Start, r.End)
	} else {
		t.dialect.CountPoints(b, nil, true, r.Start, r.End)
	}
	data, err := t.exec(ctx, b.String(), nil)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
}
