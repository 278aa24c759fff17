package sysinfo

import (
	"context"
	"runtime"
	"testing"
)

func TestEnvironment(t *testing.T) {
	e := Environment(context.Background())
	if e.Cores < 1 || e.GoVersion == "" || e.OS == "" {
		t.Fatalf("incomplete environment: %+v", e)
	}
	if runtime.GOOS == "linux" && (e.CPUModel == "" || e.MemoryBytes == 0) {
		t.Fatalf("no CPU model or memory on Linux: %+v", e)
	}
}

func TestSelfUsageGrows(t *testing.T) {
	before := SelfUsage()
	x := 0
	for i := 0; i < 300_000_000; i++ {
		x += i ^ (x >> 3)
	}
	after := SelfUsage()
	if after.CPUSeconds <= before.CPUSeconds {
		t.Fatalf("CPU seconds did not grow: %v -> %v (x=%d)", before.CPUSeconds, after.CPUSeconds, x)
	}
	if after.PeakRSSBytes <= 0 {
		t.Fatalf("peak RSS %d", after.PeakRSSBytes)
	}
}
