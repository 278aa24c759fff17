package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/tsbench/tsbench/internal/exit"
)

// profiles are --cpuprofile and --memprofile: tsbench's own profile in
// pprof format, for users who suspect the client and for us (go tool pprof
// FILE). The CPU profile covers the whole command, setup and verification
// included; the heap profile is written at its end, after a GC, with every
// allocation since the start (go tool pprof -sample_index=alloc_space).
type profiles struct {
	cpu, mem string
}

// start begins CPU profiling and returns what ends both; an unwritable file
// is bad input (exit 2), named with its flag.
func (p profiles) start(stderr io.Writer) (stop func(), err error) {
	var cpuFile *os.File
	if p.cpu != "" {
		if cpuFile, err = os.Create(p.cpu); err != nil {
			return nil, exit.Usagef("--cpuprofile %s: %v", p.cpu, err)
		}
		if err := pprof.StartCPUProfile(cpuFile); err != nil {
			cpuFile.Close()
			return nil, exit.Usagef("--cpuprofile %s: %v", p.cpu, err)
		}
	}
	var memFile *os.File
	if p.mem != "" {
		if memFile, err = os.Create(p.mem); err != nil {
			if cpuFile != nil {
				pprof.StopCPUProfile()
				cpuFile.Close()
			}
			return nil, exit.Usagef("--memprofile %s: %v", p.mem, err)
		}
		runtime.MemProfileRate = 64 * 1024 // finer than the default 512 KB: small allocations show
	}
	return func() {
		if cpuFile != nil {
			pprof.StopCPUProfile()
			profileWritten(stderr, "--cpuprofile", p.cpu, cpuFile.Close())
		}
		if memFile != nil {
			runtime.GC()
			err := pprof.Lookup("allocs").WriteTo(memFile, 0)
			if cerr := memFile.Close(); err == nil {
				err = cerr
			}
			profileWritten(stderr, "--memprofile", p.mem, err)
		}
	}, nil
}

func profileWritten(stderr io.Writer, flag, path string, err error) {
	if err != nil {
		fmt.Fprintf(stderr, "tsbench: %s %s: %v\n", flag, path, err)
		return
	}
	fmt.Fprintf(stderr, "tsbench: %s written to %s (go tool pprof %s)\n", flag, path, path)
}
