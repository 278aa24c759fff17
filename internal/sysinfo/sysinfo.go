// Package sysinfo describes the machine a run happens on and measures what
// the benchmark process itself costs, so that every result says where it was
// taken and whether the client could have been the limit.
package sysinfo

import (
	"bufio"
	"context"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/host"
	"github.com/shirou/gopsutil/v4/mem"

	"github.com/tsbench/tsbench/internal/summary"
)

// Environment describes the machine. It never fails: a field that cannot be
// read stays empty, because a missing detail must not cost a run its result.
// The kernel comes from host.KernelVersionWithContext rather than
// host.InfoWithContext, which gives up entirely when any of its many parts
// (boot time, host id, virtualisation) cannot be read, as in some containers.
func Environment(ctx context.Context) summary.Environment {
	env := summary.Environment{
		OS:        osName(ctx),
		GoVersion: runtime.Version(),
		Cores:     logicalCores(ctx),
	}
	env.Hostname, _ = os.Hostname()
	env.Kernel, _ = host.KernelVersionWithContext(ctx)
	if vm, err := mem.VirtualMemoryWithContext(ctx); err == nil {
		env.MemoryBytes = vm.Total
	}
	if infos, err := cpu.InfoWithContext(ctx); err == nil && len(infos) > 0 {
		env.CPUModel = strings.TrimSpace(infos[0].ModelName)
	}
	return env
}

// logicalCores counts the machine's logical CPUs; runtime.NumCPU (the CPUs
// this process may use) stands in when they cannot be counted.
func logicalCores(ctx context.Context) int {
	if n, err := cpu.CountsWithContext(ctx, true); err == nil && n > 0 {
		return n
	}
	return runtime.NumCPU()
}

// osName is "linux/amd64" followed by the distribution's name when known,
// e.g. "linux/amd64 Debian GNU/Linux 12 (bookworm)".
func osName(ctx context.Context) string {
	name := runtime.GOOS + "/" + runtime.GOARCH
	if distro := distroName(ctx); distro != "" {
		name += " " + distro
	}
	return name
}

// distroName reads PRETTY_NAME from os-release (both standard places), and
// falls back to gopsutil's platform name and version elsewhere (macOS, BSD).
func distroName(ctx context.Context) string {
	for _, path := range []string{"/etc/os-release", "/usr/lib/os-release"} {
		if f, err := os.Open(path); err == nil {
			pretty := parseOSRelease(f)
			f.Close()
			if pretty != "" {
				return pretty
			}
		}
	}
	platform, _, version, err := host.PlatformInformationWithContext(ctx)
	if err != nil || platform == "" {
		return ""
	}
	return strings.TrimSpace(platform + " " + version)
}

// parseOSRelease returns PRETTY_NAME, unquoted, or "".
func parseOSRelease(r io.Reader) string {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		value, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "PRETTY_NAME=")
		if !ok {
			continue
		}
		if unq, err := strconv.Unquote(value); err == nil {
			return unq
		}
		// os-release also allows single quotes, which strconv rejects.
		return strings.Trim(value, `"'`)
	}
	return ""
}
