package sqlfamily

import (
	"bytes"
	"context"
	"database/sql"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// AppendTSV writes one row per point present: a sparse batch's empty cells
// have no row, a dense batch has rows x sensors.
func TestAppendTSV(t *testing.T) {
	tests := []struct {
		name  string
		nulls [][2]int // (column, row)
		want  string
	}{
		{"dense", nil, "10\t1000\t1.5\t\\N\n10\t2000\t2\t\\N\n11\t1000\t\\N\ta\n11\t2000\t\\N\tb\\tc\n"},
		{"sparse", [][2]int{{0, 1}, {1, 0}}, "10\t1000\t1.5\t\\N\n11\t2000\t\\N\tb\\tc\n"},
		{"empty", [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := &ts.Batch{Times: []int64{1000, 2000}, Columns: []ts.Column{
				{Type: ts.Double, Doubles: []float64{1.5, 2}},
				{Type: ts.Text, Texts: []string{"a", "b\tc"}},
			}}
			for _, n := range tc.nulls {
				b.MarkNull(n[0], n[1])
			}
			var buf bytes.Buffer
			AppendTSV(&buf, 10, b)
			if got := buf.String(); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// An Inserter told fewer points than it is given fails the batch instead of
// executing a statement it never prepared.
func TestInserterCountMismatch(t *testing.T) {
	d := &Dialect{Name: "sqlite", Insert: "INSERT INTO p (a) VALUES ", Row: []string{""}}
	w := &Inserter{D: d, PerStmt: 4}
	w.Args = append(w.Args, 1, 2) // two rows where Begin prepared none
	w.rem = map[int]*sql.Stmt{}
	err := w.Flush(context.Background())
	if err == nil || !strings.Contains(err.Error(), "2 rows left over") {
		t.Fatalf("error %v, want the rows left over", err)
	}
}
