package run

import "github.com/tsbench/tsbench/internal/summary"

// Outputs are what a run writes besides the console and its run
// directory: the results store, the HDR log, and resource samples.
type Outputs struct {
	Results   string // --results: a store spec, "" for the default, "off"
	HDRLog    string // --hdr-log DIR
	ServerPID int    // --server-pid
	Resources bool   // --resources
	// serverCores are the database host's cores for per-core figures
	// (--server-cores; 0 = this machine's).
	ServerCores int
	Live        LiveFlags // --out, --out-required (live.go)
	// priorRows are the rows of every device an earlier scenario phase
	// wrote (runner.Runner.PriorRows); 0 outside scenarios.
	PriorRows int64
	// repeat places the run among the repetitions of --repeat N.
	Repeat *summary.Repeat
}
