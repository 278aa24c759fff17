package config

import (
	"fmt"
	"time"

	"github.com/tsbench/tsbench/internal/ts"
)

// Default returns tsbench's default configuration: a short mixed workload
// (writes and every query kind Q1..Q10) on the embedded sqlite target that
// finishes in a few seconds: a newcomer's first command should show the
// matrices and the verification, not a wait (LOOP 100, IoT-benchmark's own
// default: 1M points). Keys not named in a YAML or .properties
// file keep these values; elsewhere they follow IoT-benchmark's defaults
// (seed 002, reference/iot-benchmark.md), except where those make a poor
// first run (DEVICE_NUMBER, CLIENT_NUMBER, OPERATION_PROPORTION,
// INIT_WAIT_TIME, STEP_SIZE=1 as in IoT-benchmark's code).
//
// long: the default of every key, a line each
func Default() *Config {
	return &Config{
		Target:        "sqlite",
		Host:          "127.0.0.1",
		HostsData:     "shared",
		User:          "root",
		Password:      "root",
		Database:      "test",
		TargetOptions: map[string]string{},
		TLS:           "off",
		SSLProtocol:   "TLS",

		WorkMode:      workModeDefault,
		DeleteData:    true,
		CreateSchema:  true,
		Loop:          100,
		Proportion:    [11]int64{10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
		Clients:       4,
		SchemaClients: 1,
		Verify:        true,
		QueryChecks:   5,
		ClientIO:      "auto",
		WriteTimeout:  120 * time.Second,

		RetryBackoff:    100 * time.Millisecond,
		Workers:         1,
		DataFormat:      "auto",
		DataTimeUnit:    "auto",
		DataDuplicates:  "refuse",
		DataDelimiter:   "auto",
		BarrierTimeout:  5 * time.Minute,
		RetryMaxBackoff: 5 * time.Second,

		Workload:       WorkloadTimeSeries,
		TPCCWarehouses: 1,
		TPCCLoad:       "auto",
		TPCCTables:     "logged",
		TPCCMode:       "batched",

		PromProfile:        "node",
		PromHistograms:     "classic",
		PromTargets:        100,
		PromScrapeInterval: 10 * time.Second,
		PromChurnShare:     0.05,
		PromChurnPeriod:    10,
		PromChurn:          "instance",
		PromScrapes:        180,
		PromReads:          "after",
		PromTime:           "past",

		AnalyticsEngine: "sql",
		ReadTimeout:     300 * time.Second,

		Groups:         1,
		GroupStrategy:  "mod",
		Devices:        20,
		Sensors:        10,
		TypeProportion: [6]int64{1, 1, 1, 1, 1, 1},
		GroupPrefix:    "g_",
		DevicePrefix:   "d_",
		SensorPrefix:   "s_",
		TagKeyPrefix:   "tag_",
		TagValuePrefix: "value_",
		BatchSize:      100,
		PointStep:      5000,
		StartTime:      time.Date(2022, 1, 1, 0, 0, 0, 0, time.FixedZone("", 8*60*60)),
		Precision:      "ms",
		Extra:          map[string]string{},

		DataSeed:       666,
		LineRatio:      1,
		SinRatio:       1,
		SquareRatio:    1,
		RandomRatio:    1,
		ConstantRatio:  1,
		StringLength:   2,
		ChangeRatio:    1,
		ChangeBlock:    1,
		DoubleLength:   2,
		OutOfOrderMode: OutOfOrderPoisson,
		OutOfOrderRate: 0.5,
		Lambda:         2200,
		MaxK:           170000,

		QueryDevices:   1,
		QuerySensors:   1,
		QueryAggregate: ts.Count,
		StepSize:       1,
		QueryInterval:  250000,
		QueryLower:     -5,
		GroupByUnit:    20000,
		QuerySeed:      151658,
		QuerySelection: "random",
		OperationOrder: "spread",
		DeviceBinding:  "contiguous",
		FirstRowAt:     "start",

		// TSBS's generator defaults, as the tsbs-* workloads set them
		// (scenario.TSBSDefaults), so that a run naming TSBS_USE_CASE
		// alone has them too.
		TSBSScale:       10,
		TSBSLogInterval: 10 * time.Second,
		TSBSStart:       "2016-01-01T00:00:00Z",
		TSBSEnd:         "2016-01-02T00:00:00Z",
		TSBSQueries:     100,
		TSBSSeed:        123,
		TSBSValues:      "auto",

		ProgressInterval:  5 * time.Second,
		CSVOutput:         true,
		FindMaxSettle:     5 * time.Second,
		FindMaxMeasure:    10 * time.Second,
		FindMaxMaxMeasure: time.Minute,
		FindMaxPrecision:  0.05,
		FindMaxSteps:      20,
		StallMin:          3 * time.Second,
		StallFraction:     0.5,
		FreshnessRate:     10,
		FreshnessWait:     time.Minute,
		CrashDown:         time.Second,
		CrashNode:         1,
	}
}

// IoTBenchmarkDefaults are the keys whose default in IoT-benchmark (its
// Config.java and DBConfig.java) differs from tsbench's, with IoT-benchmark's
// value. A config.properties sets only what it changes, and IoT-benchmark's
// own files set little more than the connection (its
// configuration/conf/config.properties sets nothing at all): read on top of
// tsbench's defaults, such a file would run another workload. Read on top of
// these, it runs the one it runs in IoT-benchmark.
var IoTBenchmarkDefaults = []struct{ Key, Value string }{
	{"DB_SWITCH", "IoTDB-200-SESSION_BY_TABLET"},
	{"CLIENT_NUMBER", "20"},
	{"SCHEMA_CLIENT_NUMBER", "20"},
	{"DEVICE_NUMBER", "6000"},
	{"SENSOR_NUMBER", "200"},
	{"LOOP", "100"},
	{"OPERATION_PROPORTION", "1:0:0:0:0:0:0:0:0:0:0"},
	{"OPERATION_ORDER", "random"},
	{"QUERY_DEVICE_SELECTION", "iot-benchmark"},
	{"DEVICE_BINDING", "iot-benchmark"},
	{"FIRST_ROW_AT", "step"},
	{"INIT_WAIT_TIME", "1000"},
	{"IS_QUIET_MODE", "true"},
}

// IoTBenchmarkDefault is the configuration a config.properties file starts
// from: tsbench's defaults with IoTBenchmarkDefaults applied. Flags, --set
// and YAML files start from Default.
func IoTBenchmarkDefault() *Config {
	c := Default()
	for _, d := range IoTBenchmarkDefaults {
		if _, err := assign(c, d.Key, d.Value, IoTBenchmarkOrigin); err != nil {
			panic(fmt.Sprintf("config: IoT-benchmark default %s=%s: %v", d.Key, d.Value, err)) // a bug in the table above
		}
	}
	return c
}

// IoTBenchmarkOrigin is the Origin of a key that took IoT-benchmark's
// default.
const IoTBenchmarkOrigin = "IoT-benchmark's default"

// IoTBenchmarkDefaultsUsed lists, as KEY=VALUE, the IoT-benchmark defaults
// that nothing overrode: what the run header says it applied.
func IoTBenchmarkDefaultsUsed(c *Config) []string {
	var out []string
	for _, d := range IoTBenchmarkDefaults {
		if c.Origin(d.Key) == IoTBenchmarkOrigin {
			out = append(out, d.Key+"="+d.Value)
		}
	}
	return out
}
