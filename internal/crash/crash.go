// Package crash kills a database server in the middle of a run and starts
// it again, so that a run can tell what the server lost of the points it
// had acknowledged (tsbench run --crash). The server is the process that
// listens on the target's port; it and its descendants get SIGKILL, as a
// power cut or the OOM killer would leave them, and a restart command of
// the user's (or the service script's resume) starts it on the data left.
package crash

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/shirou/gopsutil/v4/process"

	"github.com/tsbench/tsbench/internal/monitor"
	"github.com/tsbench/tsbench/internal/summary"
)

// Plan is one crash.
type Plan struct {
	At      time.Duration // into the measured phase
	Restart string        // shell command that starts the server again
	Target  string        // the target's name, for the service script's pid file
	Host    string
	Port    int
	// Down is how long the server stays dead before the restart: the
	// clients meet a refused connection, not just a slow one.
	Down time.Duration
	// Timeout bounds the restart command and the wait for the port.
	Timeout time.Duration
}

// Do kills the server and restarts it; measureStart is when the measured
// phase began (KilledAt counts from it). Failures are in the account's
// Error: a run goes on whatever happens here.
func (p Plan) Do(ctx context.Context, measureStart time.Time) *summary.Crash {
	c := &summary.Crash{AtS: p.At.Seconds(), Restart: p.Restart}
	sp, err := monitor.FindServer(p.Target, p.Host, p.Port, 0)
	if err != nil || sp == nil {
		c.Error = fmt.Sprintf("no server process found listening on %s (nor in a service script's pid file): nothing was killed",
			net.JoinHostPort(p.Host, strconv.Itoa(p.Port)))
		return c
	}
	c.PID, c.Process, c.Found = sp.PID, sp.Name, sp.Source
	killed := time.Now()
	c.KilledAtS = killed.Sub(measureStart).Seconds()
	if err := kill(ctx, sp.PID); err != nil {
		c.Error = err.Error()
		return c
	}
	Sleep(ctx, p.Down)
	t0 := time.Now()
	if err := p.restart(ctx); err != nil {
		c.Error = err.Error()
		return c
	}
	c.RestartS = time.Since(t0).Seconds()
	if err := p.waitPort(ctx); err != nil {
		c.Error = err.Error()
		return c
	}
	c.BackAfterS = time.Since(killed).Seconds()
	return c
}

// kill sends SIGKILL to pid and every descendant, then waits (at most
// 30 s) until they are gone: a restart must not find the old server's
// port or lock file still held.
func kill(ctx context.Context, pid int32) error {
	pids := []int32{pid}
	if p, err := process.NewProcessWithContext(ctx, pid); err == nil {
		pids = append(pids, descendants(ctx, p)...)
	}
	for _, q := range pids {
		if err := syscall.Kill(int(q), syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			return fmt.Errorf("crash: kill %d: %w", q, err)
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, q := range pids {
		for alive(q) {
			if time.Now().After(deadline) {
				return fmt.Errorf("crash: process %d still there 30 s after SIGKILL", q)
			}
			Sleep(ctx, 20*time.Millisecond)
		}
	}
	return nil
}

func descendants(ctx context.Context, p *process.Process) []int32 {
	kids, _ := p.ChildrenWithContext(ctx)
	var out []int32
	for _, k := range kids {
		out = append(out, k.Pid)
		out = append(out, descendants(ctx, k)...)
	}
	return out
}

// alive reports whether pid still answers signals. A zombie does too, and
// a restarting server may take it for itself still running (PostgreSQL's
// lock file check), so the wait lasts until its parent has reaped it.
func alive(pid int32) bool { return syscall.Kill(int(pid), 0) == nil }

// restart runs the restart command through the shell.
func (p Plan) restart(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, p.Timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "sh", "-c", p.Restart).CombinedOutput()
	if err != nil {
		return fmt.Errorf("crash: restart %q: %w: %s", p.Restart, err, lastLine(string(out)))
	}
	return nil
}

// waitPort waits until the server accepts connections again.
func (p Plan) waitPort(ctx context.Context) error {
	addr := net.JoinHostPort(p.Host, strconv.Itoa(p.Port))
	deadline := time.Now().Add(p.Timeout)
	for {
		d := net.Dialer{Timeout: time.Second}
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			conn.Close()
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("crash: %s accepts no connection %v after the restart: %w", addr, p.Timeout, err)
		}
		Sleep(ctx, 50*time.Millisecond)
	}
}

// Sleep waits d, or less if ctx is done first; d <= 0 returns at once.
// Exported because the freshness probe paces its polls the same way, and
// crash is the lower of the two packages.
func Sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
