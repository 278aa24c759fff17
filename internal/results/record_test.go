package results

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	_ "github.com/tsbench/tsbench/internal/targets/null"
)

func TestPartialCompleteSave(t *testing.T) {
	d, err := targets.Lookup("null")
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Thresholds = []string{"errors==0"}
	p := Partial(cfg, "r1", "phase", d, "v9")
	if p.RunID != "r1" || p.Target != "null" || p.Scenario != "phase" || p.StopReason != "running" || p.Tool.Version != "v9" || p.Worker != nil {
		t.Errorf("partial: %+v", p)
	}
	s := &summary.Summary{SchemaVersion: summary.SchemaVersion, Environment: summary.Environment{ServerVersion: "db 1.0"}}
	Complete(s, cfg, "r1", d, "/data/null", "v9")
	if s.RunID != "r1" || s.DataPath != "/data/null" || s.Environment.ServerVersion != "db 1.0" || s.Tool.Version != "v9" {
		t.Errorf("complete: %+v", s)
	}
	Evaluate(s, cfg)
	if len(s.Thresholds) != 1 || s.Thresholds[0].Expr != "errors==0" {
		t.Errorf("thresholds: %+v", s.Thresholds)
	}
	dir := t.TempDir()
	s.ResultsDir = filepath.Join(dir, "runs", "r1")
	var stderr bytes.Buffer
	lines := SaveFiles(s, cfg, "", &stderr)
	if stderr.Len() != 0 || len(lines) != 2 || lines[1] != "Results: "+s.ResultsDir {
		t.Errorf("save: %q, %s", lines, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(s.ResultsDir, "summary.json")); err != nil {
		t.Error(err)
	}
}
