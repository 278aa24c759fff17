package merge

// A merged run verified as one: the stored points of every merged worker's
// devices counted once on the server, instead of the sum of the workers'
// own counts.

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/connect"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/workload"
)

// CountOnce replaces m's summed verification by one count on the server
// (cfg's target, as the workers ran it) over the devices of every merged
// worker's clients. On an error m keeps the summed verification.
func CountOnce(ctx context.Context, cfg *config.Config, runs []*summary.Summary, m *summary.Summary) error {
	driver, err := targets.Lookup(cfg.Target)
	if err != nil {
		return err
	}
	schema := workload.Schema(cfg)
	rng := ts.CountRange{}
	for _, s := range runs {
		if s.Worker == nil || !slices.ContainsFunc(m.Merge.Runs, func(r summary.MergedRun) bool { return r.RunID == s.RunID }) {
			continue
		}
		for c := s.Worker.Clients[0]; c < s.Worker.Clients[1]; c++ {
			devs := workload.ClientDevices(cfg, schema, c)
			for i := range devs {
				rng.Devices = append(rng.Devices, &devs[i])
			}
		}
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.ReadTimeout)
	defer cancel()
	opts := connect.Options(cfg, driver, filepath.Dir(m.DataPath))
	opts.DataDir = m.DataPath
	t, err := driver.Open(ctx, opts)
	if err == nil {
		defer t.Close()
		if b, ok := t.(targets.Binder); ok {
			err = b.Bind(ctx, schema)
		}
	}
	if err == nil {
		var stored int64
		if stored, err = t.Count(ctx, rng); err == nil {
			v := m.Verify
			v.Judge(stored)
			v.Error = ""
			v.Method = fmt.Sprintf("counted once on the server over the %d devices of %d workers", len(rng.Devices), len(m.Merge.Runs))
			return nil
		}
	}
	return fmt.Errorf("could not count on the server (%w)", err)
}
