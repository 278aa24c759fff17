//go:build !unix

package spark

import "os/exec"

// setProcessGroup: elsewhere a deadline ends spark-submit only.
func setProcessGroup(cmd *exec.Cmd) {}
