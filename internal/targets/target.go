// Package targets defines the contract between the benchmark engine and a
// database, and the registry through which a database package makes itself
// known. Each database lives in a sub-package that registers a Driver in its
// init function; a new database is one new package.
package targets

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsbench/tsbench/internal/ts"
)

// Target is one client's connection to a database. The runner opens one Target
// per client so that each client has its own connection, as a real
// application would.
type Target interface {
	// Setup creates databases, tables and series for the schema. With reset
	// it first drops what an earlier run left.
	Setup(ctx context.Context, s *ts.Schema, reset bool) error
	// Write returns once the server acknowledged every point of the batch.
	Write(ctx context.Context, b *ts.Batch) error
	// Query runs q in the database's own query language.
	Query(ctx context.Context, q *ts.Query) (ts.Result, error)
	// Count returns the number of distinct points stored in the range.
	Count(ctx context.Context, r ts.CountRange) (int64, error)
	Close() error
}

// ErrUnsupported is wrapped by Query when a target cannot express a query
// kind; the run reports such operations as unsupported, never as a pass.
var ErrUnsupported = errors.New("not supported by this target")

// ErrConnection is wrapped by a target whose driver reports a lost or
// refused connection in an error type of its own that hides the network
// error (e.g. a server still starting up after a crash refuses logins):
// the failure then counts as a connection failure, which RETRIES retries.
var ErrConnection = errors.New("no connection to the server")

// ErrNotSent is wrapped, beside ErrConnection, by a target that failed an
// operation before sending any of it (its connection could not be re-opened):
// a write that failed so cannot have been stored, so it is not in doubt.
var ErrNotSent = errors.New("nothing was sent")

// ErrMaybeApplied is matched by a server's failure answer after which the
// request may have been applied in part: an HTTP server error (5xx) from a
// store that writes to several replicas or shards and answers once it
// failed on some (Thanos Receive's quorum, Mimir's "the request may have
// been partially ingested"). A write that failed so is in doubt, as one
// that timed out.
var ErrMaybeApplied = errors.New("the server may have applied part of it")

// Reconnector is implemented by targets that re-open, on the next
// operation, a connection the server dropped (or that a timeout abandoned
// mid-answer). Reconnects counts those re-openings; the run reports them.
type Reconnector interface {
	Reconnects() int64
}

// Versioner is implemented by targets that can tell the server's version.
type Versioner interface {
	ServerVersion(ctx context.Context) (string, error)
}

// Sizer is implemented by targets that can tell how many bytes their data
// takes on disk.
type Sizer interface {
	StorageBytes(ctx context.Context) (int64, error)
}

// Binder is implemented by targets that must learn the schema before writes
// or queries on a connection that did not run Setup (every client but the
// first): it prepares the connection without creating anything.
type Binder interface {
	Bind(ctx context.Context, s *ts.Schema) error
}

// Options are the connection settings of a target, read from the
// configuration (HOST, PORT, USERNAME, PASSWORD, DB_NAME and target-specific
// keys).
type Options struct {
	Host     string
	Port     int
	User     string
	Password string
	Token    string // TOKEN: a secret like Password, for servers that take tokens
	Database string
	DataDir  string            // for embedded targets: where files go
	Extra    map[string]string // target-specific settings
	TLS      TLS               // how to connect over TLS; off unless asked for
	// Path is a path prefix every request of an HTTP target carries (the
	// path of an http(s) TARGET_URL: a VictoriaMetrics cluster's
	// /insert/0/prometheus, a proxy's route); "" for none.
	Path string
	// Query, when set, is where queries and verification go (QUERY_URL)
	// while writes and the schema go here (WRITE_URL): the runner opens
	// both and splits the operations between them.
	Query *Options
	// ReadWrite (a PostgreSQL URL's target_session_attrs=read-write) takes
	// a connection only from a server that takes writes; Failover are the
	// further nodes of the same database ("host" or "host:port"), tried
	// in order after Host:Port, so that a run follows its primary's
	// standby once promoted.
	ReadWrite bool
	Failover  []string
}

// HostPort is where the server listens: HOST and PORT, with 127.0.0.1 and
// the target's defaultPort (that of its service script) where unset.
func (o Options) HostPort(defaultPort int) (host string, port int) {
	host, port = o.Host, o.Port
	if strings.Contains(host, ",") {
		// Several hosts: the runner gives each client its own
		// (PerHost); a connection made elsewhere (a scenario's analytics,
		// 'tsbench merge' counting) goes to the first, as the schema does.
		first := o.PerHost()[0]
		host, port = first.Host, first.Port
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if port == 0 {
		port = defaultPort
	}
	return host, port
}

// DatabaseOr is DB_NAME, or def where it is unset.
func (o Options) DatabaseOr(def string) string {
	if o.Database == "" {
		return def
	}
	return o.Database
}

// Capabilities say what a target can do, so that a conformance suite checks
// the declaration instead of skipping silently.
type Capabilities struct {
	// TLS says the target connects over TLS when asked (TLS=on); a run
	// that asks a target without it is refused before it connects.
	TLS     bool
	Types   []ts.DataType
	Queries []ts.QueryKind
	// ClientSide lists supported query kinds that tsbench computes from
	// points the server returned rather than the server answering them: their
	// latency includes moving every point in range. Reports say so.
	ClientSide []ts.QueryKind
	// Compression says the target honours the option compression=on|off
	// (e.g. codecs, table compression); the compression scenario needs it.
	Compression bool
	// Sparse says the target writes batches with empty cells
	// (ts.Column.Null) exactly: no value where a cell is empty, rows with
	// nulls or per-series writes, and Count counting the values present.
	// Sparse data (a replayed file with missing values) is refused before
	// the run on a target without it.
	Sparse bool
	// GroupByAcross says the server answers a Q7 with Across (one value
	// per sensor and bucket over every device of the query) and Limit (the
	// newest buckets only), as TSBS's single-groupby, cpu-max-all and
	// groupby-orderby-limit ask. On a target without it those queries
	// count as unsupported: they are never sent as per-series Q7s.
	GroupByAcross bool
	// BucketsFromStart says the target aligns Q7's buckets to the
	// window's start only: a query with ts.Query.ClockBuckets (TSBS's
	// buckets on the clock) counts as unsupported (KairosDB).
	BucketsFromStart bool
	// PromStore says the target takes Prometheus remote write and answers
	// PromQL (its Target implements PromStore): the prometheus workload
	// runs on it.
	PromStore bool
	// NoNativeHistograms says why the PromStore does not keep Prometheus'
	// native histograms as such ("" when it does): a prometheus run with
	// native histograms is refused with it.
	NoNativeHistograms string
	// Fleet says how the target answers TSBS's iot questions
	// (FleetQuerier): FleetOnServer in its query language, FleetFromPoints
	// computed by tsbench from the points the server returns (as TSBS does
	// for Cassandra), or "" not at all (the questions count unsupported).
	Fleet string
}

// The values of Capabilities.Fleet.
const (
	FleetOnServer   = "server"
	FleetFromPoints = "from points"
)

// SupportsAcross reports whether q's Across and Limit, if any, are declared.
func (c Capabilities) SupportsAcross(q *ts.Query) bool {
	return c.GroupByAcross || !q.Across && q.Limit == 0
}

// SupportsType reports whether t is among the declared types.
func (c Capabilities) SupportsType(t ts.DataType) bool {
	for _, x := range c.Types {
		if x == t {
			return true
		}
	}
	return false
}

// SupportsQuery reports whether k is among the declared query kinds.
func (c Capabilities) SupportsQuery(k ts.QueryKind) bool {
	for _, x := range c.Queries {
		if x == k {
			return true
		}
	}
	return false
}

// Driver describes one database and opens connections to it.
type Driver struct {
	Name        string   // registry name, e.g. "sqlite"
	Aliases     []string // IoT-benchmark DB_SWITCH prefixes that map here, e.g. "SQLite"
	Description string
	WritePaths  []string // the write paths the time series workload takes, first is default (write_path)
	Server      string   // how to get a server: "embedded" or the service script
	// Service is the script of scripts/services (without ".sh") that
	// starts the target's test server on 127.0.0.1:DefaultPort, and whose
	// pid file names it; "" for a target without one (embedded, null).
	Service string
	// DefaultPort is the TCP port the server listens on when PORT is
	// unset: that of its service script; 0 for embedded targets and null.
	// The resources sampler watches the process listening on it.
	DefaultPort int
	// URLs are the connection URLs (TARGET_URL, WRITE_URL, QUERY_URL) the
	// target takes; nil when it takes none (embedded targets, hbase).
	URLs *URLs
	Caps Capabilities
	// Options are the target options (target.NAME=VALUE) the target reads
	// from Options.Extra; the command line refuses any other before a run.
	Options []Option
	// TSBSOptions are the target options a TSBS run (TSBS_USE_CASE set)
	// takes unless the user gives them: TSBS's own table shape, so that
	// its queries are timed on the tables TSBS's loader makes.
	TSBSOptions map[string]string
	Open        func(ctx context.Context, o Options) (Target, error)
	// Refuses, when set, names the DB_SWITCH spellings of this database
	// that the target does not run as they ask (another API, another
	// insert mode), each with what to use instead; Lookup refuses them
	// rather than run the target in their place.
	Refuses map[string]string
	// SQL, when set, says how workloads that are not time series (TPC-C)
	// reach the server through database/sql, or why they cannot.
	SQL *SQLAccess
	// Language, when set, is the query language the user's own queries
	// (--queries) are written in for this target; its Target implements
	// StatementRunner.
	Language *Language
}

// SQLAccess is a target's database/sql access for transactional workloads.
type SQLAccess struct {
	// Dialect is the SQL spoken: "postgres" or "mysql".
	Dialect string
	// Open returns a handle whose connections use the target's settings
	// (HOST, PORT, USERNAME, PASSWORD, DB_NAME); nil when Unsupported.
	Open func(ctx context.Context, o Options) (*sql.DB, error)
	// Unsupported says why transactional workloads cannot run on the
	// target (e.g. one writer at a time); empty when they can.
	Unsupported string
}

// Option is one target option and what it accepts: one of Values, or what
// Check allows; neither means any value.
type Option struct {
	Name   string
	Values []string
	Check  func(v string) error
}

// PortNumber is the Check of an option that names a TCP port.
func PortNumber(v string) error {
	if n, err := strconv.Atoi(v); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("must be a port number in [1, 65535]")
	}
	return nil
}

var (
	mu      sync.RWMutex
	drivers = map[string]*Driver{}
)

// Register makes a driver known; database packages call it from init.
func Register(d *Driver) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := drivers[d.Name]; dup {
		panic("target: driver registered twice: " + d.Name) // programming error, not input
	}
	drivers[d.Name] = d
}

// Drivers returns every registered driver sorted by name.
func Drivers() []*Driver {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]*Driver, 0, len(drivers))
	for _, d := range drivers {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Names lists the registered driver names.
func Names() []string {
	var names []string
	for _, d := range Drivers() {
		names = append(names, d.Name)
	}
	return names
}

// Lookup finds a driver by its name or by an IoT-benchmark DB_SWITCH value
// such as "IoTDB-200-SESSION_BY_TABLET" (matched on the part before the first
// dash, case-insensitively).
func Lookup(name string) (*Driver, error) {
	mu.RLock()
	defer mu.RUnlock()
	if d, ok := drivers[strings.ToLower(name)]; ok {
		return d, nil
	}
	base := name
	if i := strings.IndexByte(name, '-'); i > 0 {
		base = name[:i]
	}
	for _, d := range drivers {
		for _, a := range d.Aliases {
			if strings.EqualFold(a, name) || strings.EqualFold(a, base) {
				return d, refused(d, name)
			}
		}
	}
	if l, ok := leftOutLocked(name, base); ok {
		return nil, l.Err()
	}
	return nil, fmt.Errorf("database %q is not supported yet (supported: %s)", name, strings.Join(namesLocked(), ", "))
}

// refused is the error for a DB_SWITCH spelling the driver refuses, or nil.
func refused(d *Driver, name string) error {
	for variant, instead := range d.Refuses {
		if strings.Contains(strings.ToUpper(name), strings.ToUpper(variant)) {
			return fmt.Errorf("database %q: the %s target does not run it (%s)", name, d.Name, instead)
		}
	}
	return nil
}

// namesLocked lists the registered drivers' names, sorted; the caller
// holds the registry's lock.
func namesLocked() []string { return slices.Sorted(maps.Keys(drivers)) }

// StatementLoop serves the measured executions of the user's own
// statements (Statement.CountOnly) for many clients from the one goroutine
// that calls it (CLIENT_IO=epoll; pgwire.Loop): Send begins client i's
// execution, Wait reports those that ended. It is not safe for concurrent
// use.
type StatementLoop interface {
	Send(ctx context.Context, client int, st *Statement) error
	// Wait returns once one or more executions have ended, or at until,
	// reporting each through done: its client, when its answer arrived
	// (the kernel's receive timestamp where the socket gives one, else when
	// it was read), its row count and its error.
	Wait(until time.Time, done func(client int, at time.Time, rows int64, err error)) error
	// Abort gives up a client's execution in flight (its deadline passed);
	// Wait will not report it.
	Abort(client int)
	// Reconnects counts the connections opened again after one was lost.
	Reconnects() int64
	// Clock says what ended the executions' latencies: the kernel's
	// receive timestamps of the answers, or the loop's reads of them.
	Clock() string
	Close() error
}

// StatementLooper is a target that can serve its clients' own statements
// from a StatementLoop of clients connections of its own.
type StatementLooper interface {
	OpenStatementLoop(ctx context.Context, clients int) (StatementLoop, error)
}
