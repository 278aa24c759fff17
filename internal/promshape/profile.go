package promshape

import (
	"fmt"
	"strings"
)

// Profile is what a target exposes: the node profile is shaped like a
// real node_exporter 1.x on an 8-CPU Linux host (its metric families,
// label sets and cardinality, _info series, 0/1 flags, byte and second
// counters, decimal values), the small one the 41 series the workload
// began with, kept for quick runs and for the tests of its mechanics.
type Profile uint8

// The profiles. Small is the zero value, so a Config written before
// profiles existed keeps its shape.
const (
	Small Profile = iota
	Node
)

// Profiles lists the profiles by name, as PROM_PROFILE takes them.
var Profiles = []Profile{Node, Small}

func (p Profile) String() string {
	switch p {
	case Small:
		return "small"
	case Node:
		return "node"
	}
	return fmt.Sprintf("profile(%d)", uint8(p))
}

// ParseProfile is the profile of the name.
func ParseProfile(name string) (Profile, error) {
	names := make([]string, len(Profiles))
	for i, p := range Profiles {
		if p.String() == name {
			return p, nil
		}
		names[i] = p.String()
	}
	return 0, fmt.Errorf("promshape: profile %q must be one of %s", name, strings.Join(names, ", "))
}

// shape is a profile's devices and the families it adds to those every
// profile has (series.go).
type shape struct {
	cpus        []string
	modes       []cpuMode
	filesystems []filesystem
	netdevs     []string
	load        int64 // node_load1 is k/load below 8
	extra       []family
}

// cpuMode is a mode of node_cpu_seconds_total and its share of a CPU's
// time, per mille.
type cpuMode struct {
	name  string
	share int64
}

// filesystem is a mounted filesystem and its size: (min + h mod n) units
// for a hash h of the target, a multiple of 1024 bytes.
type filesystem struct {
	device, fstype, mountpoint string
	min, n, unit               int64
}

const mib = 1 << 20

// The small profile: 2 CPUs with 4 modes, 2 filesystems, one interface.
var smallShape = shape{
	cpus:  []string{"0", "1"},
	modes: []cpuMode{{"idle", 850}, {"iowait", 10}, {"system", 40}, {"user", 100}},
	filesystems: []filesystem{
		{"/dev/sda1", "ext4", "/", 8, 25, gib},
		{"/dev/sdb1", "xfs", "/data", 16, 17, gib},
	},
	netdevs: []string{"eth0"},
	load:    64,
}

// The node profile: node_exporter's default collectors on an 8-CPU host
// with 3 disks, 4 network interfaces and 5 filesystems (nodeFamilies).
var nodeShape = shape{
	cpus: []string{"0", "1", "2", "3", "4", "5", "6", "7"},
	modes: []cpuMode{{"idle", 800}, {"iowait", 10}, {"irq", 5}, {"nice", 5}, {"softirq", 10},
		{"steal", 1}, {"system", 49}, {"user", 120}},
	filesystems: []filesystem{
		{"/dev/nvme0n1p2", "ext4", "/", 8, 25, gib},
		{"/dev/sdb1", "xfs", "/data", 16, 17, gib},
		{"/dev/nvme0n1p1", "vfat", "/boot/efi", 512, 1, mib},
		{"tmpfs", "tmpfs", "/run", 1, 4, gib},
		{"/dev/sda1", "ext4", "/var/lib/docker", 16, 17, gib},
	},
	netdevs: []string{"eth0", "docker0", "lo", "veth3a1f2c9"},
	load:    100,
}

func (p Profile) shape() shape {
	if p == Node {
		s := nodeShape
		s.extra = nodeFamilies()
		return s
	}
	return smallShape
}
