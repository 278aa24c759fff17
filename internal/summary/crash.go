package summary

// The crash (CRASH_AT): what was done to the server.

// Crash is what --crash did to the server during the run.
type Crash struct {
	AtS       float64 `json:"at_s"`        // planned, seconds into the measured phase
	KilledAtS float64 `json:"killed_at_s"` // when SIGKILL was sent, or Command run
	// Command is the user's command that made the fault (CRASH_COMMAND)
	// instead of tsbench's kill: then no process of tsbench's finding.
	Command string `json:"command,omitempty"`
	PID     int32  `json:"pid,omitempty"`
	Process string `json:"process,omitempty"`
	Found   string `json:"found_by,omitempty"` // how the process was found: its port, a pid file
	Restart string `json:"restart"`            // the command that started it again
	// RestartedBy says where Restart came from: CRASH_RESTART, the killed
	// process's own image (/proc), or its service script.
	RestartedBy string `json:"restarted_by,omitempty"`
	NewPID      int32  `json:"new_pid,omitempty"` // the restarted server's process
	// FailedOverTo is the node ("host:port") the database came back on
	// when not the one killed: a standby the restart promoted.
	FailedOverTo string  `json:"failed_over_to,omitempty"`
	RestartS     float64 `json:"restart_s,omitempty"`
	// BackAfterS is from the kill until the port accepted connections.
	BackAfterS float64 `json:"back_after_s,omitempty"`
	// PauseS is how long the server was stopped (SIGSTOP) instead of
	// killed (CRASH_PAUSE); KilledAtS is then when it was stopped, and
	// BackAfterS from then until it took work again.
	PauseS float64 `json:"pause_s,omitempty"`
	// PartitionS is how long the run's connections to Server were cut
	// off (CRASH_PARTITION) instead of a kill: the server ran on.
	PartitionS float64 `json:"partition_s,omitempty"`
	Server     string  `json:"server,omitempty"`
	// Node says which of several hosts the fault hit (CRASH_NODE), as
	// "N of M"; empty with one server.
	Node  string `json:"node,omitempty"`
	Error string `json:"error,omitempty"`
}
