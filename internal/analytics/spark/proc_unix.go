//go:build unix

package spark

import (
	"os/exec"
	"syscall"
)

// setProcessGroup makes the job its own process group, so that a deadline
// ends spark-submit's JVM and the Python driver it starts, not only the
// first process.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
