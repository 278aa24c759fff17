package run

// What a run's workload takes before it starts: its own queries' weights,
// the objectives its operations can meet, a TSBS run's target options.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/ownquery"
	"github.com/tsbench/tsbench/internal/promrun"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/threshold"
	"github.com/tsbench/tsbench/internal/tpcc"
	"github.com/tsbench/tsbench/internal/tsbs"
	"github.com/tsbench/tsbench/internal/tsbs/queryfile"
)

// ReadQueryFile reads QUERY_FILE, if set, for the weights of its queries
// in the mix (config.Config.OwnWeights), and refuses a threshold or a
// find-max objective on an operation the run cannot have (objectives).
func ReadQueryFile(cfg *config.Config) error {
	var own []string
	if cfg.QueryFile != "" {
		f, err := ownquery.Load(cfg.QueryFile)
		if err != nil {
			return InputOrFailure(err)
		}
		own, cfg.OwnWeights = f.Names(), f.Weights()
	}
	parse, err := objectives(cfg, own)
	if err != nil {
		return err
	}
	for _, e := range cfg.Thresholds {
		if err := parse(e); err != nil {
			return exit.Usagef("%v", err)
		}
	}
	for _, e := range cfg.FindMax {
		if err := parse(e); err != nil {
			return exit.Usagef("FIND_MAX (--find-max): %v", err)
		}
	}
	return nil
}

// objectives checks a threshold against the operations of the run's
// workload: a time series run's INGESTION, query kinds and own queries; a
// TPC-C run's five transactions and its tpmC; a TSBS query file's query
// types.
func objectives(cfg *config.Config, own []string) (func(string) error, error) {
	switch {
	case cfg.Workload == config.WorkloadTPCC:
		return func(e string) error { _, err := threshold.ParseAmong(e, tpcc.Names(), true); return err }, nil
	case cfg.Workload == config.WorkloadPrometheus:
		return func(e string) error { _, err := threshold.ParseAmong(e, promrun.Names, false); return err }, nil
	case cfg.TSBSQueryFile != "" && len(cfg.Thresholds)+len(cfg.FindMax) > 0:
		qs, err := queryfile.Read(cfg.TSBSQueryFile)
		if err != nil {
			return nil, exit.Usagef("TSBS_QUERY_FILE = %q: %v", cfg.TSBSQueryFile, err)
		}
		labels, _ := queryfile.Types(qs)
		return func(e string) error { _, err := threshold.ParseAmong(e, labels, false); return err }, nil
	}
	return func(e string) error { _, err := threshold.Parse(e, own...); return err }, nil
}

// TSBSTargetOptions gives a TSBS run the target options the target takes
// for TSBS (Driver.TSBSOptions) that the user left unset, and returns the
// note that says so; an option the user set wins.
func TSBSTargetOptions(cfg *config.Config, d *targets.Driver) string {
	if !tsbs.Active(cfg) || len(d.TSBSOptions) == 0 {
		return ""
	}
	var set []string
	for _, k := range slices.Sorted(maps.Keys(d.TSBSOptions)) {
		if _, given := cfg.TargetOptions[k]; given {
			continue
		}
		if cfg.TargetOptions == nil {
			cfg.TargetOptions = map[string]string{}
		}
		cfg.TargetOptions[k] = d.TSBSOptions[k]
		set = append(set, "target."+k+"="+d.TSBSOptions[k])
	}
	if len(set) == 0 {
		return ""
	}
	return fmt.Sprintf("a TSBS run on %s takes %s, as TSBS stores and loads, unless --set says otherwise", d.Name, strings.Join(set, ", "))
}
