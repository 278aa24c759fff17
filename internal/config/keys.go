package config

import (
	"math"
	"os"
	"strconv"
	"strings"
	"time"
)

// Key is one configuration key. The table below is the only place a key is
// declared: YAML files, IoT-benchmark .properties files and --set all look
// keys up here and parse values with the key's own setter, and Print, Map
// and the CLI's key listing read the same table.
type Key struct {
	Name    string   // canonical IoT-benchmark name, upper case: DEVICE_NUMBER
	Aliases []string // other accepted names: DATA_CLIENT_NUMBER, OP_INTERVAL, TARGET
	Group   string   // heading under which Print shows the key
	Doc     string   // one line
	Allowed string   // the accepted values, as text
	Secret  bool     // a credential: shown as "***"
	// Ignored, when not empty, says why the key is accepted for
	// IoT-benchmark compatibility but not acted on. Its raw value is kept
	// in Config.Extra. A Name ending in "*" stands for every key with that
	// prefix (KAFKA_*).
	Ignored string
	// Hidden keys are another spelling of a shown key (DURATION is
	// TEST_MAX_TIME as a Go duration); Print and Map leave them out.
	Hidden bool
	// Flag is the key's name in tsbench's own vocabulary: the name of the
	// 'tsbench run' flag that sets it (batch-size), or a short name where
	// no flag does (operations). YAML takes it with '_' or '-'; Print
	// writes it. Empty: the key has only its IoT-benchmark name.
	Flag string
	// sameAs names the key whose setting this one writes under another
	// name and form (DURATION writes TEST_MAX_TIME's), so that a file
	// giving both is refused.
	sameAs string

	set func(c *Config, v string) error // nil for ignored keys
	get func(c *Config) any             // nil for ignored keys
	// warn returns a warning worth giving about a value it accepts
	// (IS_CLIENT_BIND=false, an OPERATION_PROPORTION with missing fields),
	// or "".
	warn func(v string) string
	// listSep joins a YAML sequence into the text the setter parses, so
	// that [10, 1, 1] works where "10:1:1" does.
	listSep string
	// unit is shown beside the value by Print: "ms" says more than a bare
	// 120000.
	unit string
}

// YAMLName is the key's name in YAML files and in Print: the canonical name
// in lower case.
func (k *Key) YAMLName() string { return strings.ToLower(k.Name) }

// PrintName is the key's name in Print's output: its tsbench name with
// '_' (batch_size), else its YAML name.
func (k *Key) PrintName() string {
	if k.Flag != "" {
		return strings.ReplaceAll(k.Flag, "-", "_")
	}
	return k.YAMLName()
}

// names lists every name a key is found by, tsbench's first: a
// suggestion for a lower-case name should be in the flag vocabulary.
func (k *Key) names() []string {
	var out []string
	if k.Flag != "" && normalize(k.Flag) != k.Name {
		out = append(out, normalize(k.Flag))
	}
	return append(append(out, k.Name), k.Aliases...)
}

// setting identifies what a key sets: keys of one setting are one key
// when a file gives two of them.
func (k *Key) setting() string {
	if k.sameAs != "" {
		return k.sameAs
	}
	return k.Name
}

// family reports whether the key stands for every key with a prefix.
func (k *Key) family() bool { return strings.HasSuffix(k.Name, "*") }

// Keys returns the key table in print order.
func Keys() []Key {
	out := make([]Key, len(keyTable))
	copy(out, keyTable)
	return out
}

// Lookup finds a key by canonical name, alias or YAML name, in any case.
func Lookup(name string) (Key, bool) {
	k := lookup(name)
	if k == nil {
		return Key{}, false
	}
	out := *k
	if out.family() {
		out.Secret = isSecretName(normalize(name)) // TEST_DATA_STORE_PW within TEST_DATA_STORE_*
	}
	return out, true
}

// normalize makes the case, dashes and spacing of a key name irrelevant,
// so that device_number, DEVICE_NUMBER and device-number are one key.
func normalize(name string) string {
	return strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(name), "-", "_"))
}

var keyIndex = buildIndex()

func buildIndex() map[string]int {
	idx := map[string]int{}
	for i, k := range keyTable {
		for _, n := range k.names() {
			if _, dup := idx[n]; dup {
				panic("config: key declared twice: " + n) // programming error
			}
			idx[n] = i
		}
	}
	return idx
}

func lookup(name string) *Key {
	n := normalize(name)
	if i, ok := keyIndex[n]; ok {
		return &keyTable[i]
	}
	for i := range keyTable {
		k := &keyTable[i]
		if k.family() && strings.HasPrefix(n, strings.TrimSuffix(k.Name, "*")) {
			return k
		}
	}
	return nil
}

// option adjusts a key built by key().
type option func(*Key)

func alias(names ...string) option { return func(k *Key) { k.Aliases = append(k.Aliases, names...) } }
func hidden(k *Key)                { k.Hidden = true }
func flag(name string) option      { return func(k *Key) { k.Flag = name } }
func sameAs(name string) option    { return func(k *Key) { k.sameAs = name } }
func list(sep string) option       { return func(k *Key) { k.listSep = sep } }
func unit(u string) option         { return func(k *Key) { k.unit = u } }

// warns gives a key a warning about values it accepts with a guess.
func warns(f func(v string) string) option { return func(k *Key) { k.warn = f } }

func key(name, doc string, b binding, opts ...option) Key {
	k := Key{Name: name, Doc: doc, Allowed: b.allowed, Secret: isSecretName(name), set: b.set, get: b.get, unit: b.unit}
	for _, o := range opts {
		o(&k)
	}
	return k
}

// ignored declares keys tsbench accepts and does not act on, all for the
// same reason.
func ignored(why string, names ...string) []Key {
	out := make([]Key, len(names))
	for i, n := range names {
		out[i] = Key{Name: n, Doc: "IoT-benchmark key, accepted for compatibility", Allowed: "any value (ignored)",
			Secret: isSecretName(n), Ignored: why}
	}
	return out
}

// group sets the Print heading of a run of keys.
func group(title string, parts ...[]Key) []Key {
	var out []Key
	for _, p := range parts {
		for _, k := range p {
			k.Group = title
			out = append(out, k)
		}
	}
	return out
}

func keys(ks ...Key) []Key { return ks }

var inf = math.Inf(1)

var keyTable = concat(
	group("Target and connection", keys(
		key("DB_SWITCH", "database to test: a tsbench target name or an IoT-benchmark DB_SWITCH value",
			textField(func(c *Config) *string { return &c.Target }, true), flag("target")),
		key("HOST", "database server host, or several comma-separated (host or host:port each): client i connects to host i mod n, "+
			"and the results are broken down per host", textField(func(c *Config) *string { return &c.Host }, false)),
		key("HOSTS_DATA", "with several hosts: shared (the default: a cluster, or a primary and its replicas, one data set: "+
			"the schema is made and verification counts through the first host) or separate (independent servers, each with "+
			"its clients' data: the schema is made on each, verification counts on each and sums)",
			oneOf(func(c *Config) *string { return &c.HostsData }, "shared", "separate")),
		key("TARGET_URL", "the target's own connection URL, e.g. postgres://user:pass@host:5432/db?sslmode=verify-full "+
			"(also timescaledb, questdb's PG wire), mysql://user:pass@host:3306/db?tls=true or user:pass@tcp(host:3306)/db, "+
			"http(s)://user:pass@host:port/path-prefix (victoriametrics, influxdb, kairosdb, opentsdb), clickhouse://, "+
			"cassandra://host:9042/keyspace, iotdb://host:6667; it sets HOST, PORT, USERNAME, PASSWORD, DB_NAME and TLS where it says them "+
			"(sslmode verify-full/verify-ca: TLS=on, require: insecure, disable: off; https: on); its password is shown as ***",
			textField(func(c *Config) *string { return &c.TargetURL }, false), alias("URL"), flag("target-url")),
		key("WRITE_URL", "where writes (and the schema) go, when that is not where queries go (a PostgreSQL primary): "+
			"a URL as TARGET_URL, over TARGET_URL for writes; a VictoriaMetrics cluster's vminsert is not supported yet "+
			"(the schema step deletes and flushes, which vminsert does not serve)",
			textField(func(c *Config) *string { return &c.WriteURL }, false), flag("write-url")),
		key("QUERY_URL", "where queries, verification and the query checks go (a PostgreSQL replica): a URL as TARGET_URL, "+
			"over TARGET_URL for reads",
			textField(func(c *Config) *string { return &c.QueryURL }, false), flag("query-url")),
		key("PORT", "database server port (0 = the target's default)",
			intField(func(c *Config) *int { return &c.Port }, 0, 65535)),
		key("USERNAME", "database user", textField(func(c *Config) *string { return &c.User }, false)),
		key("PASSWORD", "database password", textField(func(c *Config) *string { return &c.Password }, false)),
		key("TLS", "connect over TLS: off, on (verify the server's chain and host name) or insecure (no verification, said in the run's header)",
			oneOf(func(c *Config) *string { return &c.TLS }, "off", "on", "insecure")),
		key("TLS_CA_FILE", "PEM file of the certificate authorities the server's chain is checked against (default: the system's)",
			textField(func(c *Config) *string { return &c.TLSCAFile }, false)),
		key("TLS_CERT_FILE", "PEM client certificate, for servers that authenticate clients by certificate (with TLS_KEY_FILE)",
			textField(func(c *Config) *string { return &c.TLSCertFile }, false)),
		key("TLS_KEY_FILE", "PEM private key of TLS_CERT_FILE", textField(func(c *Config) *string { return &c.TLSKeyFile }, false)),
		key("TLS_SERVER_NAME", "host name the server's certificate must carry (default: HOST)",
			textField(func(c *Config) *string { return &c.TLSServerName }, false)),
		key("USE_SSL", "IoT-benchmark's TLS switch: true is TLS=on (false leaves TLS as set)", useSSL()),
		key("TRUST_STORE_PATH", "IoT-benchmark's Java trust store, JKS or PKCS#12: when TLS is on, its trusted certificates "+
			"are authorities the server's chain is checked against (with TLS_CA_FILE's)",
			textField(func(c *Config) *string { return &c.TrustStore }, false)),
		key("TRUST_STORE_PWD", "password of TRUST_STORE_PATH, which checks the store's integrity",
			textField(func(c *Config) *string { return &c.TrustStorePwd }, false)),
		key("SSL_PROTOCOL", "IoT-benchmark's TLS protocol, as Java names it: TLS and TLSv1.3 offer TLS 1.2 and 1.3, "+
			"TLSv1.2 TLS 1.2 at most; older versions are never offered",
			oneOf(func(c *Config) *string { return &c.SSLProtocol }, "TLS", "TLSv1.2", "TLSv1.3")),
		key("PASSWORD_FILE", "file whose content (less a final line break) is PASSWORD, so that it is neither typed on a command line nor kept in a configuration",
			secretFile(func(c *Config) (*string, *string) { return &c.Password, &c.PasswordFile })),
		key("TOKEN", "authentication token: Authorization: Token for influxdb (InfluxDB 2.x/3.x, and 1.x's v1 API where it takes one), "+
			"Bearer for victoriametrics (vmauth and Prometheus-compatible gateways) and questdb's HTTP; it replaces USERNAME/PASSWORD on those requests",
			textField(func(c *Config) *string { return &c.Token }, false)),
		key("TOKEN_FILE", "file whose content (less a final line break) is TOKEN",
			secretFile(func(c *Config) (*string, *string) { return &c.Token, &c.TokenFile })),
		key("DB_NAME", "database name", textField(func(c *Config) *string { return &c.Database }, true)),
		key("TARGET_OPTIONS", "target-specific settings", targetOptions()),
		key("DATA_DIR", "where embedded databases keep their files (empty: the CLI's default)",
			textField(func(c *Config) *string { return &c.DataDir }, false), flag("data-dir")),
	)),
	group("Run control", keys(
		key("BENCHMARK_WORK_MODE", "IoT-benchmark work mode; tsbench runs only testWithDefaultPath", workMode()),
		key("IS_DELETE_DATA", "drop earlier data before the run (forced false when nothing is written)",
			boolField(func(c *Config) *bool { return &c.DeleteData })),
		key("CREATE_SCHEMA", "create the schema before the run", boolField(func(c *Config) *bool { return &c.CreateSchema })),
		key("INIT_WAIT_TIME", "milliseconds to wait after dropping data",
			unitDuration(func(c *Config) *time.Duration { return &c.InitWait }, time.Millisecond, 0)),
		key("LOOP", "operations per client", intField(func(c *Config) *int64 { return &c.Loop }, 1, math.MaxInt64), flag("loop")),
		key("TEST_MAX_TIME", "wall-clock cap on the measured phase in milliseconds (0 = none); LOOP still applies, as in IoT-benchmark "+
			"(tsbench's duration, e.g. duration: 30s, sets the run's length instead: LOOP ends it first only when given too)",
			maxTime(unitDuration(func(c *Config) *time.Duration { return &c.MaxTime }, time.Millisecond, 0), false)),
		key("DURATION", "length of the measured phase (0 = none), as k6 --duration and pgbench -T: "+
			"LOOP ends the run first only when given too",
			maxTime(goDuration(func(c *Config) *time.Duration { return &c.MaxTime }), true), hidden, flag("duration"),
			sameAs("TEST_MAX_TIME")),
		key("WARMUP", "unmeasured operations before the measured phase, as a duration",
			goDuration(func(c *Config) *time.Duration { return &c.Warmup }), flag("warmup")),
		key("RATE", "operations per second for all clients together (0 = as fast as the server answers)",
			floatField(func(c *Config) *float64 { return &c.Rate }, 0, inf, false), flag("rate")),
		key("OP_MIN_INTERVAL", "minimum milliseconds per operation of a client (0 = none, -1 = POINT_STEP)",
			opMinInterval(), alias("OP_INTERVAL")),
		key("OP_MIN_INTERVAL_RANDOM", "wait a uniform random time in [0, OP_MIN_INTERVAL) instead",
			boolField(func(c *Config) *bool { return &c.OpMinIntervalRand })),
		key("WRITE_OPERATION_TIMEOUT_MS", "write timeout in milliseconds",
			unitDuration(func(c *Config) *time.Duration { return &c.WriteTimeout }, time.Millisecond, 1)),
		key("READ_OPERATION_TIMEOUT_MS", "query timeout in milliseconds",
			unitDuration(func(c *Config) *time.Duration { return &c.ReadTimeout }, time.Millisecond, 1)),
		key("RETRIES", "further attempts of a write that failed on a connection error or a timeout (0 = none); "+
			"a retried batch counts once, its latency includes the retries",
			intField(func(c *Config) *int { return &c.Retries }, 0, 100), flag("retries")),
		key("RETRY_BACKOFF_MS", "milliseconds before the first retry, doubled for each further one, with jitter",
			unitDuration(func(c *Config) *time.Duration { return &c.RetryBackoff }, time.Millisecond, 1)),
		key("RETRY_MAX_BACKOFF_MS", "cap in milliseconds on the wait between retries",
			unitDuration(func(c *Config) *time.Duration { return &c.RetryMaxBackoff }, time.Millisecond, 1)),
		key("OPERATION_PROPORTION", "weights of write:Q1:...:Q10 (YAML also a mapping: {write: 1, Q1: 1, TIME_RANGE: 2})",
			operationProportion(), list(":"), warns(proportionPadding), flag("operations")),
		key("OPERATION_ORDER", "how each client orders its operations: spread (tsbench's default: exactly "+
			"OPERATION_PROPORTION over LOOP, interleaved evenly, every client the same sequence) or random "+
			"(IoT-benchmark's, the default of a .properties file: each operation drawn from the proportions with "+
			"java.util.Random seeded with the client's index, so each client runs the operations it runs in IoT-benchmark)",
			oneOf(func(c *Config) *string { return &c.OperationOrder }, "spread", "random")),
		key("DEVICE_BINDING", "how devices are split between clients: contiguous (tsbench's default: index order, "+
			"ranges differing by at most one device) or iot-benchmark (the default of a .properties file: devices ordered by "+
			"storage group, the first DEVICE_NUMBER mod CLIENT_NUMBER clients taking one more, as IoT-benchmark binds them)",
			oneOf(func(c *Config) *string { return &c.DeviceBinding }, "contiguous", "iot-benchmark")),
		key("CLIENT_NUMBER", "concurrent clients, each with its own connection",
			intField(func(c *Config) *int { return &c.Clients }, 1, maxCount), alias("DATA_CLIENT_NUMBER"), flag("clients")),
		key("SCHEMA_CLIENT_NUMBER", "clients creating the schema (accepted; the schema is created once)",
			intField(func(c *Config) *int { return &c.SchemaClients }, 1, maxCount)),
		key("VERIFY", "after the run, check that the database stores every acknowledged point",
			boolField(func(c *Config) *bool { return &c.Verify }), flag("verify")),
		key("QUERY_CHECKS", "after a verified run, query answers checked per kind against the data written (0 = none; no_check: true is 0)",
			intField(func(c *Config) *int { return &c.QueryChecks }, 0, 1000), flag("query-checks")),
		key("NO_CHECK", "check no query answers after the run: true is QUERY_CHECKS = 0 (false leaves QUERY_CHECKS as set)",
			noCheck(), hidden, flag("no-check"), sameAs("QUERY_CHECKS")),
		key("BENCHMARK_CLUSTER", "one of several tsbench instances sharing the devices",
			boolField(func(c *Config) *bool { return &c.Cluster })),
		key("BENCHMARK_INDEX", "instance number in cluster mode: instance i owns devices [i*N, (i+1)*N)",
			intField(func(c *Config) *int { return &c.ClusterIndex }, 0, maxCount)),
	)),
	group("Your own data (replayed instead of generated)", keys(
		key("DATA", "replay this file or directory instead of generating data: CSV (long: time, device, sensor, value; "+
			"or wide: time, device, a column per sensor), Parquet, IoT-benchmark data files, InfluxDB line protocol, "+
			"Prometheus/VictoriaMetrics JSON-line exports (any text format may be .gz), or a 'tsbench generate' directory",
			textField(func(c *Config) *string { return &c.Data }, false), flag("data")),
		key("DATA_FORMAT", "format of DATA (auto: by extension and layout)",
			oneOf(func(c *Config) *string { return &c.DataFormat }, "auto", "csv", "parquet", "iot-benchmark", "influx", "prometheus", "timescaledb"), flag("data-format")),
		key("DATA_TIME_UNIT", "unit of DATA's integer timestamps (auto: by magnitude)",
			oneOf(func(c *Config) *string { return &c.DataTimeUnit }, "auto", "s", "ms", "us", "ns")),
		key("DATA_TIME_FORMAT", "layout of DATA's text times, strftime style (%b %d %Y; empty: detected from the first 1000 rows: "+
			"integers, RFC 3339, ISO 8601, dates with dashes, slashes or dots, month names, quarters, decimal years: docs/data.md)",
			textField(func(c *Config) *string { return &c.DataTimeFormat }, false)),
		key("DATA_TIME", "when DATA's samples without a timestamp were taken (a Prometheus scrape): RFC 3339, or 2024-05-01 12:00:00 in DATA_TIMEZONE "+
			"(empty: the file's modification time)",
			textField(func(c *Config) *string { return &c.DataTime }, false)),
		key("DATA_TIMEZONE", "zone of DATA's times written without one: an IANA name (Europe/Paris) or an offset (+05:30)",
			textField(func(c *Config) *string { return &c.DataTimezone }, false)),
		key("DATA_TIME_COLUMN", "DATA's time column, or the columns a time spans in order, COL,... (year,quarter; "+
			"empty: the column whose values are times, by name first, or year+quarter, year+month(+day), date+time)",
			textField(func(c *Config) *string { return &c.DataTimeColumn }, false)),
		key("DATA_TIME_START", "a DATA file with only a row order (no time column): its first row's time, RFC 3339 or 2024-05-01 [12:00:00] "+
			"in DATA_TIMEZONE; each series' k-th row is at DATA_TIME_START + k DATA_TIME_STEP (with DATA_TIME_STEP; not with DATA_TIME_COLUMN)",
			textField(func(c *Config) *string { return &c.DataTimeStart }, false)),
		key("DATA_TIME_STEP", "with DATA_TIME_START: the step between a series' rows, a duration (500ms, 1s, 15m, 1h), days or weeks (1d, 2w), "+
			"or calendar months or years (1mo, 3mo, 1y)",
			textField(func(c *Config) *string { return &c.DataTimeStep }, false)),
		key("DATA_DEVICE_COLUMNS", "DATA's device column(s), COL,... (several: joined into the device name and kept as its tags; "+
			"none: no device column, the file is one device; empty: named device, host... or columns whose values name series)",
			textField(func(c *Config) *string { return &c.DataDeviceColumns }, false), list(",")),
		key("DATA_SENSOR_COLUMNS", "DATA's measured columns, COL,... (others are left out; empty: every other column)",
			textField(func(c *Config) *string { return &c.DataSensorColumns }, false), list(",")),
		key("DATA_TYPES", "declared types of DATA's sensors, SENSOR=TYPE,... (others are inferred)", dataTypes(), list(",")),
		key("DATA_MISSING", "texts that are missing cells in DATA besides empty ones: MARKER,... replaces the markers (missing in columns of "+
			"every type, besides null and NaN); signed items edit them: +-999 adds -999 (in every column), -NM removes NM, none,+-999 starts "+
			"from no markers; none: null and NaN alone; empty: null and NaN, and NA, N/A, #N/A, None, <NA>, --, NM, - in columns of numbers "+
			"and booleans (kept as text in TEXT columns, with a note)",
			textField(func(c *Config) *string { return &c.DataMissing }, false), list(",")),
		key("DATA_DELIMITER", "separator of a CSV DATA file's fields (auto: detected from the header and the first rows; "+
			"in a file not split at commas, 7,35 is a number)",
			delimiterField(func(c *Config) *string { return &c.DataDelimiter })),
		key("DATA_HEADER_ROWS", "lines of a CSV DATA file's header: 1 the names alone, N the names and N-1 rows more, the first of them "+
			"the columns' units (0: detected: rows under the names that hold no data, such as [W/m2] or degC)",
			intField(func(c *Config) *int { return &c.DataHeaderRows }, 0, 100)),
		key("DATA_DUPLICATES", "rows of DATA repeating a device and time: refuse (more than 1 % of the rows: exit 2), "+
			"last (the later row's values stand) or first (the later rows are dropped)",
			oneOf(func(c *Config) *string { return &c.DataDuplicates }, "refuse", "last", "first")),
	)),
	group("Your own queries", keys(
		key("QUERY_FILE", "a YAML file of your own named queries, each with a weight in the mix, parameters drawn from the data "+
			"and a text per target or language (docs/queries.md)",
			textField(func(c *Config) *string { return &c.QueryFile }, false), flag("queries")),
		key("QUERY_ONLY", "run only QUERY_FILE's queries against data already in the database: no schema created, nothing written, nothing counted",
			boolField(func(c *Config) *bool { return &c.QueryOnly }), flag("query-only")),
		key("EXPLAIN", "on SQL targets, capture each own query's plan (EXPLAIN) once and keep it with the run",
			boolField(func(c *Config) *bool { return &c.Explain }), flag("explain")),
		key("CLIENT_IO", "auto: epoll where its loops serve the run, else goroutines; goroutines: each client a goroutine waiting on "+
			"Go's network poller; epoll: the clients' connections served from event loops (CLIENT_LOOPS), as pgbench serves its "+
			"connections, which spares the runtime's wake-ups on every query (a QUERY_ONLY run of QUERY_FILE on one postgres server, "+
			"without TLS, on Linux; docs/measuring.md)",
			oneOf(func(c *Config) *string { return &c.ClientIO }, "auto", "goroutines", "epoll"), flag("client-io")),
		key("CLIENT_LOOPS", "with CLIENT_IO=epoll: the event loops serving the clients, as pgbench's -j threads serve its "+
			"connections, the clients shared out evenly; 0 = one for each processor Go may use (GOMAXPROCS), "+
			"at most one for each client of this process",
			intField(func(c *Config) *int { return &c.ClientLoops }, 0, maxCount), flag("client-loops")),
	)),
	group("Scale-out (several tsbench processes as one run)", keys(
		key("WORKERS", "tsbench processes (on one machine or several) sharing this run's clients and devices; "+
			"each runs CLIENT_NUMBER/WORKERS clients, and 'tsbench merge' adds their results up",
			intField(func(c *Config) *int { return &c.Workers }, 1, maxCount), flag("workers")),
		key("WORKER_INDEX", "this process's share with WORKERS > 1: worker i runs clients [i*C/N, (i+1)*C/N) and their devices",
			intField(func(c *Config) *int { return &c.WorkerIndex }, 0, maxCount), flag("worker-index")),
		key("RUN_GROUP", "the name tying the workers' runs together: the start barrier and 'tsbench merge --group' use it",
			textField(func(c *Config) *string { return &c.RunGroup }, false), flag("group")),
		key("START_AT", "with WORKERS > 1: start measuring at this RFC 3339 time instead of waiting at the results store's barrier",
			startAt(), flag("start-at")),
		key("BARRIER_TIMEOUT", "longest wait for the other workers at the start barrier",
			goDuration(func(c *Config) *time.Duration { return &c.BarrierTimeout }), flag("barrier-timeout")),
	)),
	group("Schema", keys(
		key("GROUP_NUMBER", "storage groups (databases, measurements) the devices are spread over",
			intField(func(c *Config) *int { return &c.Groups }, 1, maxCount)),
		key("SG_STRATEGY", "device to group mapping", oneOf(func(c *Config) *string { return &c.GroupStrategy }, "mod", "div", "hash")),
		key("DEVICE_NUMBER", "devices (per instance in cluster mode)",
			intField(func(c *Config) *int { return &c.Devices }, 1, maxCount), flag("devices")),
		key("SENSOR_NUMBER", "sensors per device", intField(func(c *Config) *int { return &c.Sensors }, 1, maxSensors), flag("sensors")),
		key("INSERT_DATATYPE_PROPORTION", "weights of sensor types BOOLEAN:INT32:INT64:FLOAT:DOUBLE:TEXT (YAML also a mapping: {DOUBLE: 1, INT32: 1})",
			typeProportion(), list(":"), flag("types")),
		key("GROUP_NAME_PREFIX", "group name prefix", textField(func(c *Config) *string { return &c.GroupPrefix }, false)),
		key("DEVICE_NAME_PREFIX", "device name prefix", textField(func(c *Config) *string { return &c.DevicePrefix }, false)),
		key("SENSOR_NAME_PREFIX", "sensor name prefix", textField(func(c *Config) *string { return &c.SensorPrefix }, false)),
		key("TAG_NUMBER", "tags per device", intField(func(c *Config) *int { return &c.Tags }, 0, maxTags)),
		key("TAG_KEY_PREFIX", "tag key prefix", textField(func(c *Config) *string { return &c.TagKeyPrefix }, false)),
		key("TAG_VALUE_PREFIX", "tag value prefix", textField(func(c *Config) *string { return &c.TagValuePrefix }, false)),
		key("TAG_VALUE_CARDINALITY", "distinct values of each tag", tagCardinality(), list(",")),
		key("BATCH_SIZE_PER_WRITE", "rows per device in one write",
			intField(func(c *Config) *int { return &c.BatchSize }, 1, maxCount), flag("batch-size")),
		key("POINT_STEP", "milliseconds between consecutive rows of a device",
			intField(func(c *Config) *int64 { return &c.PointStep }, 1, math.MaxInt64), unit("ms")),
		key("START_TIME", "timestamp base: row k is at START_TIME + k*POINT_STEP", startTime()),
		key("TIMESTAMP_PRECISION", "timestamp unit", precision()),
		key("FIRST_ROW_AT", "where every device's row 0 lies: start (tsbench's default: at START_TIME) or step (the default of "+
			"a .properties file: one POINT_STEP after START_TIME, as IoT-benchmark writes it); query windows start from START_TIME either way",
			oneOf(func(c *Config) *string { return &c.FirstRowAt }, "start", "step")),
	)),
	group("Data generation", keys(
		key("DATA_SEED", "seed of every generated value", intField(func(c *Config) *int64 { return &c.DataSeed }, math.MinInt64, math.MaxInt64)),
		key("LINE_RATIO", "weight of the sawtooth value model", ratio(func(c *Config) *float64 { return &c.LineRatio })),
		key("SIN_RATIO", "weight of the sine value model", ratio(func(c *Config) *float64 { return &c.SinRatio })),
		key("SQUARE_RATIO", "weight of the square-wave value model", ratio(func(c *Config) *float64 { return &c.SquareRatio })),
		key("RANDOM_RATIO", "weight of the uniform random value model", ratio(func(c *Config) *float64 { return &c.RandomRatio })),
		key("CONSTANT_RATIO", "weight of the constant value model", ratio(func(c *Config) *float64 { return &c.ConstantRatio })),
		key("WALK_RATIO", "weight of the random-walk value model (tsbench)", ratio(func(c *Config) *float64 { return &c.WalkRatio })),
		key("STRING_LENGTH", "length of TEXT values", intField(func(c *Config) *int { return &c.StringLength }, 1, 100000)),
		key("CHANGE_RATIO", "share of values that change inside each block of CHANGE_BLOCK rows; the rest repeat the last value (tsbench)",
			floatField(func(c *Config) *float64 { return &c.ChangeRatio }, 0, 1, true)),
		key("CHANGE_BLOCK", "rows per block for CHANGE_RATIO; 1 = every value changes (tsbench)",
			intField(func(c *Config) *int { return &c.ChangeBlock }, 1, maxCount)),
		key("DOUBLE_LENGTH", "decimals kept in FLOAT and DOUBLE values (-1 = all)",
			intField(func(c *Config) *int { return &c.DoubleLength }, -1, 15)),
		key("IS_OUT_OF_ORDER", "deliver some rows later than rows with greater timestamps",
			boolField(func(c *Config) *bool { return &c.OutOfOrder })),
		key("OUT_OF_ORDER_MODE", "POISSON: single rows arrive late; BATCH: whole batches arrive late", outOfOrderMode()),
		key("OUT_OF_ORDER_RATIO", "share of rows delivered late",
			floatField(func(c *Config) *float64 { return &c.OutOfOrderRate }, 0, 1, false)),
		key("LAMBDA", "POISSON mode: mean delay of a late row, in POINT_STEPs",
			floatField(func(c *Config) *float64 { return &c.Lambda }, 0, inf, true)),
		key("MAX_K", "POISSON mode: longest delay, in POINT_STEPs", intField(func(c *Config) *int { return &c.MaxK }, 1, maxCount)),
	)),
	group("Queries", keys(
		key("QUERY_DEVICE_NUM", "devices per query", intField(func(c *Config) *int { return &c.QueryDevices }, 1, maxCount)),
		key("QUERY_SENSOR_NUM", "sensors per query", intField(func(c *Config) *int { return &c.QuerySensors }, 1, maxCount)),
		key("QUERY_AGGREGATE_FUN", "aggregate function of Q4..Q7", aggregate()),
		key("STEP_SIZE", "POINT_STEPs the window of a query kind advances per query (0 = fixed window)",
			intField(func(c *Config) *int64 { return &c.StepSize }, 0, math.MaxInt64)),
		key("QUERY_INTERVAL", "length of a query's time range in milliseconds",
			intField(func(c *Config) *int64 { return &c.QueryInterval }, 1, math.MaxInt64), unit("ms")),
		key("QUERY_LOWER_VALUE", "value filter: value > QUERY_LOWER_VALUE",
			floatField(func(c *Config) *float64 { return &c.QueryLower }, math.Inf(-1), inf, false)),
		key("GROUP_BY_TIME_UNIT", "Q7 bucket length in milliseconds",
			intField(func(c *Config) *int64 { return &c.GroupByUnit }, 1, math.MaxInt64), unit("ms")),
		key("GROUP_BY_ACROSS_DEVICES", "Q7 aggregates across the query's devices: one value per sensor and bucket "+
			"(TSBS's single-groupby and cpu-max-all) instead of one per series",
			boolField(func(c *Config) *bool { return &c.GroupByAcross })),
		key("GROUP_BY_LIMIT", "Q7 returns only its newest N buckets, newest first (ORDER BY bucket DESC LIMIT N; "+
			"TSBS's groupby-orderby-limit); needs GROUP_BY_ACROSS_DEVICES and QUERY_SENSOR_NUM = 1; 0 = every bucket",
			intField(func(c *Config) *int { return &c.GroupByLimit }, 0, maxCount)),
		key("QUERY_SEED", "seed of query parameters", intField(func(c *Config) *int64 { return &c.QuerySeed }, math.MinInt64, math.MaxInt64)),
		key("QUERY_DEVICE_SELECTION", "how a query picks devices and sensors: random (tsbench's draws from QUERY_SEED, "+
			"client and query number), iot-benchmark (IoT-benchmark's java.util.Random draws, the default of a .properties file; "+
			"the first device's sensors serve every device of a query) or owned (each client reads its own devices in turn, e.g. to read every series once)",
			oneOf(func(c *Config) *string { return &c.QuerySelection }, "random", "iot-benchmark", "owned")),
	)),
	group("TPC-C (WORKLOAD = tpcc)", keys(
		key("WORKLOAD", "what the run does: timeseries (writes and Q1..Q10); tpcc (TPC-C's five transactions; "+
			"CLIENT_NUMBER terminals for --duration, default 60s); prometheus (scrape targets written by remote write, "+
			"then recording rules, alerts and dashboards checked, see docs/workload.md); or tsbs-cpu-only, tsbs-devops, tsbs-iot (TSBS's use cases: "+
			"run runs the scenario of that name, generate writes its load; sets TSBS_USE_CASE, see docs/tsbs.md)",
			oneOf(func(c *Config) *string { return &c.Workload },
				append([]string{WorkloadTimeSeries, WorkloadTPCC, WorkloadPrometheus}, WorkloadsTSBS...)...),
			flag("workload")),
		key("TPCC_WAREHOUSES", "warehouses loaded (W; about 100 MB and 600,000 rows each)",
			intField(func(c *Config) *int { return &c.TPCCWarehouses }, 1, 100_000), flag("warehouses")),
		key("TPCC_THINK_TIME", "keying and think times of the specification (a terminal then does about 1.3 transactions a minute)",
			boolField(func(c *Config) *bool { return &c.TPCCThink })),
		key("TPCC_LOAD", "auto: reuse a complete load of the same shape; always: reload; never: the tables must be there",
			oneOf(func(c *Config) *string { return &c.TPCCLoad }, "auto", "always", "never")),
		key("TPCC_TABLES", "logged tables, or PostgreSQL UNLOGGED tables (no write-ahead log)",
			oneOf(func(c *Config) *string { return &c.TPCCTables }, "logged", "unlogged")),
		key("TPCC_TABLESPACE", "PostgreSQL tablespace for the TPC-C tables and indexes (empty: the default)",
			textField(func(c *Config) *string { return &c.TPCCTablespace }, false)),
		key("TPCC_MODE", "batched (the default): statements that do not need each other's answers share one round trip "+
			"(PostgreSQL: a pgx pipeline; MySQL/MariaDB: merged into joins, IN lists, multi-row INSERTs and UPDATEs); "+
			"interactive: one statement per round trip; procedures: one call per transaction of a server-side function "+
			"(PostgreSQL) or stored procedure (MySQL/MariaDB) created when the run starts (see docs/tpcc.md)",
			oneOf(func(c *Config) *string { return &c.TPCCMode }, "batched", "interactive", "procedures")),
	)),
	group("Prometheus (WORKLOAD = prometheus; see docs/workload.md)", keys(
		key("PROM_PROFILE", "what a target exposes: node, node_exporter 1.x's default collectors on an 8-CPU host "+
			"(850 series: _info series, flags, byte and second counters, decimal values); small, 41 node_exporter-like series",
			oneOf(func(c *Config) *string { return &c.PromProfile }, "node", "small")),
		key("PROM_HISTOGRAMS", "how each target exposes its request-duration histogram: classic, a _bucket series per le "+
			"with _sum and _count; native, one series of native histograms (exponential buckets, schema 0), sent by "+
			"remote write 1.0 or 2.0 and read by histogram_quantile, histogram_count and histogram_sum",
			oneOf(func(c *Config) *string { return &c.PromHistograms }, "classic", "native")),
		key("PROM_TARGETS", "scrape targets alive at once, each exposing PROM_PROFILE's series",
			intField(func(c *Config) *int { return &c.PromTargets }, 1, 100_000)),
		key("PROM_SCRAPE_INTERVAL", "time between two scrapes of a target, a whole number of milliseconds (the samples' "+
			"times; the run's pace too with PROM_TIME = now, else the scrapes are written as fast as the engine drives them)",
			goDuration(func(c *Config) *time.Duration { return &c.PromScrapeInterval })),
		key("PROM_CHURN_SHARE", "share of the targets replaced (new series as PROM_CHURN says, staleness markers for the old ones) every PROM_CHURN_PERIOD",
			floatField(func(c *Config) *float64 { return &c.PromChurnShare }, 0, 1, false)),
		key("PROM_CHURN_PERIOD", "scrape intervals between two replacements of PROM_CHURN_SHARE of the targets",
			intField(func(c *Config) *int { return &c.PromChurnPeriod }, 1, maxCount)),
		key("PROM_CHURN", "what a replaced target changes: instance, it comes back as another instance (host-S-G:9100), as a "+
			"replaced pod does; revision, it keeps its instance (host-S:9100) and every series of it takes a new revision "+
			"label, as prometheus-benchmark relabels its targets",
			oneOf(func(c *Config) *string { return &c.PromChurn }, "instance", "revision")),
		key("PROM_SPIKE_EVERY", "churn spikes: every PROM_SPIKE_EVERY-th churn boundary replaces PROM_SPIKE_SHARE of the "+
			"targets instead of PROM_CHURN_SHARE, as a rollout of a deployment does (0 = no spikes)",
			intField(func(c *Config) *int { return &c.PromSpikeEvery }, 0, maxCount)),
		key("PROM_SPIKE_SHARE", "share of the targets replaced at a spike (PROM_SPIKE_EVERY), more than PROM_CHURN_SHARE",
			floatField(func(c *Config) *float64 { return &c.PromSpikeShare }, 0, 1, false)),
		key("PROM_READS", "when the read load is asked: after, once every scrape is written; while, each rule and alert "+
			"at a scrape's time as soon as that scrape and those before are acknowledged (and visible: VictoriaMetrics "+
			"flushed), beside the writes still going, the dashboards at the end; none, no read load (the writes and their "+
			"count only, as a write benchmark such as avalanche runs)",
			oneOf(func(c *Config) *string { return &c.PromReads }, "after", "while", "none")),
		key("PROM_SCRAPES", "scrapes written; with PROM_TIME = past they end a minute before the run starts and "+
			"PROM_SCRAPES x PROM_SCRAPE_INTERVAL must not exceed 49 minutes (the stores refuse samples an hour older than "+
			"their newest); with PROM_TIME = now the run lasts that long, hours if asked",
			intField(func(c *Config) *int { return &c.PromScrapes }, 1, maxCount)),
		key("PROM_TIME", "when the samples are stamped: past, the scrapes' times end a minute before the run and they are "+
			"written as fast as the engine drives them; now, real time as a Prometheus server or vmagent sends, each "+
			"scrape stamped and written at its time by the wall clock, one PROM_SCRAPE_INTERVAL after another, the first "+
			"at most four intervals after the run starts (with PROM_READS = while each rule and alert is asked as its "+
			"scrape is written)",
			oneOf(func(c *Config) *string { return &c.PromTime }, "past", "now")),
	)),
	group("TSBS (--workload tsbs-cpu-only, tsbs-devops, tsbs-iot; see docs/tsbs.md)", keys(
		key("TSBS_USE_CASE", "TSBS's use case the run generates (set by the tsbs-* workloads): cpu-only, devops, iot, or empty",
			textField(func(c *Config) *string { return &c.TSBSUseCase }, false)),
		key("TSBS_PHASE", "the TSBS step a phase runs (set by the tsbs-* workloads): load, mixed, or a TSBS query type",
			textField(func(c *Config) *string { return &c.TSBSPhase }, false)),
		key("TSBS_SCALE", "TSBS's --scale: hosts (trucks for iot); sets DEVICE_NUMBER",
			intField(func(c *Config) *int { return &c.TSBSScale }, 0, 10_000_000)),
		key("TSBS_LOG_INTERVAL", "TSBS's --log-interval: time between a host's readings, e.g. 10s; sets POINT_STEP",
			goDuration(func(c *Config) *time.Duration { return &c.TSBSLogInterval })),
		key("TSBS_START", "TSBS's --timestamp-start (RFC 3339); sets START_TIME",
			textField(func(c *Config) *string { return &c.TSBSStart }, false)),
		key("TSBS_END", "TSBS's --timestamp-end (RFC 3339, excluded); with TSBS_START and TSBS_LOG_INTERVAL sets the rows per host (LOOP)",
			textField(func(c *Config) *string { return &c.TSBSEnd }, false)),
		key("TSBS_QUERY_FILE", "a query file of tsbs_generate_queries (timescaledb, influx or victoriametrics format, gzipped or not): run its queries as written, on data already loaded, as TSBS's runner does (--tsbs-queries)",
			textField(func(c *Config) *string { return &c.TSBSQueryFile }, false)),
		key("TSBS_BURN_IN", "with TSBS_QUERY_FILE: the file's first queries, run but not measured (TSBS's --burn-in)",
			intField(func(c *Config) *int64 { return &c.TSBSBurnIn }, 0, math.MaxInt64), flag("burn-in")),
		key("TSBS_MAX_QUERIES", "with TSBS_QUERY_FILE: queries run, burn-in included; 0 runs every query of the file (TSBS's --max-queries)",
			intField(func(c *Config) *int64 { return &c.TSBSMaxQueries }, 0, math.MaxInt64), flag("max-queries")),
		key("TSBS_PRINT_RESPONSES", "with TSBS_QUERY_FILE: print every answer as TSBS's runner prints it with --print-responses",
			boolField(func(c *Config) *bool { return &c.TSBSPrintResponses }), flag("print-responses")),
		key("TSBS_SEED", "TSBS's --seed: the seed of TSBS's own data (a cpu-only run's values and tags, generate --format for cpu-only and iot; TSBS's 0, the clock, is not taken: 0 is seed 0)",
			intField(func(c *Config) *int64 { return &c.TSBSSeed }, math.MinInt64, math.MaxInt64)),
		key("TSBS_VALUES", "the values a TSBS run writes: tsbs, TSBS's own (the tags and integer values tsbs_generate_data makes with TSBS_SEED; cpu-only, kept in memory, 1 byte each); "+
			"tsbench, tsbench's own, computed from their index (any scale); auto: tsbs for cpu-only, tsbench for devops and iot",
			oneOf(func(c *Config) *string { return &c.TSBSValues }, "auto", "tsbs", "tsbench")),
		key("TSBS_QUERIES", "TSBS's --queries: queries of each query type (a query phase's LOOP, shared by its clients)",
			intField(func(c *Config) *int64 { return &c.TSBSQueries }, 0, math.MaxInt64)),
	)),
	group("Analytics (event scenarios)", keys(
		key("ANALYTICS_ENGINE", "what runs an analytics phase (das-events): sql, the target's own SQL; or spark, Apache Spark "+
			"reading the event store over JDBC (scripts/ci/install-spark.sh)",
			oneOf(func(c *Config) *string { return &c.AnalyticsEngine }, "sql", "spark"), flag("analytics-engine")),
		key("SPARK_MASTER", "Spark master URL for ANALYTICS_ENGINE=spark: local[*] (default), or spark://HOST:7077 for a cluster",
			textField(func(c *Config) *string { return &c.SparkMaster }, false), flag("spark-master")),
	)),
	group("Output", keys(
		key("IS_QUIET_MODE", "no progress lines during the run", boolField(func(c *Config) *bool { return &c.Quiet }), flag("quiet")),
		key("LOG_PRINT_INTERVAL", "seconds between progress lines (0 = none)",
			unitDuration(func(c *Config) *time.Duration { return &c.ProgressInterval }, time.Second, 0)),
		key("CSV_OUTPUT", "write the result matrices as CSV files", boolField(func(c *Config) *bool { return &c.CSVOutput })),
		key("JSON", "write the run summary as JSON to this path", textField(func(c *Config) *string { return &c.JSONPath }, false), flag("json")),
		key("REMARK", "free text stored with the run", textField(func(c *Config) *string { return &c.Remark }, false)),
		key("THRESHOLDS", "pass/fail criteria checked after the run; a failure exits 99 (YAML: a list; elsewhere ';'-separated; --threshold adds more)",
			thresholdList(func(c *Config) *[]string { return &c.Thresholds }), list(";"), flag("threshold")),
		key("OUTPUTS", "send every second of the run, as it closes, to these receivers (YAML: a list; elsewhere ';'-separated; --out adds more)",
			outputList(), list(";"), flag("out")),
		key("FIND_MAX", "search for the highest open-model rate that meets these objectives (threshold expressions; YAML: a list; "+
			"elsewhere ';'-separated; --find-max adds more): rates doubled until a step fails, then bisected (tsbench)",
			thresholdList(func(c *Config) *[]string { return &c.FindMax }), list(";"), flag("find-max")),
		key("FIND_MAX_START", "the first rate a find-max search offers, operations per second (0 = half of what a closed-loop probe achieves)",
			floatField(func(c *Config) *float64 { return &c.FindMaxStart }, 0, inf, false)),
		key("FIND_MAX_SETTLE", "how long each find-max step runs at its rate before it is measured (its warm-up)",
			goDuration(func(c *Config) *time.Duration { return &c.FindMaxSettle })),
		key("FIND_MAX_MEASURE", "how long each find-max step is measured",
			goDuration(func(c *Config) *time.Duration { return &c.FindMaxMeasure })),
		key("FIND_MAX_MIN_OPS", "operations each objective's operation must complete in a find-max step for its figure to tell "+
			"(0 = by its metric: 1,000 for p99, 10,000 for p999, 20 for p50, 100 for avg, min and max); a step at a low rate is "+
			"measured longer, up to FIND_MAX_MAX_MEASURE, to complete them",
			intField(func(c *Config) *int64 { return &c.FindMaxMinOps }, 0, 1e9)),
		key("FIND_MAX_MAX_MEASURE", "the longest a find-max step at a low rate is measured to complete FIND_MAX_MIN_OPS operations; "+
			"a step that still completes fewer is flagged and the search stops there",
			goDuration(func(c *Config) *time.Duration { return &c.FindMaxMaxMeasure })),
		key("FIND_MAX_PRECISION", "a find-max search ends when the highest passing and the lowest failing rate are within this share",
			floatField(func(c *Config) *float64 { return &c.FindMaxPrecision }, 0, 1, true)),
		key("FIND_MAX_STEPS", "steps a find-max search runs at most (the closed-loop probe included)",
			intField(func(c *Config) *int64 { return &c.FindMaxSteps }, 1, 100)),
		key("STALL_MIN", "a stall is listed when throughput stays below STALL_FRACTION of the run's median at least this long (tsbench)",
			goDuration(func(c *Config) *time.Duration { return &c.StallMin })),
		key("STALL_FRACTION", "the share of the run's median per-second throughput below which a second counts toward a stall (tsbench)",
			floatField(func(c *Config) *float64 { return &c.StallFraction }, 0, 1, true)),
		key("FRESHNESS", "run the freshness probe beside the workload: one series written at FRESHNESS_RATE in a database of its own "+
			"(DB_NAME_freshness), its newest point polled, the time until each point is visible reported (tsbench)",
			boolField(func(c *Config) *bool { return &c.Freshness }), flag("freshness")),
		key("FRESHNESS_RATE", "the freshness probe's writes per second, one point each",
			floatField(func(c *Config) *float64 { return &c.FreshnessRate }, 0, 1000, true)),
		key("FRESHNESS_POLL", "pause between the freshness probe's polls (0 = back to back: one more client)",
			goDuration(func(c *Config) *time.Duration { return &c.FreshnessPoll })),
		key("FRESHNESS_WAIT", "how long after the measured phase the freshness probe waits for points it has not yet seen",
			goDuration(func(c *Config) *time.Duration { return &c.FreshnessWait })),
		key("CRASH_AT", "kill the database server (SIGKILL to the process listening on the target's port) this far into the measured phase, "+
			"restart it with CRASH_RESTART, and map the acknowledged points it lost (0 = never; tsbench)",
			goDuration(func(c *Config) *time.Duration { return &c.CrashAt }), flag("crash")),
		key("CRASH_RESTART", "the shell command that starts the server again on the data the crash left "+
			"(default: the killed process's own command line, directory, environment and user, read from /proc before the kill; "+
			"where /proc cannot tell, scripts/services/NAME.sh resume, where that script is found)",
			textField(func(c *Config) *string { return &c.CrashRestart }, false), flag("crash-restart")),
		key("CRASH_COMMAND", "the shell command that makes the fault at CRASH_AT instead of tsbench's kill, for a server tsbench "+
			"did not start or cannot reach as a process (kubectl delete pod db-0, systemctl kill postgresql, a kill on another host): "+
			"CRASH_RESTART, if given, runs after it, and the run waits for the server to take work again either way",
			textField(func(c *Config) *string { return &c.CrashCommand }, false), flag("crash-command")),
		key("CRASH_PAUSE", "stop the server at CRASH_AT instead of killing it: SIGSTOP to the process listening on the target's "+
			"port and its descendants, SIGCONT this much later, as a long GC pause, a stalled disk or a frozen VM leave it; "+
			"nothing restarts, and the run maps what the server lost as after a kill (0 = kill)",
			goDuration(func(c *Config) *time.Duration { return &c.CrashPause }), flag("crash-pause")),
		key("CRASH_PARTITION", "cut the run's connections off the server at CRASH_AT instead of killing it, for this long: "+
			"they go through a relay of tsbench's, which then passes nothing either way and leaves new connections "+
			"unanswered, as a network partition between the clients and a server that keeps running; "+
			"the run maps what the server lost as after a kill (0 = kill)",
			goDuration(func(c *Config) *time.Duration { return &c.CrashPartition }), flag("crash-partition")),
		key("CRASH_DOWN", "how long the killed server stays down before CRASH_RESTART runs",
			goDuration(func(c *Config) *time.Duration { return &c.CrashDown })),
		key("CRASH_NODE", "with several hosts (HOST lists a cluster's nodes): the node the fault hits, 1 for HOST's first "+
			"(the default), 2 for its second ...; the clients of the other nodes run on, and the crash line names the node",
			intField(func(c *Config) *int { return &c.CrashNode }, 1, 1000), flag("crash-node")),
	)),
	group("IoT-benchmark keys whose default tsbench always runs (other values refused)", defaultOnlyKeys()),
	group("Accepted for IoT-benchmark compatibility, not used", ignoredKeys()),
)

const (
	maxSensors = 1_000_000 // SensorTypes allocates one entry per sensor
	maxTags    = 1000
)

func ratio(f func(c *Config) *float64) binding { return floatField(f, 0, inf, false) }

func concat(parts ...[]Key) []Key {
	var out []Key
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// defaultOnlyKeys are IoT-benchmark keys whose default is what tsbench
// always does. Their default is accepted; another value would ask for
// another workload than tsbench runs, so it is refused (exit 2) with what
// to use instead, never taken and ignored.
func defaultOnlyKeys() []Key {
	return keys(
		onlyDefault("REAL_INSERT_RATE", "1.0", "share of the write batches that are sent",
			"tsbench sends every batch; to write less, lower LOOP or the write weight of OPERATION_PROPORTION"),
		onlyDefault("IS_SENSOR_TS_ALIGNMENT", "true", "all sensors of a device share each timestamp",
			"tsbench writes aligned rows; unaligned series are not generated"),
		onlyDefault("TS_ALIGNMENT_RATIO", "1.0", "share of aligned points when IS_SENSOR_TS_ALIGNMENT is false",
			"tsbench writes aligned rows; unaligned series are not generated"),
		onlyDefault("IS_REGULAR_FREQUENCY", "true", "timestamps at exactly START_TIME + k*POINT_STEP",
			"tsbench's timestamps are regular so that every answer can be checked; for late delivery use IS_OUT_OF_ORDER"),
		onlyDefault("DEVICE_NUM_PER_WRITE", "1", "devices per write request",
			"a tsbench write carries one device; to send more points per request raise BATCH_SIZE_PER_WRITE"),
		onlyDefault("IS_RECORD_CURRENT_REALLY_TIME", "false", "stamp rows with the wall clock",
			"timestamps come from START_TIME so that runs are reproducible and checkable; set START_TIME to a recent time instead"),
		onlyDefault("INTERVAL_BETWEEN_WRITE_BATCH", "0", "milliseconds between write batches",
			"pace with OP_MIN_INTERVAL (per operation) or --rate (operations per second)"),
		onlyDefault("IS_RECENT_QUERY", "false", "query windows near the latest written time",
			"query windows follow START_TIME + n*STEP_SIZE*POINT_STEP per client; move them with QUERY_LOWER_BOUND and STEP_SIZE"),
		onlyDefault("ENABLE_FIXED_QUERY", "false", "repeat one fixed query",
			"each query draws its own parameters; a fixed window is not supported"),
		onlyDefault("RESULT_ROW_LIMIT", "-1", "LIMIT on query answers (-1: none)",
			"queries return every matching point, which the answer checks need"),
		onlyDefault("ALIGN_BY_DEVICE", "false", "IoTDB's ALIGN BY DEVICE in queries",
			"the iotdb target's queries have their own shape; see docs/iot-benchmark.md"),
	)
}

// onlyDefault declares an IoT-benchmark key of which tsbench does only the
// default: the default (or an equal number) is accepted, any other value
// refused saying what to use instead.
func onlyDefault(name, def, doc, instead string) Key {
	return Key{Name: name, Doc: "IoT-benchmark key: " + doc, Allowed: def + " only (IoT-benchmark's default)",
		set: func(c *Config, v string) error {
			if !sameValue(v, def) {
				return because("tsbench runs only %s = %s: %s", name, def, instead)
			}
			return nil
		},
		get: func(c *Config) any { return def },
	}
}

// sameValue compares a key's text with a default: booleans without case,
// numbers by value (1 and 1.0 are the same rate).
func sameValue(v, def string) bool {
	v = strings.TrimSpace(v)
	if strings.EqualFold(v, def) {
		return true
	}
	a, errA := strconv.ParseFloat(v, 64)
	b, errB := strconv.ParseFloat(def, 64)
	return errA == nil && errB == nil && a == b
}

// ignoredKeys lists IoT-benchmark keys tsbench takes without complaint,
// grouped by the reason it does not act on them.
func ignoredKeys() []Key {
	clientBind := ignored("tsbench always binds each device to exactly one client", "IS_CLIENT_BIND")
	clientBind[0].warn = func(v string) string {
		if strings.EqualFold(strings.TrimSpace(v), "true") {
			return ""
		}
		return "tsbench always binds each device to one client; a shared workload (IS_CLIENT_BIND=false) is not reproduced"
	}
	return concat(
		clientBind,
		ignored("tsbench computes every value from the seed and its index and never repeats a buffer", "WORKLOAD_BUFFER_SIZE"),
		ignored("the OBJECT type is not generated", "OBJECT_LENGTH", "OBJECT_QUERY_FULL_CONTENT"),
		ignored("copy and anomaly modes belong to verificationWriteMode, which tsbench does not support",
			"IS_COPY_MODE", "IS_ADD_ANOMALY", "ANOMALY_RATE", "ANOMALY_TIMES"),
		ignored("Q12 set operations are not supported", "QUERY_SET_OP_TYPE", "QUERY_SET_OP_NUM"),
		ignored("writing to a second database is not supported; run tsbench once per target and compare",
			"IS_DOUBLE_WRITE", "ANOTHER_*"),
		ignored("tsbench checks results against the generator (verify), not against a second database",
			"IS_COMPARISON", "IS_POINT_COMPARISON", "VERIFICATION_STEP_SIZE"),
		ignored("data-file modes (generateDataMode, verification modes) are not supported", "FILE_PATH", "BIG_BATCH_SIZE"),
		ignored("latency is always measured, in HDR histograms with 3 significant digits", "USE_MEASUREMENT", "RESULT_PRECISION"),
		ignored("tsbench keeps every run in its own results store (and json)",
			"TEST_DATA_PERSISTENCE", "TEST_DATA_STORE_*", "TEST_DATA_WRITE_TIME_OUT", "TEST_DATA_MAX_CONNECTION",
			"MYSQL_REAL_INSERT_RATE", "RECORD_SPLIT*"),
		ignored("progress is printed every LOG_PRINT_INTERVAL; the full result at the end", "RESULT_PRINT_INTERVAL"),
		ignored("IoTDB encodings and compression are the target's defaults (or target_options)",
			"COMPRESSOR", "ENCODING_*"),
		ignored("IoTDB schema and session settings are not used; pass target settings with target_options",
			"TEMPLATE", "TEMPLATE_NAME", "VECTOR", "ENABLE_AUTO_FETCH", "ENABLE_THRIFT_COMPRESSION",
			"ENABLE_IOTDB_RPC_COMPRESSION", "TABLE_TIME_COLUMN", "IOTDB_*"),
		ignored("IoT-benchmark adapter setting; pass target settings with target_options",
			"HTTP_CLIENT_POOL_SIZE", "COMPRESSION", "TIMESCALEDB_REPLICATION_FACTOR", "TDENGINE_WAL_LEVEL",
			"TDENGINE_REPLICA", "INFLUXDB_ORG", "DOLPHINDB_DEVICE_HASH_BUCKETS"),
		ignored("a client certificate is not read from a Java key store: give it and its key as PEM with TLS_CERT_FILE and TLS_KEY_FILE",
			"KEY_STORE_PATH", "KEY_STORE_PWD"),
		ignored("the IoTDB REST interface is not a tsbench target", "REST_*"),
		ignored("tsbench samples the server's CPU, memory, disk and network itself (--resources, tsbench monitor)",
			"MONITOR_INTERVAL", "NET_DEVICE"),
		ignored("IoT-benchmark adapter setting (CnosDB shards, IoTDB cluster node discovery); pass target settings with target_options",
			"CNOSDB_SHARD_NUMBER", "IS_ALL_NODES_VISIBLE"),
		ignored("tags of older IoT-benchmark releases; tsbench's are TAG_NUMBER, TAG_KEY_PREFIX, TAG_VALUE_PREFIX and TAG_VALUE_CARDINALITY",
			"DEVICE_TAGS", "TAG_NAME_PREFIX"),
		ignored("the Kafka source is not supported", "KAFKA_*", "ZOOKEEPER_*", "TOPIC_NAME"),
	)
}

// secretFile binds a key naming a file that holds a secret (PASSWORD_FILE,
// TOKEN_FILE): the secret is read when the key is set, and a final line
// break (echo's, an editor's) is not part of it. The error for an
// unreadable file names the file, never its content. The name is shown
// redacted like the secret (the key's name says secret): a stored run's
// configuration, read back, gives it as Redacted, which reads no file and
// leaves the secret to the caller as for PASSWORD.
func secretFile(fields func(*Config) (secret, file *string)) binding {
	return binding{
		allowed: "the path of a readable, non-empty file",
		set: func(c *Config, v string) error {
			v = strings.TrimSpace(v)
			secret, file := fields(c)
			if v == "" || v == Redacted {
				*file = ""
				return nil
			}
			data, err := os.ReadFile(v)
			if err != nil {
				return because("cannot read it: %v", err)
			}
			text := strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
			if text == "" {
				return because("%s is empty", v)
			}
			*secret, *file = text, v
			return nil
		},
		get: func(c *Config) any { _, file := fields(c); return *file },
	}
}
