package questdb

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// A BOOLEAN sensor keeps its one-byte BOOLEAN column while every cell has a
// value, and becomes a nullable INT column when the first empty cell
// arrives: the empty cell is then no point (Count, LATEST_POINT), and the
// values written before read the same (1 and 0).
func TestSparseBoolean(t *testing.T) {
	targettest.RequireServer(t, "questdb", "127.0.0.1:8812")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn, err := Driver.Open(ctx, targets.Options{Database: "tsbench_sparsebool"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	q := conn.(*Target)
	s := &ts.Schema{Groups: []string{"g"}, Devices: []ts.Device{{Name: "d_0"}},
		Sensors: []ts.Sensor{{Name: "b", Type: ts.Boolean}, {Name: "x", Type: ts.Double}}}
	if err := conn.Setup(ctx, s, true); err != nil {
		t.Fatal(err)
	}
	colType := func() string {
		t.Helper()
		q.mu.Lock()
		defer q.mu.Unlock()
		if _, err := q.settled(ctx); err != nil { // table_columns() shows what was applied
			t.Fatal(err)
		}
		typ, err := q.columnType(ctx, "tsbench_sparsebool_g", "b")
		if err != nil {
			t.Fatal(err)
		}
		return typ
	}
	batch := func(t0 int64) *ts.Batch {
		return &ts.Batch{Device: &s.Devices[0], Times: []int64{t0, t0 + 1000}, Columns: []ts.Column{
			{Type: ts.Boolean, Bools: []bool{true, false}}, {Type: ts.Double, Doubles: []float64{1, 2}}}}
	}
	if err := conn.Write(ctx, batch(1_000_000)); err != nil {
		t.Fatal(err)
	}
	if typ := colType(); typ != "BOOLEAN" {
		t.Fatalf("after a dense batch the column is %s, want BOOLEAN", typ)
	}
	sparse := batch(2_000_000)
	sparse.Columns[0].Bools[1] = false
	sparse.MarkNull(0, 1) // the last row has x only
	if err := conn.Write(ctx, sparse); err != nil {
		t.Fatal(err)
	}
	if typ := colType(); typ != "INT" {
		t.Fatalf("after an empty BOOLEAN cell the column is %s, want INT", typ)
	}
	n, err := conn.Count(ctx, ts.CountRange{})
	if err != nil {
		t.Fatal(err)
	}
	if n != 7 {
		t.Fatalf("Count = %d, want 7 (8 cells, 1 empty)", n)
	}
	for _, tc := range []struct {
		sensor int
		want   float64
	}{{0, 1}, {1, 2}} { // b's last value is the sparse batch's first row
		r, err := conn.Query(ctx, &ts.Query{Kind: ts.LatestPoint, Devices: []*ts.Device{&s.Devices[0]}, Sensors: []int{tc.sensor}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Points != 1 || r.Sum != tc.want {
			t.Fatalf("LATEST_POINT of %s: %d points summing %v, want 1 point %v", s.Sensors[tc.sensor].Name, r.Points, r.Sum, tc.want)
		}
	}
	r, err := conn.Query(ctx, &ts.Query{Kind: ts.TimeRange, Devices: []*ts.Device{&s.Devices[0]}, Sensors: []int{0},
		Start: 0, End: 3_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if r.Points != 3 || r.Sum != 2 { // true, false, true
		t.Fatalf("TIME_RANGE of b: %d points summing %v, want 3 summing 2", r.Points, r.Sum)
	}
}

// columnType is the type QuestDB reports (once applied) for a column of a table.
func (t *Target) columnType(ctx context.Context, tbl, name string) (string, error) {
	rows, err := t.conn.Query(ctx, "SELECT \"column\", type FROM table_columns('"+strings.ReplaceAll(tbl, "'", "''")+"')")
	if err != nil {
		return "", err
	}
	defer rows.Close()
	typ := ""
	for rows.Next() {
		var c, ty string
		if err := rows.Scan(&c, &ty); err != nil {
			return "", err
		}
		if strings.EqualFold(c, name) {
			typ = ty
		}
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	if typ == "" {
		return "", fmt.Errorf("no column %q in table %s", name, tbl)
	}
	return typ, nil
}
