package sysinfo

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestEnvironment(t *testing.T) {
	env := Environment(context.Background())
	if env.Cores < 1 {
		t.Errorf("Cores = %d, want >= 1", env.Cores)
	}
	if env.GoVersion != runtime.Version() {
		t.Errorf("GoVersion = %q", env.GoVersion)
	}
	if !strings.HasPrefix(env.OS, runtime.GOOS+"/"+runtime.GOARCH) {
		t.Errorf("OS = %q", env.OS)
	}
	if runtime.GOOS != "linux" {
		return
	}
	if env.CPUModel == "" {
		t.Error("CPUModel is empty on Linux")
	}
	if env.MemoryBytes == 0 || env.Kernel == "" || env.Hostname == "" {
		t.Errorf("missing fields on Linux: %+v", env)
	}
}

func TestEnvironmentCancelledContextStillAnswers(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if env := Environment(ctx); env.Cores < 1 || env.GoVersion == "" {
		t.Errorf("Environment with a cancelled context: %+v", env)
	}
}

func TestParseOSRelease(t *testing.T) {
	cases := map[string]string{
		"NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n": "Debian GNU/Linux 12 (bookworm)",
		"PRETTY_NAME='Alpine Linux v3.20'\n":                                          "Alpine Linux v3.20",
		"PRETTY_NAME=Arch\n":                                                          "Arch",
		"NAME=x\n":                                                                    "",
	}
	for in, want := range cases {
		if got := parseOSRelease(strings.NewReader(in)); got != want {
			t.Errorf("parseOSRelease(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSelfUsage(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("getrusage not used on", runtime.GOOS)
	}
	before := SelfUsage()
	if before.PeakRSSBytes <= 0 {
		t.Errorf("PeakRSSBytes = %d, want > 0", before.PeakRSSBytes)
	}
	// Spin until the kernel has charged at least 20 ms more CPU time; its
	// accounting is tick-based, so a fixed short loop could read no change.
	deadline := time.Now().Add(10 * time.Second)
	x := 0
	for CPUSince(before) < 0.02 {
		if time.Now().After(deadline) {
			t.Fatalf("CPU seconds did not grow: before %v, now %v", before.CPUSeconds, SelfUsage().CPUSeconds)
		}
		for i := 0; i < 1_000_000; i++ {
			x += i ^ x
		}
	}
	_ = x
	if after := SelfUsage(); after.CPUSeconds <= before.CPUSeconds || after.PeakRSSBytes < before.PeakRSSBytes {
		t.Errorf("usage went backwards: before %+v, after %+v", before, after)
	}
}

func TestCPUPerMillionPoints(t *testing.T) {
	if got := CPUPerMillionPoints(3.2, 10_000_000); got != 0.32 {
		t.Errorf("got %v, want 0.32", got)
	}
	if got := CPUPerMillionPoints(3.2, 0); got != 0 {
		t.Errorf("no points: got %v, want 0", got)
	}
}
