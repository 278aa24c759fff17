package runner

import (
	"fmt"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/targets"
)

// FitDefaultTypes leaves out of a default INSERT_DATATYPE_PROPORTION the
// types the target cannot store (TEXT on VictoriaMetrics and OpenTSDB), and
// returns the note that says so: the default is tsbench's choice, not the
// user's. A proportion the user set, or replayed data, is kept (and
// refused before the run if it does not fit); the note is then "".
func FitDefaultTypes(cfg *config.Config, d *targets.Driver) (note string, err error) {
	if cfg.Origin("INSERT_DATATYPE_PROPORTION") != "" || cfg.Data != "" {
		return "", nil
	}
	fit := FitTypes(d, cfg.TypeProportion)
	if fit == cfg.TypeProportion {
		return "", nil
	}
	was := ProportionText(cfg.TypeProportion)
	cfg.TypeProportion = fit
	if err := config.Resolve(cfg); err != nil {
		return "", err
	}
	return fmt.Sprintf("the %s target cannot store every type of the default INSERT_DATATYPE_PROPORTION %s: "+
		"it runs with %s (set INSERT_DATATYPE_PROPORTION to choose)", d.Name, was, ProportionText(fit)), nil
}
