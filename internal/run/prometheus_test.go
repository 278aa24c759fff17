package run

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/targets"

	_ "github.com/tsbench/tsbench/internal/targets/all"
)

// What a prometheus run cannot take is refused naming the key, and PROM_*
// on another workload; the workload's own keys and the engine's pass.
func TestPromWorkloadKeys(t *testing.T) {
	tests := []struct {
		args []string
		want string // "" for accepted
	}{
		{[]string{"WORKLOAD=prometheus", "PROM_TARGETS=5", "RATE=100"}, ""},
		{[]string{"WORKLOAD=prometheus", "FRESHNESS=true"}, ""},
		{[]string{"WORKLOAD=prometheus", "QUERY_ONLY=true"}, "QUERY_ONLY = true: not with WORKLOAD = prometheus"},
		{[]string{"WORKLOAD=prometheus", "CRASH_AT=5s"}, ""},
		{[]string{"WORKLOAD=prometheus", "OP_MIN_INTERVAL=5"}, "not built for this workload yet"},
		{[]string{"WORKLOAD=prometheus", "OP_MIN_INTERVAL=10"}, "OP_MIN_INTERVAL = 10"},
		{[]string{"WORKLOAD=prometheus", "TPCC_WAREHOUSES=3"}, "it shapes a TPC-C run"},
		{[]string{"WORKLOAD=prometheus", "OPERATION_PROPORTION=1:1:0:0:0:0:0:0:0:0:0"}, "OPERATION_PROPORTION"},
		{[]string{"WORKLOAD=prometheus", "QUERY_URL=http://replica:8428"}, "QUERY_URL = http://replica:8428: not with WORKLOAD = prometheus"},
		{[]string{"WORKLOAD=prometheus", "HOST=a,b"}, "HOST = a,b: several hosts"},
		{[]string{"WORKLOAD=prometheus", "DEVICE_NUMBER=7"}, "DEVICE_NUMBER = 7: not with WORKLOAD = prometheus: it shapes a time series run"},
		{[]string{"WORKLOAD=prometheus", "QUERY_INTERVAL=5000"}, "QUERY_INTERVAL = 5000"},
		{[]string{"WORKLOAD=prometheus", "DATA_SEED=7"}, ""},
		{[]string{"PROM_SCRAPES=10"}, "PROM_SCRAPES = 10: not with WORKLOAD = timeseries"},
		{[]string{"WORKLOAD=tpcc", "PROM_CHURN_SHARE=0.5"}, "PROM_CHURN_SHARE = 0.5: not with WORKLOAD = tpcc"},
		// OTLP is the prometheus workload's write path alone.
		{[]string{"WORKLOAD=prometheus", "target.write_path=otlp"}, ""},
		{[]string{"target.write_path=otlp"}, "target.write_path = otlp: not with WORKLOAD = timeseries: OTLP is written by the prometheus workload"},
		{[]string{"target.write_path=remote-write"}, ""},
		// Reads while writing wait for every client's scrapes: one process's.
		{[]string{"WORKLOAD=prometheus", "PROM_READS=while"}, ""},
		{[]string{"WORKLOAD=prometheus", "PROM_READS=while", "WORKERS=2"}, "PROM_READS = while: not with WORKERS = 2"},
		{[]string{"WORKLOAD=prometheus", "PROM_READS=after", "WORKERS=2"}, ""},
		{[]string{"PROM_READS=while"}, "PROM_READS = while: not with WORKLOAD = timeseries"},
		{[]string{"WORKLOAD=prometheus", "PROM_READS=none", "WORKERS=2"}, ""},
		// Real time is paced by the scrape interval, no other rate.
		{[]string{"WORKLOAD=prometheus", "PROM_TIME=now", "PROM_READS=while"}, ""},
		{[]string{"WORKLOAD=prometheus", "PROM_TIME=now", "RATE=50"}, "RATE = 50: not with PROM_TIME = now"},
		{[]string{"WORKLOAD=prometheus", "PROM_TIME=now", "FIND_MAX=INGESTION.p99<1s"}, "FIND_MAX: not with PROM_TIME = now"},
		{[]string{"WORKLOAD=prometheus", "PROM_TIME=past", "RATE=50"}, ""},
		{[]string{"PROM_TIME=now"}, "PROM_TIME = now: not with WORKLOAD = timeseries"},
	}
	for _, tt := range tests {
		cfg := config.Default()
		for _, a := range tt.args {
			if err := config.SetArg(cfg, a); err != nil {
				t.Fatal(err)
			}
		}
		err := workloadKeys(cfg)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: refused: %v", tt.args, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%v: %v, want an error naming %q", tt.args, err, tt.want)
		}
	}
}

// Only the four remote-write stores run the workload, VictoriaMetrics
// through its remote write path.
func TestPromOptions(t *testing.T) {
	for name, want := range map[string]string{"victoriametrics": "", "prometheus": "", "mimir": "", "thanos": "",
		"influxdb": "runs on mimir, prometheus, thanos, victoriametrics", "postgres": "does not take Prometheus remote write"} {
		d, err := targets.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg := config.Default()
		cfg.Workload = config.WorkloadPrometheus
		opts, err := promOptions(cfg, d, t.TempDir())
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: %v, want %q", name, err, want)
		case name == "victoriametrics" && opts.Extra["write_path"] != "remote-write":
			t.Errorf("victoriametrics: write_path %q", opts.Extra["write_path"])
		}
	}
	cfg := config.Default()
	cfg.TargetOptions = map[string]string{"write_path": "import"}
	d, _ := targets.Lookup("victoriametrics")
	if _, err := promOptions(cfg, d, t.TempDir()); err == nil || !strings.Contains(err.Error(), "write_path = import") {
		t.Errorf("write_path=import: %v", err)
	}
}
