package jsonout_test

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/output"
	"github.com/tsbench/tsbench/internal/output/jsonout"
	"github.com/tsbench/tsbench/internal/output/outputtest"
)

// A run leaves one JSON line per second, whose last totals equal the
// summary's.
func TestRun(t *testing.T) {
	s, data := outputtest.RunToFile(t, 2*time.Second, "json", jsonout.New)
	var lines []output.Sample
	sc := bufio.NewScanner(strings.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var smp output.Sample
		if err := json.Unmarshal(sc.Bytes(), &smp); err != nil {
			t.Fatalf("line %d: %v", len(lines)+1, err)
		}
		lines = append(lines, smp)
	}
	if len(lines) != len(s.Intervals) {
		t.Fatalf("%d lines, %d seconds", len(lines), len(s.Intervals))
	}
	var ops int64
	for _, o := range lines[len(lines)-1].Ops {
		ops += o.OKOpsTotal
	}
	if want, _, _ := outputtest.Totals(s); ops != want || lines[0].RunID == "" || lines[1].Seq != 1 {
		t.Errorf("last line's operations %d, summary %d; first line %+v", ops, want, lines[0])
	}
}
