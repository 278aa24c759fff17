// Package monitor samples resource use while a run measures: the tool's own
// process, the host (CPU, memory, disk and network I/O) and, when it runs on
// the same host, the database server process with its descendants. Samples
// are taken once a second through gopsutil; rates (CPU %, bytes/s) cover the
// time since the previous sample. The same sampler runs on a database host
// under 'tsbench monitor', which writes JSON lines that 'tsbench report
// --monitor' merges into a run by time.
package monitor

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/disk"
	"github.com/shirou/gopsutil/v4/mem"
	"github.com/shirou/gopsutil/v4/net"
	"github.com/shirou/gopsutil/v4/process"

	"github.com/tsbench/tsbench/internal/summary"
)

// Options says what a Sampler watches.
type Options struct {
	Host     bool  // the whole machine
	Tool     bool  // this process
	ToolPID  int32 // 0 = this process
	Server   int32 // a server process (with its descendants); 0 = none
	Hostname bool  // stamp samples with the host name (for 'tsbench monitor')
}

// Sampler takes samples; it keeps the previous counters to turn them into
// rates. It is not safe for concurrent use.
type Sampler struct {
	opts     Options
	hostname string
	cores    int
	last     time.Time
	host     hostCounters
	haveHost bool
	tool     treeCounters
	server   treeCounters
	errs     map[string]bool
	errList  []string
}

type hostCounters struct {
	busy, total           float64 // CPU seconds over all cores
	diskRead, diskWrite   uint64
	netRecv, netSent      uint64
	haveDisk, haveNetwork bool
}

// treeCounters are the last counters of each process of a tree.
type treeCounters map[int32]procCounters

type procCounters struct {
	cpu           float64 // user + system seconds
	read, written uint64
}

// NewSampler returns a sampler; call Sample once to set the baseline.
func NewSampler(opts Options) *Sampler {
	s := &Sampler{opts: opts, cores: runtime.NumCPU(), errs: map[string]bool{}}
	// A process's CPU times come with its start time, which gopsutil
	// computes from the boot time: read from /proc/stat for every process
	// of every sample unless kept (it does not change).
	process.EnableBootTimeCache(true)
	if opts.Tool && opts.ToolPID == 0 {
		s.opts.ToolPID = int32(os.Getpid())
	}
	if opts.Hostname {
		s.hostname, _ = os.Hostname()
	}
	if n, err := cpu.Counts(true); err == nil && n > 0 {
		s.cores = n
	}
	return s
}

// Follow watches the server process pid from the next sample on; its
// counters start afresh (a new process's CPU time is not the old one's).
func (s *Sampler) Follow(pid int32) {
	s.opts.Server = pid
	s.server = treeCounters{}
}

// Errors lists what could not be sampled, each kind once.
func (s *Sampler) Errors() []string { return append([]string(nil), s.errList...) }

func (s *Sampler) fail(what string, err error) {
	msg := fmt.Sprintf("%s: %v", what, err)
	if !s.errs[what] {
		s.errs[what] = true
		s.errList = append(s.errList, msg)
	}
}

// Sample reads the counters at now. The first sample has no rates (zeros):
// it is the baseline the next one is measured from.
func (s *Sampler) Sample(ctx context.Context, now time.Time) summary.ResourceSample {
	out := summary.ResourceSample{Time: now.UTC(), Hostname: s.hostname}
	dt := 0.0
	if !s.last.IsZero() {
		dt = now.Sub(s.last).Seconds()
	}
	if s.opts.Host {
		out.Host = s.sampleHost(ctx, dt)
	}
	if s.opts.Tool {
		out.Tool = s.sampleTree(ctx, s.opts.ToolPID, false, &s.tool, dt, "tool process")
	}
	if s.opts.Server > 0 {
		out.Server = s.sampleTree(ctx, s.opts.Server, true, &s.server, dt, "server process")
	}
	s.last = now
	return out
}

func rate(cur, prev uint64, dt float64) float64 {
	if dt <= 0 || cur < prev {
		return 0
	}
	return float64(cur-prev) / dt
}

func (s *Sampler) sampleHost(ctx context.Context, dt float64) *summary.HostUsage {
	h := &summary.HostUsage{Cores: s.cores}
	var cur hostCounters
	if ts, err := cpu.TimesWithContext(ctx, false); err == nil && len(ts) > 0 {
		t := ts[0]
		// Guest time is already part of user time on Linux.
		cur.total = t.User + t.System + t.Idle + t.Nice + t.Iowait + t.Irq + t.Softirq + t.Steal
		cur.busy = cur.total - t.Idle - t.Iowait
	} else if err != nil {
		s.fail("host CPU", err)
	}
	if vm, err := mem.VirtualMemoryWithContext(ctx); err == nil {
		h.MemUsedBytes, h.MemTotalBytes = vm.Used, vm.Total
	} else {
		s.fail("host memory", err)
	}
	if io, err := diskCounters(ctx); err == nil {
		cur.diskRead, cur.diskWrite = sumDisks(io)
		cur.haveDisk = true
	} else {
		s.fail("host disk I/O", err)
	}
	if io, err := net.IOCountersWithContext(ctx, false); err == nil && len(io) > 0 {
		cur.netRecv, cur.netSent = io[0].BytesRecv, io[0].BytesSent
		cur.haveNetwork = true
	} else if err != nil {
		s.fail("host network I/O", err)
	}
	if s.haveHost && dt > 0 {
		p := s.host
		if dtot := cur.total - p.total; dtot > 0 {
			h.CPUPercent = clampPercent(100*(cur.busy-p.busy)/dtot, 100)
		}
		if cur.haveDisk && p.haveDisk {
			h.DiskReadBytesPerS = rate(cur.diskRead, p.diskRead, dt)
			h.DiskWriteBytesPerS = rate(cur.diskWrite, p.diskWrite, dt)
		}
		if cur.haveNetwork && p.haveNetwork {
			h.NetRecvBytesPerS = rate(cur.netRecv, p.netRecv, dt)
			h.NetSentBytesPerS = rate(cur.netSent, p.netSent, dt)
		}
	}
	s.host, s.haveHost = cur, true
	return h
}

func clampPercent(p, hi float64) float64 {
	if p < 0 {
		return 0
	}
	if p > hi {
		return hi
	}
	return p
}

// partition matches names of partitions and virtual devices, whose I/O is
// already counted in their whole disk (sda1 in sda, nvme0n1p1 in nvme0n1) or
// is not disk I/O (loop, ram, zram).
var partition = regexp.MustCompile(`^(loop|ram|zram)\d+$|^(sd|vd|xvd|hd)[a-z]+\d+$|^(nvme\d+n\d+|mmcblk\d+)p\d+$`)

// diskCounters are each block device's bytes read and written: on Linux
// from /proc/diskstats (sectors of 512 bytes, whatever the device's own
// size, as gopsutil counts them), since disk.IOCounters also reads each
// disk's serial number and label from udev's database on every call, most
// of a sample's cost; elsewhere gopsutil's.
func diskCounters(ctx context.Context) (map[string]disk.IOCountersStat, error) {
	data, err := os.ReadFile("/proc/diskstats")
	if err != nil {
		return disk.IOCountersWithContext(ctx)
	}
	out := map[string]disk.IOCountersStat{}
	for _, line := range strings.Split(string(data), "\n") {
		// major minor name reads merged sectors-read ms writes merged sectors-written ...
		f := strings.Fields(line)
		if len(f) < 10 {
			continue
		}
		read, err1 := strconv.ParseUint(f[5], 10, 64)
		written, err2 := strconv.ParseUint(f[9], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("/proc/diskstats: %q: not a count of sectors", line)
		}
		out[f[2]] = disk.IOCountersStat{Name: f[2], ReadBytes: read * 512, WriteBytes: written * 512}
	}
	return out, nil
}

// sumDisks adds the bytes read and written by every whole disk.
func sumDisks(io map[string]disk.IOCountersStat) (read, written uint64) {
	for name, st := range io {
		if partition.MatchString(name) || strings.HasPrefix(name, "dm-") {
			continue // device-mapper volumes sit on disks already counted
		}
		read += st.ReadBytes
		written += st.WriteBytes
	}
	return read, written
}

// sampleTree sums the counters of pid and, with children, its descendants
// (a PostgreSQL postmaster's backends do the work).
func (s *Sampler) sampleTree(ctx context.Context, pid int32, children bool, prev *treeCounters, dt float64, what string) *summary.ProcessUsage {
	pids := []int32{pid}
	if children {
		pids = append(pids, descendants(ctx, pid)...)
	}
	u := &summary.ProcessUsage{PID: pid}
	cur := treeCounters{}
	var dCPU float64
	var dRead, dWrite uint64
	for i, p := range pids {
		proc, err := process.NewProcessWithContext(ctx, p)
		if err != nil {
			if i == 0 {
				s.fail(what, fmt.Errorf("pid %d: %w", p, err))
				return nil
			}
			continue // a child that ended
		}
		var c procCounters
		if t, err := proc.TimesWithContext(ctx); err == nil {
			c.cpu = t.User + t.System
		} else if i == 0 {
			s.fail(what+" CPU", err)
		}
		if m, err := proc.MemoryInfoWithContext(ctx); err == nil {
			u.RSSBytes += m.RSS
		} else if i == 0 {
			s.fail(what+" memory", err)
		}
		if io, err := proc.IOCountersWithContext(ctx); err == nil {
			c.read, c.written = io.ReadBytes, io.WriteBytes
		} else if i == 0 {
			s.fail(what+" I/O", err)
		}
		cur[p] = c
		u.Processes++
		if *prev == nil {
			continue
		}
		// A process not seen before started after the last sample: all of
		// its counters belong to this interval.
		old := (*prev)[p]
		if c.cpu > old.cpu {
			dCPU += c.cpu - old.cpu
		}
		if c.read > old.read {
			dRead += c.read - old.read
		}
		if c.written > old.written {
			dWrite += c.written - old.written
		}
	}
	if *prev != nil && dt > 0 {
		u.CPUPercent = clampPercent(100*dCPU/dt, 100*float64(s.cores))
		u.ReadBytesPerS = float64(dRead) / dt
		u.WriteBytesPerS = float64(dWrite) / dt
	}
	*prev = cur
	return u
}

// descendants lists every process below pid, in ascending order.
func descendants(ctx context.Context, pid int32) []int32 {
	out, ok := childLists(pid)
	if !ok {
		out = scanParents(ctx, pid)
	}
	slices.Sort(out)
	return out
}

// haveChildLists says whether this kernel keeps /proc/PID/task/TID/children
// (CONFIG_PROC_CHILDREN), checked on this process's main thread.
var haveChildLists = sync.OnceValue(func() bool {
	pid := strconv.Itoa(os.Getpid())
	_, err := os.Stat("/proc/" + pid + "/task/" + pid + "/children")
	return err == nil
})

// childLists walks the tree below root through the kernel's list of each
// thread's children: a directory and one small file per thread of the
// tree's processes, where asking every process on the host for its parent
// reads all of /proc (2 ms and 580 KB per sample with 70 processes, most
// of the sample's cost). ok is false where the kernel keeps no such lists.
func childLists(root int32) (out []int32, ok bool) {
	if !haveChildLists() {
		return nil, false
	}
	seen := map[int32]bool{root: true}
	for queue := []int32{root}; len(queue) > 0; queue = queue[1:] {
		dir := "/proc/" + strconv.Itoa(int(queue[0])) + "/task/"
		tasks, err := os.ReadDir(dir)
		if err != nil {
			continue // the process ended
		}
		for _, t := range tasks {
			list, err := os.ReadFile(dir + t.Name() + "/children")
			if err != nil {
				continue // the thread ended
			}
			for _, f := range strings.Fields(string(list)) {
				k, err := strconv.ParseInt(f, 10, 32)
				if err == nil && !seen[int32(k)] {
					seen[int32(k)] = true
					out = append(out, int32(k))
					queue = append(queue, int32(k))
				}
			}
		}
	}
	return out, true
}

// scanParents finds the tree below pid by asking every process for its
// parent.
func scanParents(ctx context.Context, pid int32) []int32 {
	// The pids alone, each asked for its parent: ProcessesWithContext
	// would also read each process's start time (and the boot time),
	// which more than doubles the cost (4.9 ms against 1.9 with 70
	// processes).
	all, err := process.PidsWithContext(ctx)
	if err != nil {
		return nil
	}
	kids := map[int32][]int32{}
	for _, p := range all {
		proc := process.Process{Pid: p}
		if pp, err := proc.PpidWithContext(ctx); err == nil && pp != p {
			kids[pp] = append(kids[pp], p)
		}
	}
	var out []int32
	seen := map[int32]bool{pid: true}
	for queue := []int32{pid}; len(queue) > 0; queue = queue[1:] {
		for _, k := range kids[queue[0]] {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
				queue = append(queue, k)
			}
		}
	}
	return out
}
