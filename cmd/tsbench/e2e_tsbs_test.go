package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/tsbs"
	"github.com/tsbench/tsbench/internal/workload"
)

// TSBS's three use cases run end to end at a small scale against SQLite,
// PostgreSQL and every other target TSBS supports whose server runs: the
// load stores every host's rows (verified), each supported query type runs
// TSBS_QUERIES queries whose answers agree with the data, the unsupported
// ones are named with their reason, and the mixed phase's writes are
// verified too.
func TestTSBSWorkloads(t *testing.T) {
	const scale, queries = 8, 4
	// SQLite, PostgreSQL, then the other targets TSBS supports.
	extra := map[string][]string{
		"postgres":    {"--set", "DB_NAME=tsbench_tsbs"},
		"timescaledb": {"--clients", "1"}, // PGlite: one connection at a time
	}
	for _, target := range []string{"sqlite", "postgres", "timescaledb", "questdb", "influxdb", "victoriametrics",
		"clickhouse", "cassandra", "iotdb"} {
		t.Run(target, func(t *testing.T) {
			// Each target its own server, side by side (go test -parallel);
			// its use cases in turn: they share its database.
			t.Parallel()
			for _, uc := range tsbs.Names() {
				t.Run(uc, func(t *testing.T) {
					requireTargetServer(t, target)
					u, _ := tsbs.Lookup(uc)
					driver, err := targets.Lookup(target)
					if err != nil {
						t.Fatal(err)
					}
					hours := 2
					if uc == "devops" {
						hours = 1 // 101 fields a row
					}
					rows := int64(hours * 3600 / 10)
					dir := t.TempDir()
					args := append([]string{"run", "--workload", "tsbs-" + uc, "--target", target, "--quiet", "--data-dir", dir,
						"--results", "off", "--clients", "2",
						"--set", fmt.Sprintf("TSBS_SCALE=%d", scale), "--set", fmt.Sprintf("TSBS_QUERIES=%d", queries),
						"--set", fmt.Sprintf("TSBS_END=2016-01-01T%02d:00:00Z", hours)}, extra[target]...)
					r := tsbench(t, nil, args...)
					if r.code != 0 {
						t.Fatal(failedRun(r))
					}
					for _, q := range u.Queries {
						if !strings.Contains(r.stdout, q.Name) {
							t.Errorf("query type %s is not in the output", q.Name)
						}
						if q.Kind == 0 && !strings.Contains(r.stdout, q.Name+": unsupported: "+q.Unsupported) {
							t.Errorf("unsupported %s without its reason", q.Name)
						}
					}
					res := readScenario(t, dir)
					ran := map[string]bool{}
					for _, p := range res.Phases {
						ran[p.Phase] = true
						s := readSummary(t, filepath.Join(p.ResultsDir, "summary.json"))
						for _, op := range s.Operations {
							if op.FailOperations > 0 {
								t.Errorf("phase %s: %d failed %s operations: %+v", p.Phase, op.FailOperations, op.Name, op.Failures)
							}
						}
						if s.Verify == nil || !s.Verify.OK && s.Op("INGESTION") != nil {
							t.Errorf("phase %s: verify %+v", p.Phase, s.Verify)
							continue
						}
						switch p.Phase {
						case tsbs.PhaseLoad, tsbs.PhaseMixed:
							// Every value, less iot's missing ones.
							g := tsbsGenerator(t, uc, scale, fmt.Sprintf("2016-01-01T%02d:00:00Z", hours))
							want := int64(scale)*rows*int64(len(u.Fields)) - g.MissingCells(g.Schema().Devices, rows)
							if w := s.Op("INGESTION"); w == nil || w.OKPoints != want || s.Verify.StoredPoints != want {
								t.Errorf("phase %s: wrote %+v, stored %d, want %d points", p.Phase, w, s.Verify.StoredPoints, want)
							}
						default:
							q, _ := u.Query(p.Phase)
							op := s.Op(q.Kind.String())
							switch {
							case q.Fleet != 0 && driver.Caps.Fleet == "":
								if op == nil || op.Unsupported != queries || op.OKOperations != 0 {
									t.Errorf("phase %s: %+v, want %d fleet questions unsupported by %s", p.Phase, op, queries, target)
								}
							case q.Fleet != 0 && !answered(s.Verify.Queries):
								t.Errorf("phase %s: no answer of %s compared with the data: %+v", p.Phase, target, s.Verify.Queries)
							case q.Fleet != 0:
								// A fleet question is the target's FleetQuery,
								// whatever kinds it declares (cassandra).
								if op == nil || op.OKOperations != queries {
									t.Errorf("phase %s: %+v, want %d fleet questions", p.Phase, op, queries)
								}
							case !driver.Caps.SupportsQuery(q.Kind) || !driver.Caps.SupportsAcross(&ts.Query{Across: q.Across, Limit: q.Limit}):
								// The target declares the kind, or a GROUP_BY
								// across hosts, unsupported (cassandra's GROUP_BY
								// and LATEST_POINT): each query is counted as
								// such, none fails.
								if op == nil || op.Unsupported != queries || op.OKOperations != 0 {
									t.Errorf("phase %s: %+v, want %d %s queries unsupported by %s", p.Phase, op, queries, q.Kind, target)
								}
							case op == nil || op.OKOperations != queries:
								t.Errorf("phase %s: %+v, want %d %s queries", p.Phase, op, queries, q.Kind)
							}
						}
						if len(s.Verify.Queries) == 0 && p.Phase != tsbs.PhaseLoad {
							t.Errorf("phase %s: no answer checked (%s)", p.Phase, s.Verify.QueriesSkipped)
						}
						for _, q := range s.Verify.Queries {
							if !q.OK {
								t.Errorf("phase %s: answer differs: %+v", p.Phase, q)
							}
						}
					}
					for _, q := range u.Queries {
						if q.Kind != 0 && !ran[q.Name] {
							t.Errorf("query type %s did not run", q.Name)
						}
						if q.Kind == 0 && ran[q.Name] {
							t.Errorf("unsupported query type %s ran", q.Name)
						}
					}
					if !ran[tsbs.PhaseLoad] || !ran[tsbs.PhaseMixed] {
						t.Errorf("phases run: %v", ran)
					}
				})
			}
		})
	}
}

// answered reports whether a check compared an answer with the data.
func answered(checks []summary.QueryCheck) bool {
	for _, q := range checks {
		if q.Answered() {
			return true
		}
	}
	return false
}

// tsbsGenerator is the generator of a TSBS load: the data a run writes.
func tsbsGenerator(t *testing.T, useCase string, scale int, end string) *gen.Generator {
	t.Helper()
	cfg := config.Default()
	for k, v := range map[string]string{"TSBS_USE_CASE": useCase, "TSBS_PHASE": tsbs.PhaseLoad, "TSBS_SCALE": fmt.Sprint(scale),
		"TSBS_LOG_INTERVAL": "10s", "TSBS_START": "2016-01-01T00:00:00Z", "TSBS_END": end} {
		if err := config.Set(cfg, k, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := tsbs.Apply(cfg); err != nil {
		t.Fatal(err)
	}
	if err := config.Resolve(cfg); err != nil {
		t.Fatal(err)
	}
	g, err := gen.New(workload.Schema(cfg), workload.GenOptions(cfg))
	if err != nil {
		t.Fatal(err)
	}
	return g
}
