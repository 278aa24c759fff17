package summary

// A run split between worker processes (WORKERS), and their merge.

import (
	"time"
)

// Worker is one process's share of a run split between WORKERS processes.
type Worker struct {
	Group   string `json:"group"`
	Index   int    `json:"index"`
	Workers int    `json:"workers"`
	// Clients are the global client numbers [lo, hi) this worker ran.
	Clients [2]int `json:"clients"`
	// Warehouses are a TPC-C worker's warehouses, first to last: it ran
	// their terminals (tpcc.Share), and Clients stays zero.
	Warehouses [2]int `json:"warehouses,omitzero"`
	// StartAt is the instant the barrier gave for the measured phase to
	// begin, and Barrier how the workers agreed on it ("store" or
	// "start-at").
	StartAt time.Time `json:"start_at,omitzero"`
	Barrier string    `json:"barrier,omitempty"`
}

// Merge is the provenance of a merged run: which workers' runs it adds up,
// and which are missing or unfinished (then the run is incomplete).
type Merge struct {
	Group   string      `json:"group,omitempty"`
	Workers int         `json:"workers"`
	Runs    []MergedRun `json:"runs"`
	// Missing are the worker indexes with no finished run: the merged
	// counts lack their share.
	Missing []int `json:"missing,omitempty"`
	// Problems say why each missing index is missing.
	Problems []string `json:"problems,omitempty"`
}

// Complete reports whether every worker's share is in the merged run.
func (m *Merge) Complete() bool { return m == nil || len(m.Missing) == 0 }

// MergedRun is one worker's run as the merge saw it.
type MergedRun struct {
	Index      int     `json:"index"`
	RunID      string  `json:"run_id"`
	Hostname   string  `json:"hostname,omitempty"`
	Status     string  `json:"status"`
	Points     int64   `json:"points"`
	Operations int64   `json:"operations"`
	Elapsed    float64 `json:"elapsed_s"`
	CPUSeconds float64 `json:"cpu_seconds"`
	// OffsetMS is when this worker began measuring, after the earliest.
	OffsetMS float64 `json:"start_offset_ms"`
}
