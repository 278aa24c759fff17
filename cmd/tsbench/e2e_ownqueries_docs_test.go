package main

// The example query files of docs/queries run as the docs say, each on
// its target: every query runs, none fails, every checked answer comes.

import (
	"path/filepath"
	"testing"
)

func TestDocsQueryFiles(t *testing.T) {
	files := []struct{ file, target string }{
		{"sql.yaml", "sqlite"},
		{"sql.yaml", "postgres"},
		{"influxql.yaml", "influxdb"},
		{"promql.yaml", "victoriametrics"},
		{"iotdb.yaml", "iotdb"},
	}
	for _, f := range files {
		t.Run(f.file+"/"+f.target, func(t *testing.T) {
			requireTargetServer(t, f.target)
			out := filepath.Join(t.TempDir(), "out.json")
			r := tsbench(t, nil, "run", "--target", f.target, "--queries", filepath.Join("..", "..", "docs", "queries", f.file),
				"--data-dir", t.TempDir(), "--loop", "60", "--quiet", "--json", out)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			s := readSummary(t, out)
			for _, q := range s.QueryFile.Queries {
				op := s.Op(q.Name)
				if op == nil || op.OKOperations == 0 || op.FailOperations != 0 {
					t.Errorf("%s: %+v", q.Name, op)
				}
				if len(q.Answers) == 0 {
					t.Errorf("%s: no answers kept", q.Name)
				}
				for _, a := range q.Answers {
					if a.Error != "" {
						t.Errorf("%s %v: %s", q.Name, a.Params, a.Error)
					}
				}
			}
		})
	}
}
