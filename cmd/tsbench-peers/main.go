// Command tsbench-peers measures tsbench beside the tools users hold it
// against, on the same PostgreSQL, taking turns (peer, tsbench, peer,
// tsbench, ...), and prints each side's medians and their ratios:
//
//   - pgbench, on one statement (its -f script with \set parameters, -M
//     prepared, latencies from its -l log) against tsbench's own query of
//     the same statement and parameter distribution (--queries,
//     --query-only): queries/s, client CPU per query, p50 and p99;
//   - go-tpc's TPC-C (tpcc run, READ COMMITTED) against tsbench's TPC-C in
//     interactive mode (one statement per round trip), or with --mode
//     batched in its default mode, each tool on data it loaded afresh: tpmC
//     and client CPU per transaction.
//
// A side's client CPU is its process's user and system time (getrusage of
// the child), whatever it does; pgbench and go-tpc are found on PATH or
// given by flag, never built here.
//
//	go run ./cmd/tsbench-peers pgbench --statement plus-one --duration 20s --turns 2
//	go run ./cmd/tsbench-peers pgbench --statement window-max --rows 40000000 --duration 20s
//	go run ./cmd/tsbench-peers go-tpc --go-tpc /path/to/go-tpc --warehouses 2 --duration 45s
//	go run ./cmd/tsbench-peers go-tpc --go-tpc /path/to/go-tpc --mode batched
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs one comparison and returns the exit status: 2 for bad input.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: tsbench-peers pgbench|go-tpc [flags] (-h for each)")
		return 2
	}
	var err error
	switch args[0] {
	case "pgbench":
		err = comparePgbench(args[1:], stdout, stderr)
	case "go-tpc":
		err = compareGoTPC(args[1:], stdout, stderr)
	default:
		fmt.Fprintf(stderr, "tsbench-peers: %q: allowed: pgbench, go-tpc\n", args[0])
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "tsbench-peers:", err)
		if errors.As(err, new(usage)) {
			return 2
		}
		return 1
	}
	return 0
}

// usage is bad input: exit 2.
type usage struct{ msg string }

func (u usage) Error() string { return u.msg }
