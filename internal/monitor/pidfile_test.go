package monitor

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// The pid file of a restarted server's place is found by the process it
// names, in the services directory given (a cluster's, of its own) or the
// run's, whatever the service's name; a process's ancestor named there
// counts (a runuser that started it); a process nobody recorded has none.
func TestManagingPidFile(t *testing.T) {
	child := exec.Command("sleep", "30")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = child.Process.Kill(); _ = child.Wait() })
	pid := int32(child.Process.Pid)
	ring, run := t.TempDir(), t.TempDir()
	t.Setenv("TSBENCH_SERVICES_DIR", run)
	node := record(t, ring, "thanos-cluster-receive-3", "pid", pid)
	for _, c := range []struct {
		name string
		dirs []string
		want string
	}{
		{"in the cluster's directory", []string{ring}, node},
		{"not in the run's alone", nil, ""},
	} {
		if got := ManagingPidFile(pid, c.dirs...); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	standby := record(t, run, "postgres-pair", "standby.pid", int32(os.Getpid()))
	if got := ManagingPidFile(pid); got != standby {
		t.Errorf("an ancestor's pid file: %q, want %q", got, standby)
	}
}

func record(t *testing.T, dir, service, name string, pid int32) string {
	t.Helper()
	file := filepath.Join(dir, service, name)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(strconv.Itoa(int(pid))+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}
