package cli

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/tsbs"
)

// tsbsSparse refuses a TSBS use case with missing values (iot) on a target
// that cannot leave a cell empty: it would store values never generated.
func tsbsSparse(cfg *config.Config, d *targets.Driver) error {
	if tsbs.Missing(cfg) > 0 && !d.Caps.Sparse {
		return exit.Usagef("TSBS_USE_CASE = %q: its data has missing values, which target %s cannot write (no sparse batches); "+
			"allowed: a target that takes them (see 'tsbench targets'), or tsbs-cpu-only, tsbs-devops", cfg.TSBSUseCase, d.Name)
	}
	return nil
}

// generateTSBS writes a TSBS load's rows as a TSBS data file (tsbench
// generate --format influx|timescaledb), so that TSBS's own loaders load
// exactly the rows tsbench's runs write.
func generateTSBS(cfg *config.Config, g *gen.Generator, format, out string, stdout io.Writer) error {
	if !tsbs.Active(cfg) {
		return exit.Usagef("generate --format %s: TSBS's files hold a TSBS use case: give --workload tsbs-cpu-only, tsbs-devops "+
			"or tsbs-iot (or TSBS's --use-case), with TSBS's --scale, --seed, --timestamp-start, --timestamp-end and --log-interval", format)
	}
	if !slices.Contains(tsbs.DataFormats, format) {
		return exit.Usagef("generate --format = %q: allowed: %s", format, strings.Join(tsbs.DataFormats, ", "))
	}
	span, err := tsbs.SpanOf(cfg)
	if err != nil {
		return exit.Usagef("%v", err)
	}
	f, err := os.Create(out)
	if err != nil {
		return exit.Usagef("generate --out %s: %v", out, err)
	}
	rows, how, err := writeTSBSData(f, cfg, g, format, span.Rows)
	if err != nil {
		f.Close()
		return exit.With(exit.Failure, err)
	}
	if err := f.Close(); err != nil {
		return exit.With(exit.Failure, fmt.Errorf("generate: %s: %w", out, err))
	}
	what := "host"
	if u, err := tsbs.Lookup(cfg.TSBSUseCase); err == nil {
		what = u.What
	}
	fmt.Fprintf(stdout, "Wrote %d rows of %d %ss (%s, %s) in TSBS's %s format to %s\n", rows, len(g.Schema().Devices), what,
		cfg.TSBSUseCase, how, format, out)
	return nil
}

// writeTSBSData writes the use case's rows: for cpu-only and iot the rows
// tsbs_generate_data writes with the same flags (TSBS_SEED as its --seed),
// byte for byte; for devops, which tsbench does not reproduce, tsbench's own
// rows in TSBS's shape. how says which, for the summary line.
func writeTSBSData(w io.Writer, cfg *config.Config, g *gen.Generator, format string, rows int64) (int64, string, error) {
	c, ok, err := exactConfig(cfg)
	if err != nil {
		return 0, "", err
	}
	if !ok {
		table := "cpu"
		if cfg.TSBSUseCase == "iot" {
			table = "readings"
		}
		return rows * int64(len(g.Schema().Devices)), "tsbench's values", tsbs.WriteData(w, format, table, g, rows)
	}
	x, err := tsbs.NewExact(c)
	if err != nil {
		return 0, "", err
	}
	n, err := tsbs.WriteExact(w, format, x)
	return n, fmt.Sprintf("TSBS's rows, seed %d", c.Seed), err
}

// exactConfig is TSBS's generator configuration of cfg, and false for a
// use case tsbench does not reproduce exactly (devops).
func exactConfig(cfg *config.Config) (tsbs.ExactConfig, bool, error) {
	if !slices.Contains(tsbs.ExactUseCases, cfg.TSBSUseCase) {
		return tsbs.ExactConfig{}, false, nil
	}
	c, err := tsbs.ExactConfigOf(cfg)
	return c, err == nil, err
}
