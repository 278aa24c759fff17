package sysinfo

// Usage is what the benchmark process has cost so far.
type Usage struct {
	CPUSeconds   float64 // user + system CPU time of the whole process
	PeakRSSBytes int64   // largest resident set size reached
}

// CPUSince returns the CPU seconds the process used since u was taken with
// SelfUsage, e.g. the cost of the measured phase alone.
func CPUSince(u Usage) float64 {
	return SelfUsage().CPUSeconds - u.CPUSeconds
}

// CPUPerMillionPoints relates CPU seconds to the work done, so that the
// tool's cost compares across runs of different sizes. It is 0 when no point
// was handled.
func CPUPerMillionPoints(cpuSeconds float64, points int64) float64 {
	if points <= 0 {
		return 0
	}
	return cpuSeconds / (float64(points) / 1e6)
}
