package csvout_test

import (
	"encoding/csv"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/output/csvout"
	"github.com/tsbench/tsbench/internal/output/outputtest"
)

// A run leaves a header and one row per operation per second; each
// operation's last running total equals the summary's.
func TestRun(t *testing.T) {
	s, data := outputtest.RunToFile(t, 2*time.Second, "csv", csvout.New)
	rows, err := csv.NewReader(strings.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 || len(rows[0]) != len(csvout.Header) || rows[0][8] != "operation" {
		t.Fatalf("header %v, %d rows", rows[0], len(rows))
	}
	last := map[string]int64{}
	for _, row := range rows[1:] {
		n, err := strconv.ParseInt(row[19], 10, 64) // ok_operations_total
		if err != nil {
			t.Fatal(err)
		}
		last[row[8]] = n
	}
	for _, o := range s.Operations {
		if last[o.Name] != o.OKOperations {
			t.Errorf("%s: %d operations in the file, %d in the summary", o.Name, last[o.Name], o.OKOperations)
		}
	}
}
