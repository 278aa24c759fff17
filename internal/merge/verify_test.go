package merge

import (
	"context"
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/summary"
)

// A target this tsbench does not know leaves the summed verification.
func TestCountOnceUnknownTarget(t *testing.T) {
	cfg := config.Default()
	cfg.Target = "no-such-target"
	m := &summary.Summary{Verify: &summary.Verify{Method: "summed"}, Merge: &summary.Merge{}}
	if err := CountOnce(context.Background(), cfg, nil, m); err == nil {
		t.Fatal("an unknown target was counted")
	}
	if m.Verify.Method != "summed" {
		t.Errorf("verification changed: %+v", m.Verify)
	}
}
