package otlp

import "testing"

// Each metric carries the UCUM unit its name ends in; a longer suffix wins
// over the shorter one it ends with (bytes per second are not 1/s).
func TestUnit(t *testing.T) {
	cases := []struct{ name, want string }{
		{"tsbench_latency_seconds", "s"},
		{"tsbench_latency_max_seconds", "s"},
		{"tsbench_server_memory_bytes", "By"},
		{"tsbench_server_disk_read_bytes_per_second", "By/s"},
		{"tsbench_server_cpu_cores", "{core}"},
		{"tsbench_host_cpu_ratio", "1"},
		{"tsbench_operations_per_second", "1/s"},
		{"tsbench_operations_total", "1"},
	}
	for _, c := range cases {
		if got := unit(c.name); got != c.want {
			t.Errorf("unit(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
