package report

import (
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/engine"
)

// The progress line shows the time left when the duration ends the run and
// the share of LOOP when LOOP does; with both, the one projected first.
func TestFromTickBound(t *testing.T) {
	tests := []struct {
		name      string
		tick      engine.Tick
		wantTotal bool // shows % of LOOP
	}{
		{"duration alone", engine.Tick{Elapsed: time.Second, DoneOps: 10, Deadline: 5 * time.Second}, false},
		{"loop alone", engine.Tick{Elapsed: time.Second, DoneOps: 10, TotalOps: 100, LoopBound: true}, true},
		{"loop first", engine.Tick{Elapsed: time.Second, DoneOps: 50, TotalOps: 100, Deadline: 30 * time.Second, LoopBound: true}, true},
		{"duration first", engine.Tick{Elapsed: time.Second, DoneOps: 1, TotalOps: 100, Deadline: 2 * time.Second, LoopBound: true}, false},
	}
	for _, tt := range tests {
		tt.tick.P99MS = 1.5
		s := ProgressFromTick(tt.tick)
		if (s.Total > 0) != tt.wantTotal {
			t.Errorf("%s: Total %v, TimeLeft %v", tt.name, s.Total, s.TimeLeft)
		}
		if s.P99MS != 1.5 {
			t.Errorf("%s: p99 not passed on", tt.name)
		}
	}
}
