package scenario

// What the phases of a scenario leave in the database, so that a later
// phase that only queries can check its answers against the rows earlier
// phases wrote.

import (
	"fmt"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/workload"
)

// Written is what earlier phases of a scenario left in the database:
// rows of every device, of one schema and seed, when they are known. The
// zero Written knows of none.
type Written struct {
	rows   int64
	schema string // the schema and generator settings they were written with
}

// After is what the database holds after a phase run with cfg, which gave
// s: a complete, verified generated write of every device adds its rows;
// anything else (a replay, a stopped or failed run, random operation
// draws) makes them unknown.
func (before Written) After(cfg *config.Config, s *summary.Summary) Written {
	w := s.Op(workload.Write.String())
	if w == nil || w.OKOperations == 0 {
		return before // a query phase leaves the data as it was
	}
	key := dataKey(cfg)
	if cfg.Data != "" || s.Verify == nil || !s.Verify.OK || s.StopReason != "loop" || s.Failed() ||
		cfg.OperationOrder != workload.OrderSpread || cfg.Scaled() {
		return Written{}
	}
	if before.schema != key || cfg.CreateSchema && cfg.DeleteData {
		before = Written{schema: key} // another series, or a fresh table
	}
	// Every phase writes rows [0, n) of each device: a second write phase
	// rewrites the rows the first wrote, and may add more.
	rows := workload.NewPlan(cfg.Weights(), cfg.Loop).Counts()[workload.Write] * int64(cfg.BatchSize)
	before.rows = max(before.rows, rows)
	return before
}

// PriorRows are the rows a phase run with cfg that only queries can check
// its answers against: the earlier phases', written with its schema and
// seed; 0 when there are none it can rely on.
func (prior Written) PriorRows(cfg *config.Config) int64 {
	if prior.rows == 0 || prior.schema != dataKey(cfg) || cfg.WriteWeight() > 0 {
		return 0
	}
	return prior.rows
}

// dataKey names what generates a phase's data: two phases with the same
// key write and read the same series and values (the delivery order aside).
func dataKey(cfg *config.Config) string {
	o := workload.GenOptions(cfg)
	o.Order, o.BatchSize = gen.Order{}, 0
	return fmt.Sprintf("%s|%s|%d|%v|%d|%d|%s|%s|%+v", cfg.Target, cfg.Database, cfg.Devices, config.SensorTypes(cfg.TypeProportion, cfg.Sensors),
		cfg.PointStep, cfg.StartTime.UnixMilli(), cfg.DevicePrefix, cfg.SensorPrefix, o)
}
