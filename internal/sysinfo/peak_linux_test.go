package sysinfo

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// A process started by a large one reports its own peak, not its
// parent's: ru_maxrss would carry the parent's RSS across the exec.
func TestPeakRSSNotInherited(t *testing.T) {
	if os.Getenv("SYSINFO_PEAK_CHILD") == "1" {
		os.Stdout.WriteString("peak=" + strconv.FormatInt(SelfUsage().PeakRSSBytes, 10) + "\n")
		return
	}
	const big = 300 << 20
	ballast := make([]byte, big)
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1 // touched: resident
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPeakRSSNotInherited$")
	cmd.Env = append(os.Environ(), "SYSINFO_PEAK_CHILD=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(out), "peak=")
	child, err := strconv.ParseInt(strings.Fields(after + " ")[0], 10, 64)
	if !ok || err != nil {
		t.Fatalf("child said %q", out)
	}
	if own := SelfUsage().PeakRSSBytes; own < big {
		t.Errorf("own peak %d MB, below the %d MB touched", own>>20, big>>20)
	}
	if child <= 0 || child > big/2 {
		t.Errorf("child's peak %d MB: want its own (a few tens of MB), not the parent's %d MB", child>>20, big>>20)
	}
	ballast[0] = 2
}
