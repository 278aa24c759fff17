package cli

import (
	"github.com/spf13/pflag"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/output/dashboard"
	"github.com/tsbench/tsbench/internal/output/spec"
	"github.com/tsbench/tsbench/internal/run"
)

// addLiveFlags binds the flags that show a run while it runs.
func addLiveFlags(fl *pflag.FlagSet, f *run.LiveFlags) {
	fl.StringArrayVar(&f.Outs, "out", nil, "send every second of the run, as it closes, to a receiver: "+spec.Allowed+
		" (repeatable; adds to OUTPUTS)")
	fl.BoolVar(&f.Required, "out-required", false, "fail the run (exit 1) when an --out receiver failed or dropped samples")
	fl.StringVar(&f.Dashboard, "dashboard", "", "serve a live page of the run's charts, then its HTML report, at this address (--dashboard alone: "+
		dashboard.DefaultAddr+"; another: --dashboard=HOST:PORT)")
	fl.Lookup("dashboard").NoOptDefVal = dashboard.DefaultAddr
}

// applyOuts adds --out to OUTPUTS from the files, each checked.
func applyOuts(cfg *config.Config, outs []string) error {
	for _, o := range outs {
		s, err := spec.Parse(o)
		if err != nil {
			return exit.Usagef("--out %v", err)
		}
		cfg.Outputs = append(cfg.Outputs, s.Kind+"="+s.Where)
	}
	return nil
}
