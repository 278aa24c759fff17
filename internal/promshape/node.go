package promshape

// The node profile's families beyond those every profile has: the series
// of node_exporter 1.x's default collectors on an 8-CPU Linux host with 3
// disks, 4 network interfaces and 5 filesystems, its Go runtime's and
// process' series and its HTTP handler's, about 870 series a target in
// all (a real node_exporter exposes 800 to 1,300). The names and label
// sets are node_exporter's; the values are the model's (padRule), made
// to look like theirs: integers, hundredths, microseconds, flags.
//
// No query of the read load sums these values (only counts them), so
// they need not be exact in any order as the queried families' must be.

// padRule is how a value of these families is made.
type padRule uint8

const (
	padOne      padRule = iota // 1: an _info series, a flag that is set
	padZero                    // 0: a flag that is clear (read-only, errors)
	padFlag                    // 1, but 0 on one target in 32 (a collector failing there)
	padCount                   // an integer counter, up to 1,000 a scrape
	padBytes                   // a byte counter, up to 1 MiB a scrape
	padSeconds                 // a counter of seconds in hundredths
	padGauge                   // an integer gauge, 0 to 10,000
	padMemory                  // a byte gauge, a multiple of 4 KiB below 4 GiB
	padDecimal                 // a gauge in hundredths, 0 to 100
	padDuration                // seconds in microseconds, below 0.1
	padConst                   // an integer constant of the target, 1 to 65,536
	padClock                   // node_time_seconds: the scrape's time, in seconds
	padBoot                    // node_boot_time_seconds: a time before the first scrape
)

// family is a metric family: a series for each row of its dimensions,
// crossed in order, each with the fixed label pairs too.
type family struct {
	name  string
	rule  padRule
	dims  []dim
	fixed []string
}

// dim is a dimension of a family: its labels and their values, a row a
// series (a filesystem's device, fstype and mountpoint go together).
type dim struct {
	labels []string
	rows   [][]string
}

// col is a dimension of one label.
func col(label string, values ...string) dim {
	d := dim{labels: []string{label}}
	for _, v := range values {
		d.rows = append(d.rows, []string{v})
	}
	return d
}

// fam is a family.
func fam(name string, r padRule, dims ...dim) family { return family{name: name, rule: r, dims: dims} }

// info is an _info family: 1, its labels fixed.
func info(name string, fixed ...string) family { return family{name: name, rule: padOne, fixed: fixed} }

// each adds a family per name, prefix+name, all of the rule and dims.
func each(out []family, prefix string, r padRule, names []string, dims ...dim) []family {
	for _, n := range names {
		out = append(out, fam(prefix+n, r, dims...))
	}
	return out
}

// nodeFamilies lists the node profile's other families in their order.
func nodeFamilies() []family {
	s := nodeShape
	cpu := col("cpu", s.cpus...)
	netdev := col("device", s.netdevs...)
	disk := col("device", "nvme0n1", "sda", "sdb")
	fs := dim{labels: []string{"device", "fstype", "mountpoint"}}
	for _, f := range s.filesystems {
		fs.rows = append(fs.rows, []string{f.device, f.fstype, f.mountpoint})
	}
	var out []family
	out = append(out, fam("node_cpu_guest_seconds_total", padSeconds, cpu, col("mode", "nice", "user")))
	out = each(out, "node_cpu_", padGauge, []string{"scaling_frequency_hertz", "frequency_max_hertz", "frequency_min_hertz",
		"scaling_frequency_max_hertz", "scaling_frequency_min_hertz"}, cpu)
	out = append(out, fam("node_cpu_scaling_governor", padFlag, cpu, col("governor", "performance", "powersave")),
		fam("node_cpu_core_throttles_total", padCount, col("core", "0", "1", "2", "3"), col("package", "0")),
		fam("node_cpu_package_throttles_total", padCount, col("package", "0")))
	out = each(out, "node_schedstat_", padSeconds, []string{"running_seconds_total", "waiting_seconds_total"}, cpu)
	out = append(out, fam("node_schedstat_timeslices_total", padCount, cpu))
	out = each(out, "node_softnet_", padCount, []string{"backlog_len", "dropped_total", "flow_limit_count_total",
		"processed_total", "received_rps_total", "times_squeezed_total"}, cpu)
	out = each(out, "node_load", padDecimal, []string{"5", "15"})
	out = each(out, "node_memory_", padMemory, []string{"Active_anon_bytes", "Active_bytes", "Active_file_bytes",
		"AnonHugePages_bytes", "AnonPages_bytes", "Bounce_bytes", "Buffers_bytes", "Cached_bytes", "CommitLimit_bytes",
		"Committed_AS_bytes", "DirectMap1G_bytes", "DirectMap2M_bytes", "DirectMap4k_bytes", "Dirty_bytes",
		"FileHugePages_bytes", "FilePmdMapped_bytes", "HardwareCorrupted_bytes", "Hugepagesize_bytes", "Hugetlb_bytes",
		"Inactive_anon_bytes", "Inactive_bytes", "Inactive_file_bytes", "KReclaimable_bytes", "KernelStack_bytes",
		"Mapped_bytes", "MemFree_bytes", "Mlocked_bytes", "NFS_Unstable_bytes", "PageTables_bytes", "Percpu_bytes",
		"SReclaimable_bytes", "SUnreclaim_bytes", "ShmemHugePages_bytes", "ShmemPmdMapped_bytes", "Shmem_bytes",
		"Slab_bytes", "SwapCached_bytes", "SwapFree_bytes", "SwapTotal_bytes", "Unevictable_bytes", "VmallocChunk_bytes",
		"VmallocTotal_bytes", "VmallocUsed_bytes", "WritebackTmp_bytes", "Writeback_bytes"})
	out = each(out, "node_memory_", padConst, []string{"HugePages_Free", "HugePages_Rsvd", "HugePages_Surp", "HugePages_Total"})
	out = append(out, fam("node_filesystem_free_bytes", padMemory, fs), fam("node_filesystem_files", padConst, fs),
		fam("node_filesystem_files_free", padGauge, fs), fam("node_filesystem_readonly", padZero, fs),
		fam("node_filesystem_device_error", padZero, fs))
	out = diskFamilies(out, disk)
	out = netFamilies(out, netdev)
	out = each(out, "node_netstat_", padCount, []string{"Icmp6_InErrors", "Icmp6_InMsgs", "Icmp6_OutMsgs", "Icmp_InErrors",
		"Icmp_InMsgs", "Icmp_OutMsgs", "Ip6_InOctets", "Ip6_OutOctets", "IpExt_InOctets", "IpExt_OutOctets", "Ip_Forwarding",
		"TcpExt_ListenDrops", "TcpExt_ListenOverflows", "TcpExt_SyncookiesFailed", "TcpExt_SyncookiesRecv",
		"TcpExt_SyncookiesSent", "TcpExt_TCPSynRetrans", "TcpExt_TCPTimeouts", "Tcp_ActiveOpens", "Tcp_CurrEstab",
		"Tcp_InErrs", "Tcp_InSegs", "Tcp_OutRsts", "Tcp_OutSegs", "Tcp_PassiveOpens", "Tcp_RetransSegs", "Udp6_InDatagrams",
		"Udp6_InErrors", "Udp6_NoPorts", "Udp6_OutDatagrams", "Udp6_RcvbufErrors", "Udp6_SndbufErrors", "UdpLite6_InErrors",
		"UdpLite_InErrors", "Udp_InDatagrams", "Udp_InErrors", "Udp_NoPorts", "Udp_OutDatagrams", "Udp_RcvbufErrors",
		"Udp_SndbufErrors"})
	out = each(out, "node_vmstat_", padCount, []string{"oom_kill", "pgfault", "pgmajfault", "pgpgin", "pgpgout", "pswpin", "pswpout"})
	out = each(out, "node_sockstat_", padGauge, []string{"FRAG6_inuse", "FRAG6_memory", "FRAG_inuse", "FRAG_memory",
		"RAW6_inuse", "RAW_inuse", "TCP6_inuse", "TCP_alloc", "TCP_inuse", "TCP_mem", "TCP_mem_bytes", "TCP_orphan",
		"TCP_tw", "UDP6_inuse", "UDPLITE6_inuse", "UDPLITE_inuse", "UDP_inuse", "UDP_mem", "UDP_mem_bytes", "sockets_used"})
	out = each(out, "node_timex_", padDecimal, []string{"estimated_error_seconds", "frequency_adjustment_ratio",
		"loop_time_constant", "maxerror_seconds", "offset_seconds", "pps_calibration_total", "pps_error_total",
		"pps_frequency_hertz", "pps_jitter_seconds", "pps_jitter_total", "pps_shift_seconds", "pps_stability_exceeded_total",
		"pps_stability_hertz", "status", "sync_status", "tai_offset_seconds", "tick_seconds"})
	out = hostFamilies(out)
	return runtimeFamilies(out)
}

// diskFamilies adds node_disk_*, a series a disk each.
func diskFamilies(out []family, disk dim) []family {
	out = each(out, "node_disk_", padCount, []string{"reads_completed_total", "reads_merged_total", "writes_completed_total",
		"writes_merged_total", "io_now", "discards_completed_total", "discards_merged_total", "discarded_sectors_total",
		"flush_requests_total"}, disk)
	out = each(out, "node_disk_", padBytes, []string{"read_bytes_total", "written_bytes_total"}, disk)
	out = each(out, "node_disk_", padSeconds, []string{"read_time_seconds_total", "write_time_seconds_total",
		"io_time_seconds_total", "io_time_weighted_seconds_total", "discard_time_seconds_total",
		"flush_requests_time_seconds_total"}, disk)
	return append(out, family{name: "node_disk_info", rule: padOne, dims: []dim{disk}, fixed: []string{"major", "259", "minor", "0"}})
}

// netFamilies adds node_network_*, a series an interface each, but for
// node_network_receive_bytes_total, which every profile has.
func netFamilies(out []family, netdev dim) []family {
	out = each(out, "node_network_receive_", padCount, []string{"packets_total", "errs_total", "drop_total", "fifo_total",
		"frame_total", "compressed_total", "multicast_total", "nohandler_total"}, netdev)
	out = append(out, fam("node_network_transmit_bytes_total", padBytes, netdev))
	out = each(out, "node_network_transmit_", padCount, []string{"packets_total", "errs_total", "drop_total", "fifo_total",
		"colls_total", "carrier_total", "compressed_total"}, netdev)
	out = each(out, "node_network_", padConst, []string{"mtu_bytes", "speed_bytes", "iface_id", "iface_link", "iface_link_mode",
		"net_dev_group", "protocol_type", "transmit_queue_length", "address_assign_type", "name_assign_type", "flags"}, netdev)
	out = each(out, "node_network_", padFlag, []string{"up", "carrier", "dormant"}, netdev)
	out = each(out, "node_network_", padCount, []string{"carrier_changes_total", "carrier_up_changes_total",
		"carrier_down_changes_total"}, netdev)
	return append(out, family{name: "node_network_info", rule: padOne, dims: []dim{netdev},
		fixed: []string{"duplex", "full", "operstate", "up"}})
}

// hostFamilies adds the host's own series: collectors, sensors, clocks
// and the kernel's counters.
func hostFamilies(out []family) []family {
	collectors := col("collector", "arp", "bcache", "bonding", "btrfs", "conntrack", "cpu", "cpufreq", "diskstats", "dmi",
		"edac", "entropy", "fibrechannel", "filefd", "filesystem", "hwmon", "infiniband", "ipvs", "loadavg", "mdadm",
		"meminfo", "netclass", "netdev", "netstat", "nfs", "nfsd", "nvme", "os", "powersupplyclass", "pressure", "rapl",
		"schedstat", "selinux", "sockstat", "softnet", "stat", "tapestats", "thermal_zone", "time", "timex", "udp_queues",
		"uname", "vmstat", "watchdog", "xfs", "zfs")
	out = append(out, fam("node_scrape_collector_success", padFlag, collectors),
		fam("node_scrape_collector_duration_seconds", padDuration, collectors))
	sensor := col("sensor", "temp1", "temp2", "temp3", "temp4", "temp5", "temp6", "temp7", "temp8", "temp9")
	chip := col("chip", "platform_coretemp_0")
	out = each(out, "node_hwmon_temp_", padDecimal, []string{"celsius", "crit_celsius", "max_celsius"}, chip, sensor)
	out = append(out, fam("node_hwmon_temp_crit_alarm_celsius", padZero, chip, sensor),
		family{name: "node_hwmon_sensor_label", rule: padOne, dims: []dim{chip, sensor}, fixed: []string{"label", "Core"}},
		family{name: "node_hwmon_chip_names", rule: padOne, dims: []dim{chip}, fixed: []string{"chip_name", "coretemp"}},
		fam("node_thermal_zone_temp", padDecimal, col("type", "acpitz", "x86_pkg_temp"), col("zone", "0")),
		fam("node_cooling_device_cur_state", padConst, col("name", "0", "1", "2", "3"), col("type", "Processor")),
		fam("node_cooling_device_max_state", padConst, col("name", "0", "1", "2", "3"), col("type", "Processor")),
		fam("node_rapl_package_joules_total", padSeconds, col("index", "0"), col("path", "/sys/class/powercap/intel-rapl:0")),
		fam("node_edac_correctable_errors_total", padZero, col("controller", "0")),
		fam("node_edac_uncorrectable_errors_total", padZero, col("controller", "0")),
		fam("node_arp_entries", padGauge, col("device", "eth0", "docker0")),
		fam("node_udp_queues", padGauge, col("ip", "v4", "v6"), col("queue", "rx", "tx")),
		fam("node_time_clocksource_available_info", padOne, col("clocksource", "acpi_pm", "hpet", "tsc")),
		family{name: "node_time_clocksource_current_info", rule: padOne, fixed: []string{"clocksource", "tsc"}},
		family{name: "node_time_zone_offset_seconds", rule: padZero, fixed: []string{"time_zone", "UTC"}},
		fam("node_time_seconds", padClock), fam("node_boot_time_seconds", padBoot))
	out = each(out, "node_pressure_", padSeconds, []string{"cpu_waiting_seconds_total", "io_stalled_seconds_total",
		"io_waiting_seconds_total", "irq_stalled_seconds_total", "memory_stalled_seconds_total", "memory_waiting_seconds_total"})
	out = each(out, "node_nf_conntrack_", padGauge, []string{"entries", "entries_limit"})
	out = each(out, "node_nf_conntrack_stat_", padCount, []string{"drop", "early_drop", "found", "ignore", "insert",
		"insert_failed", "invalid", "search_restart"})
	out = each(out, "node_", padGauge, []string{"filefd_allocated", "filefd_maximum", "entropy_available_bits",
		"entropy_pool_size_bits", "procs_blocked", "procs_running"})
	out = each(out, "node_", padCount, []string{"context_switches_total", "forks_total", "intr_total"})
	return append(out,
		info("node_uname_info", "domainname", "(none)", "machine", "x86_64", "nodename", "node", "release", "6.8.0-49-generic",
			"sysname", "Linux", "version", "#49-Ubuntu SMP PREEMPT_DYNAMIC"),
		info("node_os_info", "id", "ubuntu", "id_like", "debian", "name", "Ubuntu", "pretty_name", "Ubuntu 24.04.1 LTS",
			"version", "24.04.1 LTS (Noble Numbat)", "version_codename", "noble", "version_id", "24.04"),
		family{name: "node_os_version", rule: padConst, fixed: []string{"id", "ubuntu", "id_like", "debian", "name", "Ubuntu"}},
		info("node_dmi_info", "bios_vendor", "SeaBIOS", "product_name", "Standard PC", "sys_vendor", "QEMU"),
		info("node_exporter_build_info", "branch", "HEAD", "goarch", "amd64", "goos", "linux", "goversion", "go1.23.4",
			"revision", "0", "tags", "unknown", "version", "1.9.1"),
		fam("node_selinux_enabled", padZero), fam("node_nvme_info", padOne, col("device", "nvme0")))
}

// runtimeFamilies adds the exporter's own Go runtime, process and HTTP
// handler series.
func runtimeFamilies(out []family) []family {
	out = append(out, fam("go_gc_duration_seconds", padDuration, col("quantile", "0", "0.25", "0.5", "0.75", "1")),
		fam("go_gc_duration_seconds_sum", padSeconds), fam("go_gc_duration_seconds_count", padCount),
		fam("go_goroutines", padGauge), fam("go_threads", padGauge), info("go_info", "version", "go1.23.4"),
		fam("go_sched_gomaxprocs_threads", padConst), fam("go_gc_gogc_percent", padConst),
		fam("go_gc_gomemlimit_bytes", padConst), fam("go_memstats_last_gc_time_seconds", padBoot))
	out = each(out, "go_memstats_", padMemory, []string{"alloc_bytes", "buck_hash_sys_bytes", "gc_sys_bytes",
		"heap_alloc_bytes", "heap_idle_bytes", "heap_inuse_bytes", "heap_released_bytes", "heap_sys_bytes",
		"mcache_inuse_bytes", "mcache_sys_bytes", "mspan_inuse_bytes", "mspan_sys_bytes", "next_gc_bytes",
		"other_sys_bytes", "stack_inuse_bytes", "stack_sys_bytes", "sys_bytes"})
	out = each(out, "go_memstats_", padCount, []string{"alloc_bytes_total", "frees_total", "heap_objects", "lookups_total",
		"mallocs_total"})
	out = append(out, fam("process_cpu_seconds_total", padSeconds), fam("process_max_fds", padConst),
		fam("process_open_fds", padGauge), fam("process_resident_memory_bytes", padMemory),
		fam("process_start_time_seconds", padBoot), fam("process_virtual_memory_bytes", padMemory),
		fam("process_virtual_memory_max_bytes", padConst), fam("process_network_receive_bytes_total", padBytes),
		fam("process_network_transmit_bytes_total", padBytes),
		fam("promhttp_metric_handler_errors_total", padZero, col("cause", "encoding", "gathering")),
		fam("promhttp_metric_handler_requests_in_flight", padOne),
		fam("promhttp_metric_handler_requests_total", padCount, col("code", "200", "500", "503")))
	return out
}
