package cli

import "github.com/tsbench/tsbench/internal/summary"

// runOutputs are what a run writes besides the console and its run
// directory: the results store, the HDR log, and resource samples.
type runOutputs struct {
	results   string // --results: a store spec, "" for the default, "off"
	hdrLog    string // --hdr-log DIR
	serverPID int    // --server-pid
	resources bool   // --resources
	// serverCores are the database host's cores for per-core figures
	// (--server-cores; 0 = this machine's).
	serverCores int
	live        liveFlags // --out, --out-required (live.go)
	// priorRows are the rows of every device an earlier scenario phase
	// wrote (runner.Runner.PriorRows); 0 outside scenarios.
	priorRows int64
	// repeat places the run among the repetitions of --repeat N.
	repeat *summary.Repeat
}
