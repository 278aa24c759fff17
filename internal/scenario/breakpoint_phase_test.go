package scenario

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

// A lasting drop to a third is found, with the events sent before it; a
// steady series has none.
func TestBreakPointOf(t *testing.T) {
	run := func(rates ...int64) *summary.Summary {
		s := &summary.Summary{}
		for i, r := range rates {
			s.Intervals = append(s.Intervals, summary.Interval{Start: float64(i), Seconds: 1,
				Ops: []summary.IntervalOp{{Name: "INGESTION", OKPoints: r * 10}}})
		}
		return s
	}
	p := Phase{Operation: "INGESTION", PerUnit: 10, Published: Figure{Unit: "events/s"}}
	var rates []int64
	for i := 0; i < 20; i++ {
		rates = append(rates, 900)
	}
	for i := 0; i < 20; i++ {
		rates = append(rates, 300)
	}
	r := BreakPointOf(run(rates...), p)
	// FindBreakPoint places the drop within its window before second 20.
	if !r.Found || r.AtSecond > 20 || r.AtSecond < 15 || r.AfterUnits != r.AtSecond*900 || r.Before != 900 || r.After != 300 || r.Unit != "events/s" {
		t.Errorf("%+v", r)
	}
	var b bytes.Buffer
	r.Print(&b)
	if !strings.Contains(b.String(), "fell from 900 to 300 events/s at ") {
		t.Errorf("%q", b.String())
	}
	steady := BreakPointOf(run(rates[:20]...), p)
	b.Reset()
	steady.Print(&b)
	if steady.Found || !strings.Contains(b.String(), "Break point: none") {
		t.Errorf("steady: %+v %q", steady, b.String())
	}
}
