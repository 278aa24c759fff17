// Package config holds the run configuration: its model and defaults, the
// YAML and IoT-benchmark .properties readers, flag overrides and validation.
// Every key is declared once in the key table (keys.go) with its parser,
// allowed values and documentation; YAML, .properties and --set all go
// through that table, so the three forms cannot drift apart.
package config

import (
	"time"

	"github.com/tsbench/tsbench/internal/ts"
)

// OutOfOrderMode is how delivery order departs from time order.
type OutOfOrderMode string

const (
	OutOfOrderPoisson OutOfOrderMode = "POISSON" // single rows arrive late
	OutOfOrderBatch   OutOfOrderMode = "BATCH"   // whole batches arrive late
)

// Config is the effective configuration of one run.
type Config struct {
	// Target and connection.
	Target        string            // registry name or IoT-benchmark DB_SWITCH value
	Host          string            // HOST: one host, or a comma-separated list (host or host:port each)
	TargetURL     string            // TARGET_URL: the target's own connection URL (secret part redacted when shown)
	WriteURL      string            // WRITE_URL: where writes go, when not where queries go
	QueryURL      string            // QUERY_URL: where queries and verification go
	HostsData     string            // HOSTS_DATA: shared (one data set behind every host) or separate
	Port          int               // PORT (0 = the target's default)
	User          string            // USERNAME
	Password      string            // PASSWORD (secret: never printed)
	Token         string            // TOKEN (secret: never printed)
	PasswordFile  string            // PASSWORD_FILE: where Password was read from
	TokenFile     string            // TOKEN_FILE: where Token was read from
	TLS           string            // TLS: off, on or insecure
	TLSCAFile     string            // TLS_CA_FILE
	TLSCertFile   string            // TLS_CERT_FILE
	TLSKeyFile    string            // TLS_KEY_FILE
	TLSServerName string            // TLS_SERVER_NAME
	TrustStore    string            // TRUST_STORE_PATH: a Java trust store (JKS or PKCS#12)
	TrustStorePwd string            // TRUST_STORE_PWD (secret: never printed)
	SSLProtocol   string            // SSL_PROTOCOL: TLS, TLSv1.2 or TLSv1.3, as Java names them
	Database      string            // DB_NAME
	TargetOptions map[string]string // target-specific settings (YAML target_options, --set target.KEY=V)
	DataDir       string            // where embedded databases and run results go

	// Run control.
	WorkMode     string        // BENCHMARK_WORK_MODE: only testWithDefaultPath
	DeleteData   bool          // IS_DELETE_DATA
	CreateSchema bool          // CREATE_SCHEMA
	InitWait     time.Duration // INIT_WAIT_TIME
	Loop         int64         // LOOP: operations per client
	MaxTime      time.Duration // TEST_MAX_TIME / --duration (0 = none)
	// RunFor says MaxTime came from DURATION (--duration): the run lasts
	// MaxTime, and LOOP ends it earlier only when LOOP was given too (k6
	// --duration, pgbench -T). From TEST_MAX_TIME it is false: MaxTime only
	// caps LOOP, as IoT-benchmark defines it.
	RunFor bool
	// LoopUnbounded is set by Resolve: RunFor with MaxTime > 0 and LOOP at
	// its default, so the clients run until MaxTime and LOOP is not used.
	LoopUnbounded     bool
	Warmup            time.Duration // --warmup
	Rate              float64       // --rate: operations per second for all clients (0 = closed loop)
	OpMinInterval     time.Duration // OP_MIN_INTERVAL (-1 resolved to POINT_STEP)
	OpMinIntervalStep bool          // OP_MIN_INTERVAL was -1: Resolve sets OpMinInterval to POINT_STEP
	OpMinIntervalRand bool          // OP_MIN_INTERVAL_RANDOM
	WriteTimeout      time.Duration // WRITE_OPERATION_TIMEOUT_MS
	ReadTimeout       time.Duration // READ_OPERATION_TIMEOUT_MS
	Retries           int           // RETRIES: further attempts of a failed write (0 = none)
	RetryBackoff      time.Duration // RETRY_BACKOFF_MS: wait before the first retry, doubled each time
	RetryMaxBackoff   time.Duration // RETRY_MAX_BACKOFF_MS: cap on that wait
	Proportion        [11]int64     // OPERATION_PROPORTION: write, Q1..Q10
	OperationOrder    string        // OPERATION_ORDER: spread, random
	DeviceBinding     string        // DEVICE_BINDING: contiguous, iot-benchmark
	FirstRowAt        string        // FIRST_ROW_AT: start, step
	Clients           int           // CLIENT_NUMBER / DATA_CLIENT_NUMBER
	SchemaClients     int           // SCHEMA_CLIENT_NUMBER (accepted; schema is created once)
	Verify            bool          // --verify
	QueryChecks       int           // QUERY_CHECKS: answers checked per query kind after the run
	ClusterIndex      int           // BENCHMARK_INDEX (with BENCHMARK_CLUSTER): device offset
	Cluster           bool          // BENCHMARK_CLUSTER

	// Own data: replay a file instead of generating (DATA).
	Data         string                 // DATA: a CSV, Parquet or IoT-benchmark file or directory, or a dataset directory
	DataFormat   string                 // DATA_FORMAT: auto, csv, parquet, iot-benchmark, influx, prometheus
	DataTimeUnit string                 // DATA_TIME_UNIT: auto, s, ms, us, ns
	DataTypes    map[string]ts.DataType // DATA_TYPES: declared sensor types
	// DATA_TIME_FORMAT (strftime), DATA_TIMEZONE, and the columns of the
	// time, the device and the sensors (comma-separated names).
	DataTimeFormat    string
	DataTime          string // DATA_TIME: when samples without a timestamp were taken
	DataTimezone      string
	DataTimeColumn    string
	DataTimeStart     string // DATA_TIME_START: a file with only a row order, its first row's time
	DataTimeStep      string // DATA_TIME_STEP: and the step between its rows
	DataDeviceColumns string
	DataSensorColumns string
	DataMissing       string // DATA_MISSING: missing-cell markers, comma-separated ("none": none; +X adds, -X removes)
	DataDelimiter     string // DATA_DELIMITER: auto, comma, semicolon, tab, pipe, space
	DataHeaderRows    int    // DATA_HEADER_ROWS: 0 detected, 1 the names alone, N the names and N-1 rows (units)
	DataDuplicates    string // DATA_DUPLICATES: refuse (or empty), last, first
	QueryFile         string // QUERY_FILE: the user's own queries (internal/ownquery)
	QueryOnly         bool   // QUERY_ONLY: only QUERY_FILE's queries, on data already stored
	ClientIO          string // CLIENT_IO: auto (settled before the run), goroutines (a goroutine a client), epoll (event loops)
	ClientLoops       int    // CLIENT_LOOPS: CLIENT_IO=epoll's event loops; 0: one per processor
	Explain           bool   // EXPLAIN: capture each own query's plan
	// OwnWeights are the weights of QUERY_FILE's queries in the file's
	// order, set when the command line reads the file (not a key).
	OwnWeights []int64

	// Scale-out: several tsbench processes acting as one run (WORKERS).
	Workers        int           // WORKERS: processes sharing the clients and devices (1 = alone)
	WorkerIndex    int           // WORKER_INDEX: this process's share, 0..Workers-1
	RunGroup       string        // RUN_GROUP: the name tying the workers' runs together
	StartAt        time.Time     // START_AT: the workers start measuring at this instant (zero: the store barrier)
	BarrierTimeout time.Duration // BARRIER_TIMEOUT: longest wait at the start barrier

	// Schema.
	Groups         int       // GROUP_NUMBER
	GroupStrategy  string    // SG_STRATEGY: mod, div, hash
	Devices        int       // DEVICE_NUMBER
	Sensors        int       // SENSOR_NUMBER
	TypeProportion [6]int64  // INSERT_DATATYPE_PROPORTION (BOOLEAN..TEXT)
	GroupPrefix    string    // GROUP_NAME_PREFIX
	DevicePrefix   string    // DEVICE_NAME_PREFIX
	SensorPrefix   string    // SENSOR_NAME_PREFIX
	Tags           int       // TAG_NUMBER
	TagKeyPrefix   string    // TAG_KEY_PREFIX
	TagValuePrefix string    // TAG_VALUE_PREFIX
	TagCardinality []int     // TAG_VALUE_CARDINALITY
	BatchSize      int       // BATCH_SIZE_PER_WRITE
	PointStep      int64     // POINT_STEP (ms)
	StartTime      time.Time // START_TIME
	// StartTimeZoneless says START_TIME was written without a zone (and
	// read as UTC).
	StartTimeZoneless bool
	Precision         string            // TIMESTAMP_PRECISION: ms
	Extra             map[string]string // keys accepted for compatibility but not acted on (by upper-case name)

	// Data generation.
	DataSeed       int64          // DATA_SEED
	LineRatio      float64        // LINE_RATIO
	SinRatio       float64        // SIN_RATIO
	SquareRatio    float64        // SQUARE_RATIO
	RandomRatio    float64        // RANDOM_RATIO
	ConstantRatio  float64        // CONSTANT_RATIO
	WalkRatio      float64        // WALK_RATIO (tsbench: random walk)
	StringLength   int            // STRING_LENGTH
	ChangeRatio    float64        // CHANGE_RATIO (tsbench)
	ChangeBlock    int            // CHANGE_BLOCK (tsbench)
	DoubleLength   int            // DOUBLE_LENGTH: decimals kept (-1 = all)
	OutOfOrder     bool           // IS_OUT_OF_ORDER
	OutOfOrderMode OutOfOrderMode // OUT_OF_ORDER_MODE
	OutOfOrderRate float64        // OUT_OF_ORDER_RATIO
	Lambda         float64        // LAMBDA: mean delay of a late row, in POINT_STEPs
	MaxK           int            // MAX_K: longest delay, in POINT_STEPs

	// Queries.
	QueryDevices   int          // QUERY_DEVICE_NUM
	QuerySensors   int          // QUERY_SENSOR_NUM
	QueryAggregate ts.Aggregate // QUERY_AGGREGATE_FUN
	StepSize       int64        // STEP_SIZE (in POINT_STEPs)
	QueryInterval  int64        // QUERY_INTERVAL (ms)
	QueryLower     float64      // QUERY_LOWER_VALUE
	GroupByUnit    int64        // GROUP_BY_TIME_UNIT (ms)
	GroupByAcross  bool         // GROUP_BY_ACROSS_DEVICES
	GroupByLimit   int          // GROUP_BY_LIMIT
	QuerySeed      int64        // QUERY_SEED
	QuerySelection string       // QUERY_DEVICE_SELECTION: random or owned

	// TPC-C.
	Workload       string // WORKLOAD: WorkloadTimeSeries, WorkloadTPCC, WorkloadPrometheus or one of WorkloadsTSBS
	TPCCWarehouses int    // TPCC_WAREHOUSES
	TPCCThink      bool   // TPCC_THINK_TIME
	TPCCLoad       string // TPCC_LOAD: auto, always, never
	TPCCTables     string // TPCC_TABLES: logged, unlogged
	TPCCTablespace string // TPCC_TABLESPACE
	TPCCMode       string // TPCC_MODE: batched (also ""), interactive, procedures

	// WORKLOAD = prometheus (internal/promshape's shape).
	PromProfile        string        // PROM_PROFILE: what a target exposes, node or small
	PromHistograms     string        // PROM_HISTOGRAMS: the request-duration histogram, classic or native
	PromTargets        int           // PROM_TARGETS: scrape targets alive at once
	PromScrapeInterval time.Duration // PROM_SCRAPE_INTERVAL
	PromChurnShare     float64       // PROM_CHURN_SHARE: share of the targets replaced each period
	PromChurnPeriod    int           // PROM_CHURN_PERIOD: scrape intervals between replacements
	PromChurn          string        // PROM_CHURN: what a replaced target changes, instance or revision
	PromSpikeShare     float64       // PROM_SPIKE_SHARE: share of the targets replaced at a spike
	PromSpikeEvery     int           // PROM_SPIKE_EVERY: churn boundaries from a spike to the next; 0 none
	PromScrapes        int           // PROM_SCRAPES: scrapes written
	PromReads          string        // PROM_READS: after (the writes), while (writing) or none
	PromTime           string        // PROM_TIME: past (stamped in the past, written at once) or now (real time)

	// TSBS's use cases (the tsbs-* workloads; internal/tsbs turns these into
	// the keys above before Resolve).
	TSBSUseCase        string        // TSBS_USE_CASE: cpu-only, devops, iot ("" = not a TSBS run)
	TSBSPhase          string        // TSBS_PHASE: load, mixed or a TSBS query type
	TSBSScale          int           // TSBS_SCALE: hosts (trucks)
	TSBSLogInterval    time.Duration // TSBS_LOG_INTERVAL: time between a host's readings
	TSBSStart          string        // TSBS_START: first reading (RFC 3339)
	TSBSEnd            string        // TSBS_END: end of the readings, excluded (RFC 3339)
	TSBSQueries        int64         // TSBS_QUERIES: queries per query type
	TSBSSeed           int64         // TSBS_SEED: TSBS's --seed for its exact data
	TSBSValues         string        // TSBS_VALUES: auto, tsbs (TSBS's own values) or tsbench
	TSBSQueryFile      string        // TSBS_QUERY_FILE: a tsbs_generate_queries file to run as written
	TSBSBurnIn         int64         // TSBS_BURN_IN: its first queries, not measured
	TSBSMaxQueries     int64         // TSBS_MAX_QUERIES: queries run, 0 = all
	TSBSPrintResponses bool          // TSBS_PRINT_RESPONSES: print every answer as TSBS does

	// Analytics.
	AnalyticsEngine string // ANALYTICS_ENGINE: sql or spark
	SparkMaster     string // SPARK_MASTER ("" = local[*])

	// Output.
	Quiet            bool          // --quiet / IS_QUIET_MODE
	ProgressInterval time.Duration // LOG_PRINT_INTERVAL
	JSONPath         string        // --json
	CSVOutput        bool          // CSV_OUTPUT
	Remark           string        // REMARK
	Thresholds       []string      // THRESHOLDS: pass/fail expressions (internal/threshold)
	Outputs          []string      // OUTPUTS: live receivers, KIND=WHERE (internal/output/spec)
	FindMax          []string      // FIND_MAX: objectives of a find-max search (internal/findmax)
	FindMaxStart     float64       // FIND_MAX_START: first rate (0 = from a closed-loop probe)
	FindMaxSettle    time.Duration // FIND_MAX_SETTLE: each step's warm-up
	FindMaxMeasure   time.Duration // FIND_MAX_MEASURE: each step's measured time
	FindMaxMinOps    int64         // FIND_MAX_MIN_OPS: operations a step must complete (0 = by the metric)
	// FindMaxMaxMeasure: FIND_MAX_MAX_MEASURE, the longest a step is
	// measured to complete them.
	FindMaxMaxMeasure time.Duration
	FindMaxPrecision  float64       // FIND_MAX_PRECISION
	FindMaxSteps      int64         // FIND_MAX_STEPS
	StallMin          time.Duration // STALL_MIN: shortest stall listed
	StallFraction     float64       // STALL_FRACTION: a stall's rate is below this share of the median
	Freshness         bool          // FRESHNESS: run the freshness probe beside the workload (internal/freshness)
	FreshnessRate     float64       // FRESHNESS_RATE: the probe's writes per second
	FreshnessPoll     time.Duration // FRESHNESS_POLL: pause between the probe's polls (0 = back to back)
	FreshnessWait     time.Duration // FRESHNESS_WAIT: how long after the run unseen points are awaited
	CrashAt           time.Duration // CRASH_AT: kill the server this far into the measured phase (0 = never)
	CrashRestart      string        // CRASH_RESTART: the command that starts it again on its data
	CrashCommand      string        // CRASH_COMMAND: the user's command that makes the fault instead of tsbench's kill
	CrashPause        time.Duration // CRASH_PAUSE: the server stopped (SIGSTOP) this long instead of killed
	CrashPartition    time.Duration // CRASH_PARTITION: the run's connections cut off this long instead of a kill
	CrashDown         time.Duration // CRASH_DOWN: how long it stays dead before the restart
	CrashNode         int           // CRASH_NODE: with several hosts, which one the fault hits (1 = HOST's first)

	// origin records where each key was last set (file:line or "flag"), so
	// that Resolve can point at the line to fix. Keys never set are absent.
	origin map[string]string
	// derived marks the keys whose value Derive set from another key.
	derived map[string]bool
}

// Workloads (WORKLOAD).
const (
	WorkloadTimeSeries = "timeseries"
	WorkloadTPCC       = "tpcc"
	WorkloadPrometheus = "prometheus"
)

// WorkloadsTSBS are TSBS's use cases as workloads: "tsbs-" and the use
// case (internal/tsbs's Names, which a test there keeps equal). Such a
// workload is the multi-phase scenario of that name for 'tsbench run' and
// the use case's load for 'tsbench generate'; it sets TSBS_USE_CASE.
var WorkloadsTSBS = []string{"tsbs-cpu-only", "tsbs-devops", "tsbs-iot"}

// DefaultTagCardinality is the number of distinct values of a tag when
// TAG_VALUE_CARDINALITY is empty.
const DefaultTagCardinality = 10

// TagValueCardinality is the number of distinct values tag i takes.
func (c *Config) TagValueCardinality(i int) int {
	if i >= 0 && i < len(c.TagCardinality) {
		return c.TagCardinality[i]
	}
	return DefaultTagCardinality
}

// WriteWeight is the write share of OPERATION_PROPORTION.
func (c *Config) WriteWeight() int64 { return c.Weights()[0] }

// Weights are the mix: write and Q1..Q10 by OPERATION_PROPORTION (none
// with QUERY_ONLY), then the own queries' weights (OwnWeights).
func (c *Config) Weights() []int64 {
	w := append(make([]int64, 0, len(c.Proportion)+len(c.OwnWeights)), c.Proportion[:]...)
	if c.QueryOnly {
		clear(w)
	}
	return append(w, c.OwnWeights...)
}

// QueryWeight is the weight of query kind k.
func (c *Config) QueryWeight(k ts.QueryKind) int64 { return c.Proportion[k] }

// ClientRange is the clients [lo, hi) of CLIENT_NUMBER this process runs:
// all of them alone, worker i's contiguous share of WORKERS. Client numbers
// stay global, so a client's devices, queries and pacing are the same
// whichever process runs it: N workers together do exactly what one
// process would.
func (c *Config) ClientRange() (lo, hi int) {
	n := max(1, c.Workers)
	return c.WorkerIndex * c.Clients / n, (c.WorkerIndex + 1) * c.Clients / n
}

// Scaled reports whether this process is a worker of a run group: one of
// WORKERS > 1, or the only one of a group (the one-worker step of a
// scaling series, merged like the others).
func (c *Config) Scaled() bool { return c.Workers > 1 || c.RunGroup != "" }

// DeviceOffset is the global index of this instance's first device
// (IoT-benchmark cluster mode: instance i owns devices [i*N, (i+1)*N)).
func (c *Config) DeviceOffset() int {
	if !c.Cluster {
		return 0
	}
	return c.ClusterIndex * c.Devices
}
