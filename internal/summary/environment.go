package summary

// Where a run ran: the tool's own cost, the environment, and the
// resources sampled while it measured.

import (
	"time"
)

// Tool is what the benchmark process itself cost.
type Tool struct {
	Version      string  `json:"version"`
	CPUSeconds   float64 `json:"cpu_seconds"`
	PeakRSSBytes int64   `json:"peak_rss_bytes"`
	// MeasuredCPUSeconds is the part of CPUSeconds spent while the run
	// measured (from the clients' release to the end of the last
	// operation): the operations' own cost, without start-up, schema,
	// warm-up, verification and reports. 0 in runs saved before it was kept.
	MeasuredCPUSeconds float64 `json:"measured_cpu_seconds,omitempty"`
	// CPUSecondsPerMillionPoints relates the tool's cost to the work done:
	// MeasuredCPUSeconds where known, else CPUSeconds.
	CPUSecondsPerMillionPoints float64 `json:"cpu_seconds_per_million_points"`
	// EmbeddedEngine names the database engine that ran inside the tool's
	// process (sqlite, duckdb): its work is part of the CPU and memory above.
	EmbeddedEngine string `json:"embedded_engine,omitempty"`
}

// Environment describes where the run happened.
type Environment struct {
	Hostname      string `json:"hostname"`
	OS            string `json:"os"`
	Kernel        string `json:"kernel,omitempty"`
	CPUModel      string `json:"cpu_model"`
	Cores         int    `json:"cores"`
	MemoryBytes   uint64 `json:"memory_bytes"`
	GoVersion     string `json:"go_version"`
	ServerVersion string `json:"server_version,omitempty"`
}

// Resources is the resource use sampled during the measured phase.
type Resources struct {
	IntervalSeconds float64 `json:"interval_s"`
	// Server names the process watched as the database server (with its
	// descendants), when it runs on this host.
	Server *ServerProcess `json:"server,omitempty"`
	// Samples are this host's, one a second.
	Samples []ResourceSample `json:"samples"`
	// Remote are samples from 'tsbench monitor' on the database host,
	// merged by time by 'tsbench report --monitor'.
	Remote []ResourceSample `json:"remote,omitempty"`
	// Errors say what could not be sampled (each kind once).
	Errors []string `json:"errors,omitempty"`
}

// ServerProcess identifies the database server process.
type ServerProcess struct {
	PID    int32  `json:"pid"`
	Name   string `json:"name,omitempty"`
	Source string `json:"source"` // "--server-pid", or the pid file it came from
}

// ResourceSample is one moment's resource use; rates cover the time since
// the previous sample.
type ResourceSample struct {
	Time     time.Time     `json:"time"`
	T        float64       `json:"t_s"`                // seconds since the measured phase began
	Hostname string        `json:"hostname,omitempty"` // set on samples taken by 'tsbench monitor'
	Tool     *ProcessUsage `json:"tool,omitempty"`
	Server   *ProcessUsage `json:"server,omitempty"`
	Host     *HostUsage    `json:"host,omitempty"`
}

// ProcessUsage is a process's (and its descendants') use.
type ProcessUsage struct {
	PID            int32   `json:"pid"`
	Processes      int     `json:"processes,omitempty"` // the process and its descendants
	CPUPercent     float64 `json:"cpu_percent"`         // 100 = one core busy
	RSSBytes       uint64  `json:"rss_bytes"`
	ReadBytesPerS  float64 `json:"read_bytes_per_s"`  // storage reads
	WriteBytesPerS float64 `json:"write_bytes_per_s"` // storage writes
}

// HostUsage is the whole machine's use.
type HostUsage struct {
	CPUPercent         float64 `json:"cpu_percent"` // of all cores: 100 = every core busy
	Cores              int     `json:"cores"`
	MemUsedBytes       uint64  `json:"mem_used_bytes"`
	MemTotalBytes      uint64  `json:"mem_total_bytes"`
	DiskReadBytesPerS  float64 `json:"disk_read_bytes_per_s"`
	DiskWriteBytesPerS float64 `json:"disk_write_bytes_per_s"`
	NetRecvBytesPerS   float64 `json:"net_recv_bytes_per_s"` // every interface, loopback included
	NetSentBytesPerS   float64 `json:"net_sent_bytes_per_s"`
}

// OperationsCPU is the CPU the tool spent on its operations:
// MeasuredCPUSeconds where known, else the whole process's.
func (t Tool) OperationsCPU() float64 {
	if t.MeasuredCPUSeconds > 0 {
		return t.MeasuredCPUSeconds
	}
	return t.CPUSeconds
}
