// Command tsbench benchmarks time-series and event databases. See README.md.
package main

import (
	"os"

	"github.com/tsbench/tsbench/internal/cli"
	_ "github.com/tsbench/tsbench/internal/targets/all" // every database target
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr)) }
