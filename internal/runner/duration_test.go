package runner

import (
	"testing"

	_ "github.com/tsbench/tsbench/internal/targets/null"
)

// --duration alone runs for the duration, however small LOOP's default is;
// with LOOP given too, whichever ends first; TEST_MAX_TIME only caps LOOP.
func TestDurationBound(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		stop       string
		minSeconds float64
	}{
		{"duration alone", []string{"duration=1s"}, "duration", 0.9},
		{"loop ends first", []string{"duration=30s", "LOOP=5"}, "loop", 0},
		{"duration ends first", []string{"duration=1s", "LOOP=100000000"}, "duration", 0.9},
		{"TEST_MAX_TIME caps LOOP", []string{"TEST_MAX_TIME=30000", "LOOP=5"}, "loop", 0},
	}
	for _, tt := range tests {
		args := append([]string{"DB_SWITCH=null", "DEVICE_NUMBER=2", "CLIENT_NUMBER=2", "VERIFY=false"}, tt.args...)
		s := run(t, args...)
		if s.StopReason != tt.stop || s.Elapsed < tt.minSeconds || s.Elapsed > 20 {
			t.Errorf("%s: stopped by %s after %.2f s, want %s after >= %.1f s", tt.name, s.StopReason, s.Elapsed, tt.stop, tt.minSeconds)
		}
	}
}
