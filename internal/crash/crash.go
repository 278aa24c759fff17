// Package crash kills a database server in the middle of a run and starts
// it again, so that a run can tell what the server lost of the points it
// had acknowledged (tsbench run --crash). The server is the process that
// listens on the target's port; it and its descendants get SIGKILL, as a
// power cut or the OOM killer would leave them; then the killed process is
// started again as it ran, on the data left (or by a command of the
// user's, or, where /proc cannot say how it ran, by its service script).
package crash

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
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
	At time.Duration // into the measured phase
	// Restart is the user's shell command that starts the server again
	// (CRASH_RESTART). Without one the killed process is started again as
	// it ran: its command line, directory, environment and user, read from
	// /proc before the kill; where /proc cannot tell, Fallback (a service
	// script's resume) runs instead.
	Restart  string
	Fallback string
	Service  string // the target's scripts/services script (Driver.Service), whose pid file names the server
	Host     string
	Port     int
	// Node, with several hosts, says which of them Host:Port is ("3 of
	// 3"): the fault hits that node alone, the others run on.
	Node string
	// Failover are the database's other nodes ("host:port"), for a run
	// that follows a failover (a PostgreSQL URL's
	// target_session_attrs=read-write): Restart then promotes one of them,
	// and the server is back when the first of Host:Port and these that
	// accepts connections takes work (Ready).
	Failover []string
	// Down is how long the server stays dead before the restart: the
	// clients meet a refused connection, not just a slow one.
	Down time.Duration
	// Timeout bounds the restart command and the wait for the port.
	Timeout time.Duration
	// OnRestart, when set, hears of the server's new process once its port
	// answers again (the resources sampler follows it).
	OnRestart func(*summary.ServerProcess)
	// Command, when set, makes the fault instead of the kill: the user's
	// shell command (CRASH_COMMAND), for a server tsbench did not start or
	// cannot reach as a process (a pod, a service, another host). Restart
	// then runs only when given; either way the run waits until the server
	// takes work again.
	Command string
	// DownWithin bounds the wait for the server to stop taking work after
	// Command (default 30 s): a command that returns before its fault
	// lands (systemctl kill, kubectl delete) is waited for, one that did
	// nothing is reported.
	DownWithin time.Duration
	// Pause, when set, stops the server instead of killing it: SIGSTOP to
	// it and its descendants, SIGCONT Pause later (CRASH_PAUSE). Nothing
	// restarts; the run waits until the server takes work again.
	Pause time.Duration
	// Partition, when set, cuts the run's connections off the server for
	// that long instead of killing it (CRASH_PARTITION), through Cut (the
	// relay the connections go through); the server runs on.
	Partition time.Duration
	Cut       func(ctx context.Context, d time.Duration)
	// Ready, when set, says whether the server takes work again once its
	// port answers: a PostgreSQL in crash recovery accepts connections and
	// refuses them ("the database system is not yet accepting
	// connections"). It is called until it returns nil, within Timeout.
	Ready func(ctx context.Context) error
}

// CalledOff is what a run that ended before the fault was due says of
// it, naming the fault the plan makes.
func (p Plan) CalledOff() string {
	const ended = "the measured phase ended before the "
	switch {
	case p.Command != "":
		return ended + "fault command was due: it was not run"
	case p.Partition > 0:
		return ended + "partition was due: nothing was cut"
	case p.Pause > 0:
		return ended + "pause was due: nothing was stopped"
	}
	return ended + "crash was due: nothing was killed"
}

// Do kills the server and restarts it; measureStart is when the measured
// phase began (KilledAt counts from it). Failures are in the account's
// Error: a run goes on whatever happens here.
func (p Plan) Do(ctx context.Context, measureStart time.Time) *summary.Crash {
	c := &summary.Crash{AtS: p.At.Seconds(), Restart: p.Restart}
	if p.Node != "" {
		c.Node, c.Server = p.Node, p.addr()
	}
	if p.Command != "" {
		p.byCommand(ctx, measureStart, c)
		return c
	}
	if p.Partition > 0 {
		p.partition(ctx, measureStart, c)
		return c
	}
	sp, err := monitor.FindServer(p.Service, p.Host, p.Port, 0)
	if err != nil || sp == nil {
		c.Error = fmt.Sprintf("no server process found listening on %s (nor in a service script's pid file): nothing was killed",
			net.JoinHostPort(p.Host, strconv.Itoa(p.Port)))
		return c
	}
	c.PID, c.Process, c.Found = sp.PID, sp.Name, sp.Source
	if p.Pause > 0 {
		p.pause(ctx, sp.PID, measureStart, c)
		return c
	}
	restart, err := p.restarter(sp.PID, c)
	if err != nil {
		c.Error = err.Error() + ": nothing was killed"
		return c
	}
	pidFile := monitor.ManagingPidFile(sp.PID, servicesDirOf(sp.PID)...)
	killed := time.Now()
	c.KilledAtS = killed.Sub(measureStart).Seconds()
	if err := kill(ctx, sp.PID); err != nil {
		c.Error = err.Error()
		return c
	}
	Sleep(ctx, p.Down)
	t0 := time.Now()
	if err := restart(ctx); err != nil {
		c.Error = err.Error()
		return c
	}
	c.RestartS = time.Since(t0).Seconds()
	if err := p.waitPort(ctx); err != nil {
		c.Error = err.Error()
		return c
	}
	if err := p.waitReady(ctx); err != nil {
		c.Error = err.Error()
		return c
	}
	c.BackAfterS = time.Since(killed).Seconds()
	if now, at := listenerOf(p); now != nil {
		c.NewPID = now.PID
		if at != p.addr() {
			c.FailedOverTo = at
			pidFile = "" // the pid file names the node killed, which stays down
		}
		if pidFile != "" {
			// The service script stops what its pid file names: the
			// restarted server takes the killed one's place there.
			_ = os.WriteFile(pidFile, []byte(strconv.Itoa(int(now.PID))+"\n"), 0o644)
		}
		if p.OnRestart != nil {
			p.OnRestart(now)
		}
	}
	return c
}

// partition cuts the run's connections off the server for Partition and
// waits until the server takes work again.
func (p Plan) partition(ctx context.Context, measureStart time.Time, c *summary.Crash) {
	c.Server, c.PartitionS = p.addr(), p.Partition.Seconds()
	if p.Cut == nil {
		c.Error = "crash: no relay before the server to cut: nothing was done"
		return
	}
	cut := time.Now()
	c.KilledAtS = cut.Sub(measureStart).Seconds()
	p.Cut(ctx, p.Partition)
	if err := p.waitReady(ctx); err != nil {
		c.Error = err.Error()
		return
	}
	c.BackAfterS = time.Since(cut).Seconds()
}

// pause stops the server and its descendants for Pause, lets them go on,
// and waits until the server takes work again.
func (p Plan) pause(ctx context.Context, pid int32, measureStart time.Time, c *summary.Crash) {
	pids := tree(ctx, pid)
	stopped := time.Now()
	c.KilledAtS, c.PauseS = stopped.Sub(measureStart).Seconds(), p.Pause.Seconds()
	err := signal(pids, syscall.SIGSTOP)
	if err == nil {
		Sleep(ctx, p.Pause) // cut short when the run is interrupted
	}
	// SIGCONT whatever happened: a server left stopped would hold the run
	// and whoever uses it next.
	if cerr := signal(pids, syscall.SIGCONT); err == nil {
		err = cerr
	}
	if err == nil {
		err = p.waitReady(ctx)
	}
	if err != nil {
		c.Error = err.Error()
		return
	}
	c.BackAfterS = time.Since(stopped).Seconds()
}

// byCommand makes the fault with the user's command, sees the server go
// down, runs the restart command where there is one, and waits until the
// server takes work again.
func (p Plan) byCommand(ctx context.Context, measureStart time.Time, c *summary.Crash) {
	c.Command, c.Found = hideSecrets(p.Command), "CRASH_COMMAND"
	if p.Restart != "" {
		c.RestartedBy = "CRASH_RESTART"
	}
	ran := time.Now()
	c.KilledAtS = ran.Sub(measureStart).Seconds()
	if err := p.shell(ctx, "fault", p.Command); err != nil {
		c.Error = err.Error()
		return
	}
	if err := p.waitDown(ctx); err != nil {
		c.Error = err.Error()
		return
	}
	Sleep(ctx, p.Down)
	if p.Restart != "" {
		t0 := time.Now()
		if err := p.shell(ctx, "restart", p.Restart); err != nil {
			c.Error = err.Error()
			return
		}
		c.RestartS = time.Since(t0).Seconds()
	}
	if err := p.waitPort(ctx); err != nil {
		c.Error = err.Error()
		return
	}
	if err := p.waitReady(ctx); err != nil {
		c.Error = err.Error()
		return
	}
	c.BackAfterS = time.Since(ran).Seconds()
}

// defaultDownWithin is Plan.DownWithin's default.
const defaultDownWithin = 30 * time.Second

// waitDown waits until the server stops taking work: its port refuses
// connections, or Ready fails.
func (p Plan) waitDown(ctx context.Context) error {
	within := cmp.Or(p.DownWithin, defaultDownWithin)
	deadline := time.Now().Add(within)
	for {
		d := net.Dialer{Timeout: time.Second}
		conn, err := d.DialContext(ctx, "tcp", p.addr())
		if err != nil {
			return nil
		}
		conn.Close()
		if p.Ready != nil {
			try, cancel := context.WithTimeout(ctx, 2*time.Second)
			err = p.Ready(try)
			cancel()
			if err != nil {
				return nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("crash: %s still took work %v after the fault command %q: no fault seen", p.addr(), within, hideSecrets(p.Command))
		}
		Sleep(ctx, 20*time.Millisecond)
	}
}

// CanRestart checks, before the run, that the server could be started
// again after the kill: a restart command, or a server process whose image
// /proc shows, or a fallback. A server not found now is left to the crash
// itself to report (it may not be up yet).
func (p Plan) CanRestart() error {
	if p.Restart != "" || p.Fallback != "" {
		return nil
	}
	sp, err := monitor.FindServer(p.Service, p.Host, p.Port, 0)
	if err != nil || sp == nil {
		return nil
	}
	if _, err := readImage(sp.PID); err != nil {
		return fmt.Errorf("%w; set CRASH_RESTART (--crash-restart) to the command that starts the server again on its data", err)
	}
	return nil
}

// restarter decides, before the kill, how the server will be started
// again, and says so in c (Restart, RestartedBy): the user's command; else
// the process's own image; else the fallback script.
func (p Plan) restarter(pid int32, c *summary.Crash) (func(context.Context) error, error) {
	if p.Restart != "" {
		c.RestartedBy = "CRASH_RESTART"
		return func(ctx context.Context) error { return p.shell(ctx, "restart", p.Restart) }, nil
	}
	img, err := readImage(pid)
	if err == nil {
		c.Restart, c.RestartedBy = img.String(), fmt.Sprintf("its own command line, directory, environment and user, read from /proc/%d before the kill", pid)
		return func(context.Context) error { _, err := img.start(); return err }, nil
	}
	if p.Fallback == "" {
		return nil, fmt.Errorf("%w; set CRASH_RESTART (--crash-restart) to the command that starts the server again on its data", err)
	}
	c.Restart, c.RestartedBy = p.Fallback, fmt.Sprintf("its service script (%v)", err)
	return func(ctx context.Context) error { return p.shell(ctx, "restart", p.Fallback) }, nil
}

// servicesDirOf is the services directory in pid's environment, where a
// script given a TSBENCH_SERVICES_DIR of its own (a test's ring) recorded
// it; none when it has none or it cannot be read.
func servicesDirOf(pid int32) []string {
	img, err := readImage(pid)
	if err != nil {
		return nil
	}
	for _, kv := range img.env {
		if v, ok := strings.CutPrefix(kv, "TSBENCH_SERVICES_DIR="); ok && v != "" {
			return []string{v}
		}
	}
	return nil
}

// addr is the killed server's address.
func (p Plan) addr() string { return net.JoinHostPort(p.Host, strconv.Itoa(p.Port)) }

// addrs are the addresses the server may be back at: its own, then the
// nodes it may fail over to.
func (p Plan) addrs() []string { return append([]string{p.addr()}, p.Failover...) }

// listenerOf is the process listening now at the first of the plan's
// addresses that has one, and that address.
func listenerOf(p Plan) (*summary.ServerProcess, string) {
	for _, a := range p.addrs() {
		host, port, err := net.SplitHostPort(a)
		if err != nil {
			continue
		}
		n, _ := strconv.Atoi(port)
		if sp, err := monitor.FindServer("", host, n, 0); err == nil && sp != nil {
			return sp, a
		}
	}
	return nil, ""
}

// kill sends SIGKILL to pid and every descendant, then waits (at most
// 30 s) until they are gone: a restart must not find the old server's
// port or lock file still held.
func kill(ctx context.Context, pid int32) error {
	pids := tree(ctx, pid)
	if err := signal(pids, syscall.SIGKILL); err != nil {
		return err
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

// tree is pid and every descendant of it.
func tree(ctx context.Context, pid int32) []int32 {
	pids := []int32{pid}
	if p, err := process.NewProcessWithContext(ctx, pid); err == nil {
		pids = append(pids, descendants(ctx, p)...)
	}
	return pids
}

// signal sends sig to every process of pids; one already gone is no
// error.
func signal(pids []int32, sig syscall.Signal) error {
	for _, q := range pids {
		if err := syscall.Kill(int(q), sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			return fmt.Errorf("crash: %v to %d: %w", sig, q, err)
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

// shell runs a command of the user's (what: fault or restart) through the
// shell, within the plan's timeout.
func (p Plan) shell(ctx context.Context, what, command string) error {
	ctx, cancel := context.WithTimeout(ctx, p.Timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "sh", "-c", command).CombinedOutput()
	if err != nil {
		return fmt.Errorf("crash: %s %q: %w: %s", what, hideSecrets(command), err, lastLine(string(out)))
	}
	return nil
}

// waitPort waits until the server, or a node it fails over to, accepts
// connections again.
func (p Plan) waitPort(ctx context.Context) error {
	deadline := time.Now().Add(p.Timeout)
	for {
		var err error
		for _, addr := range p.addrs() {
			d := net.Dialer{Timeout: time.Second}
			var conn net.Conn
			if conn, err = d.DialContext(ctx, "tcp", addr); err == nil {
				conn.Close()
				return nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("crash: %s accepts no connection %v after the restart: %w", strings.Join(p.addrs(), ", "), p.Timeout, err)
		}
		Sleep(ctx, 50*time.Millisecond)
	}
}

// waitReady waits until Ready says the restarted server takes work.
func (p Plan) waitReady(ctx context.Context) error {
	if p.Ready == nil {
		return nil
	}
	deadline := time.Now().Add(p.Timeout)
	for {
		try, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := p.Ready(try)
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("crash: the server takes no work %v after the fault: %w", p.Timeout, err)
		}
		Sleep(ctx, 100*time.Millisecond)
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
