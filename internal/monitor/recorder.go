package monitor

import (
	"context"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/shirou/gopsutil/v4/process"

	"github.com/tsbench/tsbench/internal/summary"
)

// Recorder samples once a second while a run measures; it implements the
// runner's Monitor hook. Start and Tick only signal its goroutine, so the
// runner's interval loop never waits for /proc.
type Recorder struct {
	sampler *Sampler
	server  *summary.ServerProcess

	// OnSample, when set before Start, receives each sample as it is taken
	// (seq counts from 0 in the order of Resources.Samples), so that a
	// results store keeps them as the run goes. It runs on the sampling
	// goroutine, never on the runner's.
	OnSample func(seq int, s summary.ResourceSample)

	mu      sync.Mutex
	start   time.Time
	samples []summary.ResourceSample
	ticks   chan time.Time
	done    chan struct{}
	stopped bool
	notes   []string
	follow  *summary.ServerProcess // a server to watch from the next sample (Follow)
}

// NewRecorder watches the tool process and the host, and server when not nil.
func NewRecorder(server *summary.ServerProcess) *Recorder {
	opts := Options{Host: true, Tool: true}
	if server != nil {
		opts.Server = server.PID
	}
	return &Recorder{sampler: NewSampler(opts), server: server}
}

// Start takes the baseline sample and starts the sampling goroutine.
func (r *Recorder) Start(at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ticks != nil {
		return
	}
	r.start = at
	r.ticks = make(chan time.Time, 4)
	r.done = make(chan struct{})
	r.samples = append(r.samples, r.take(at)) // baseline: rates start from here
	go r.loop()
}

// loop takes the samples the ticks ask for. Only it uses the sampler
// while it runs (Start samples before it starts, Stop after it ended), and
// it samples without holding r.mu, so Tick never waits for /proc.
func (r *Recorder) loop() {
	defer close(r.done)
	for at := range r.ticks {
		r.switchServer()
		smp := r.take(at)
		r.mu.Lock()
		r.samples = append(r.samples, smp)
		seq := len(r.samples) - 2 // the baseline is not one of Resources.Samples
		r.mu.Unlock()
		if r.OnSample != nil {
			r.OnSample(seq, smp)
		}
	}
}

// switchServer starts watching the server Follow named, if any. Only the
// sampling goroutine (or Stop, once it ended) calls it: the sampler is not
// safe for concurrent use.
func (r *Recorder) switchServer() {
	r.mu.Lock()
	next := r.follow
	r.follow = nil
	if next != nil {
		r.server = next
		r.notes = append(r.notes, fmt.Sprintf("server process: restarted as pid %d (%s); its samples follow it from then on", next.PID, next.Name))
	}
	r.mu.Unlock()
	if next != nil {
		r.sampler.Follow(next.PID)
	}
}

// take samples now (the tick only says a second has passed).
func (r *Recorder) take(at time.Time) summary.ResourceSample {
	now := time.Now()
	if now.Before(at) {
		now = at
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	smp := r.sampler.Sample(ctx, now)
	smp.T = now.Sub(r.start).Seconds()
	return smp
}

// Follow watches server from now on in place of the server watched so far
// (a crash restarted it under a new pid); the next sample takes its
// counters as a baseline. It never waits for a sample under way.
func (r *Recorder) Follow(server *summary.ServerProcess) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.follow = server
}

// AddError records a problem to report with the samples (e.g. a server
// process that could not be found).
func (r *Recorder) AddError(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notes = append(r.notes, msg)
}

// Tick asks for a sample; it never blocks (a tick is dropped when sampling
// lags behind).
func (r *Recorder) Tick(at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ticks == nil || r.stopped {
		return
	}
	select {
	case r.ticks <- at:
	default:
	}
}

// Stop takes a last sample and returns them all.
func (r *Recorder) Stop(at time.Time) *summary.Resources {
	r.mu.Lock()
	if r.ticks == nil {
		r.mu.Unlock()
		return nil
	}
	if !r.stopped {
		r.stopped = true
		close(r.ticks)
	}
	r.mu.Unlock()
	<-r.done
	r.switchServer()
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := len(r.samples); n == 0 || at.Sub(r.samples[n-1].Time) > 200*time.Millisecond {
		r.samples = append(r.samples, r.take(at))
	}
	res := &summary.Resources{IntervalSeconds: 1, Server: r.server, Errors: append(r.notes, r.sampler.Errors()...)}
	// The baseline sample carries no rates; it is kept only when it is the
	// only one (a run shorter than a second still shows its memory).
	res.Samples = r.samples
	if len(res.Samples) > 1 {
		res.Samples = res.Samples[1:]
	}
	return res
}

// ServicesDir is where the project's service scripts keep their state,
// including each server's pid file: $TSBENCH_SERVICES_DIR, else
// /tmp/tsbench-services.
func ServicesDir() string {
	if d := os.Getenv("TSBENCH_SERVICES_DIR"); d != "" {
		return d
	}
	return "/tmp/tsbench-services"
}

// FindServer returns the server process to watch: pid when > 0 (from
// --server-pid); else, when the target is on this host, the process that
// listens on its TCP port (port > 0), or failing that the one recorded in
// the pid file of scripts/services/NAME.sh, service's script (the target's
// Driver.Service), when alive. The
// port comes first because a pid file names whatever its script started,
// which need not be the server the run talks to (another instance of the
// same database on another port, a server started by hand). It returns nil
// when there is nothing to watch, and an error only for a pid that was
// given but does not exist.
func FindServer(service, host string, port int, pid int32) (*summary.ServerProcess, error) {
	if pid > 0 {
		p, err := process.NewProcess(pid)
		if err != nil {
			return nil, fmt.Errorf("--server-pid %d: no such process", pid)
		}
		name, _ := p.Name()
		return &summary.ServerProcess{PID: pid, Name: name, Source: "--server-pid"}, nil
	}
	if !localHost(host) {
		return nil, nil
	}
	if sp := listener(host, port); sp != nil {
		return sp, nil
	}
	return pidFile(service), nil
}

// listener is the process listening on TCP port at host on this machine,
// nil when none is found or its pid cannot be read (a socket of another
// user's process cannot be traced to it). A cluster's nodes may share a
// port on loopback addresses of their own (127.0.0.2, 127.0.0.3): the
// socket bound to host's address, or to every address, is host's.
func listener(host string, port int) *summary.ServerProcess {
	if port <= 0 || port > 65535 {
		return nil
	}
	inodes := listeningInodes(listenAddr{ip: net.ParseIP(strings.Trim(host, "[]")), port: port})
	if len(inodes) == 0 {
		return nil
	}
	pid := socketHolder(inodes)
	if pid <= 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	p, err := process.NewProcessWithContext(ctx, pid)
	if err != nil {
		return nil // it exited since
	}
	name, _ := p.NameWithContext(ctx)
	return &summary.ServerProcess{PID: pid, Name: name, Source: fmt.Sprintf("listening on port %d", port)}
}

// listenAddr is where a server is sought: a port, and the address it
// answers on (nil: any of this machine's).
type listenAddr struct {
	ip   net.IP
	port int
}

// serves reports whether a socket listening on local at the port serves
// the address: bound to it, or to every address.
func (a listenAddr) serves(local net.IP) bool {
	return a.ip == nil || local.IsUnspecified() || local.Equal(a.ip)
}

// listeningInodes are the inodes of the sockets listening at a, over
// IPv4 and IPv6: from the kernel's socket diagnostics, else from its tables
// in /proc/net. Listing every connection with its process, as gopsutil
// does, also reads each process's own tables (15 ms of a run's start with
// 70 processes).
func listeningInodes(a listenAddr) map[string]bool {
	if inodes, ok := diagListening(a); ok {
		return inodes
	}
	return procListening(a)
}

// procListening reads the sockets listening at a from /proc/net.
func procListening(a listenAddr) map[string]bool {
	inodes := map[string]bool{}
	want := fmt.Sprintf(":%04X", a.port)
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			// sl local_address rem_address st ... uid timeout inode
			f := strings.Fields(line)
			if len(f) >= 10 && f[3] == "0A" && strings.HasSuffix(f[1], want) && a.serves(procAddr(strings.TrimSuffix(f[1], want))) {
				inodes[socketLink(f[9])] = true
			}
		}
	}
	return inodes
}

// procAddr is an address of /proc/net/tcp (8 hex digits) or tcp6 (32):
// 32-bit words in the host's order, little-endian here. nil if neither.
func procAddr(h string) net.IP {
	b, err := hex.DecodeString(h)
	if err != nil || len(b)%4 != 0 || (len(b) != 4 && len(b) != 16) {
		return nil
	}
	for i := 0; i < len(b); i += 4 {
		b[i], b[i+1], b[i+2], b[i+3] = b[i+3], b[i+2], b[i+1], b[i]
	}
	return net.IP(b)
}

// socketLink is what /proc/PID/fd/N links to when N is the socket of that
// inode, the key of the sets of listening sockets.
func socketLink(inode string) string { return "socket:[" + inode + "]" }

// socketHolder is the process holding one of the sockets: of several (a
// server's children may keep its listening socket), the one whose parent
// holds none, the lowest such pid. Zero when none can be read.
func socketHolder(inodes map[string]bool) int32 {
	pids, err := process.Pids()
	if err != nil {
		return 0
	}
	holders := map[int32]bool{}
	for _, pid := range pids {
		dir := "/proc/" + strconv.Itoa(int(pid)) + "/fd/"
		fds, err := os.ReadDir(dir)
		if err != nil {
			continue // another user's, or it ended
		}
		for _, fd := range fds {
			if link, err := os.Readlink(dir + fd.Name()); err == nil && inodes[link] {
				holders[pid] = true
				break
			}
		}
	}
	var best int32
	for pid := range holders {
		parent, err := (&process.Process{Pid: pid}).Ppid()
		if err == nil && holders[parent] {
			continue
		}
		if best == 0 || pid < best {
			best = pid
		}
	}
	return best
}

// ManagingPidFile is the pid file of a scripts/services script, in one
// of the services directories dirs or the run's own (ServicesDir), whose
// process is pid or one of pid's ancestors (a runuser or a pg_ctl that
// started it), else "": the file a server started again in pid's place
// must be recorded in, so that the script still stops it. The file is
// found by the process it names, not by the target's service: a
// cluster's node is recorded under a name of its own
// (thanos-cluster-receive-3), in the directory its script was given.
func ManagingPidFile(pid int32, dirs ...string) string {
	files := map[int32]string{}
	for _, dir := range append(dirs, ServicesDir()) {
		for _, pattern := range []string{"*/pid", "*/*.pid"} {
			matches, _ := filepath.Glob(filepath.Join(dir, pattern))
			for _, f := range matches {
				if p, ok := readPid(f); ok {
					files[p] = f
				}
			}
		}
	}
	if len(files) == 0 {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for p, hops := pid, 0; p > 1 && hops < 16; hops++ {
		if f, ok := files[p]; ok {
			return f
		}
		proc, err := process.NewProcessWithContext(ctx, p)
		if err != nil {
			return ""
		}
		if p, err = proc.PpidWithContext(ctx); err != nil {
			return ""
		}
	}
	return ""
}

// readPid reads a pid file: a process id on its first line.
func readPid(file string) (int32, bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	first, _, _ := strings.Cut(string(b), "\n")
	n, err := strconv.ParseInt(strings.TrimSpace(first), 10, 32)
	return int32(n), err == nil && n > 0
}

// pidFile is the live process recorded by scripts/services/NAME.sh, the
// service's script, nil when there is none.
func pidFile(svc string) *summary.ServerProcess {
	if svc == "" {
		return nil
	}
	file := filepath.Join(ServicesDir(), svc, "pid")
	n, ok := readPid(file)
	if !ok {
		return nil
	}
	p, err := process.NewProcess(n)
	if err != nil {
		return nil // a stale pid file
	}
	name, _ := p.Name()
	return &summary.ServerProcess{PID: n, Name: name, Source: file}
}

func localHost(h string) bool {
	switch strings.ToLower(strings.Trim(h, "[]")) {
	case "", "localhost", "127.0.0.1", "::1", "0.0.0.0":
		return true
	}
	return strings.HasPrefix(h, "127.")
}
