package results

import (
	"strings"

	"github.com/tsbench/tsbench/internal/dollarparams"
)

// The tables. Names carry a tsbench_ prefix: a PostgreSQL or MySQL store may
// share a database with other things (the benchmark's own tables included).
var (
	runColumns = []string{"run_id", "started_ms", "started", "target", "scenario", "status", "stop_reason", "elapsed_s",
		"headline_op", "headline_throughput", "headline_p99_ms", "total_points", "fail_operations",
		"hostname", "tool_version", "server_version", "schema_version", "config_json", "environment_json", "summary_json",
		"run_group", "worker_index"}
	operationColumns = []string{"run_id", "name", "ok_operations", "ok_points", "fail_operations", "fail_points", "unsupported",
		"throughput", "avg_ms", "min_ms", "p10_ms", "p25_ms", "p50_ms", "p75_ms", "p90_ms", "p95_ms", "p99_ms", "p999_ms", "max_ms",
		"slowest_thread_ms", "hdr_histogram"}
	// op_seq keeps the order of an interval's operations; an interval in
	// which nothing completed is one row with an empty operation.
	intervalColumns = []string{"run_id", "seq", "operation", "t_s", "duration_s", "ok_operations", "ok_points", "fail_operations",
		"p50_ms", "p99_ms", "max_ms", "hdr_histogram", "op_seq"}
	// time_utc is the sample's time to the nanosecond (time_ms is for SQL).
	resourceColumns = []string{"run_id", "source", "seq", "t_s", "time_ms", "hostname", "tool_cpu_percent", "tool_rss_bytes",
		"server_pid", "server_cpu_percent", "server_rss_bytes", "server_read_bytes_per_s", "server_write_bytes_per_s",
		"host_cpu_percent", "host_mem_used_bytes", "host_mem_total_bytes", "host_disk_read_bytes_per_s", "host_disk_write_bytes_per_s",
		"host_net_recv_bytes_per_s", "host_net_sent_bytes_per_s",
		"time_utc", "tool_pid", "tool_processes", "tool_read_bytes_per_s", "tool_write_bytes_per_s", "server_processes", "host_cores"}
	thresholdColumns = []string{"run_id", "seq", "expr", "passed", "actual", "reason"}
)

// ddlTemplate uses {ID} (a short key), {NAME} (a label of any length, not
// indexed), {TEXT} (up to a few KB), {BIG} (anything: a whole summary),
// {REAL} and {INT}; {INDEX name (cols)} marks an index, inline for MySQL and
// a separate statement elsewhere. The tables are those of the first stores:
// columns added since are in addedColumns.
var ddlTemplate = []string{
	`CREATE TABLE IF NOT EXISTS tsbench_meta (
		name {ID} NOT NULL PRIMARY KEY,
		value {TEXT} NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS tsbench_runs (
		run_id {ID} NOT NULL PRIMARY KEY,
		started_ms BIGINT NOT NULL,
		started {ID} NOT NULL,
		target {NAME} NOT NULL,
		scenario {NAME} NOT NULL,
		status {ID} NOT NULL,
		stop_reason {NAME},
		elapsed_s {REAL} NOT NULL,
		headline_op {NAME},
		headline_throughput {REAL},
		headline_p99_ms {REAL},
		total_points BIGINT NOT NULL,
		fail_operations BIGINT NOT NULL,
		hostname {NAME},
		tool_version {NAME},
		server_version {NAME},
		schema_version {INT},
		config_json {BIG},
		environment_json {BIG},
		summary_json {BIG} NOT NULL
		{INDEX tsbench_runs_started (started_ms)})`,
	`CREATE TABLE IF NOT EXISTS tsbench_operations (
		run_id {ID} NOT NULL,
		name {ID} NOT NULL,
		ok_operations BIGINT NOT NULL,
		ok_points BIGINT NOT NULL,
		fail_operations BIGINT NOT NULL,
		fail_points BIGINT NOT NULL,
		unsupported BIGINT NOT NULL,
		throughput {REAL} NOT NULL,
		avg_ms {REAL}, min_ms {REAL}, p10_ms {REAL}, p25_ms {REAL}, p50_ms {REAL}, p75_ms {REAL},
		p90_ms {REAL}, p95_ms {REAL}, p99_ms {REAL}, p999_ms {REAL}, max_ms {REAL},
		slowest_thread_ms {REAL},
		hdr_histogram {BIG},
		PRIMARY KEY (run_id, name))`,
	`CREATE TABLE IF NOT EXISTS tsbench_intervals (
		run_id {ID} NOT NULL,
		seq {INT} NOT NULL,
		operation {ID} NOT NULL,
		t_s {REAL} NOT NULL,
		duration_s {REAL} NOT NULL,
		ok_operations BIGINT NOT NULL,
		ok_points BIGINT NOT NULL,
		fail_operations BIGINT NOT NULL,
		p50_ms {REAL}, p99_ms {REAL}, max_ms {REAL},
		hdr_histogram {BIG},
		PRIMARY KEY (run_id, seq, operation))`,
	`CREATE TABLE IF NOT EXISTS tsbench_resources (
		run_id {ID} NOT NULL,
		source {ID} NOT NULL,
		seq {INT} NOT NULL,
		t_s {REAL} NOT NULL,
		time_ms BIGINT NOT NULL,
		hostname {NAME},
		tool_cpu_percent {REAL}, tool_rss_bytes BIGINT,
		server_pid {INT}, server_cpu_percent {REAL}, server_rss_bytes BIGINT,
		server_read_bytes_per_s {REAL}, server_write_bytes_per_s {REAL},
		host_cpu_percent {REAL}, host_mem_used_bytes BIGINT, host_mem_total_bytes BIGINT,
		host_disk_read_bytes_per_s {REAL}, host_disk_write_bytes_per_s {REAL},
		host_net_recv_bytes_per_s {REAL}, host_net_sent_bytes_per_s {REAL},
		PRIMARY KEY (run_id, source, seq))`,
	// A 'tsbench monitor --store' session; its samples are in
	// tsbench_resources with source 'monitor' and run_id = monitor_id.
	`CREATE TABLE IF NOT EXISTS tsbench_monitors (
		monitor_id {ID} NOT NULL PRIMARY KEY,
		hostname {NAME},
		started_ms BIGINT NOT NULL,
		ended_ms BIGINT,
		server_pid {INT},
		server_name {NAME},
		interval_s {REAL} NOT NULL)`,
	// The workers of a scaled-out run meet here (workers.go): each
	// registers each stage it reached, and waits for the others'.
	`CREATE TABLE IF NOT EXISTS tsbench_workers (
		run_group {ID} NOT NULL,
		worker_index {INT} NOT NULL,
		stage {ID} NOT NULL,
		workers {INT} NOT NULL,
		run_id {ID} NOT NULL,
		hostname {NAME},
		at_ms BIGINT NOT NULL,
		PRIMARY KEY (run_group, worker_index, stage))`,
	`CREATE TABLE IF NOT EXISTS tsbench_thresholds (
		run_id {ID} NOT NULL,
		seq {INT} NOT NULL,
		expr {TEXT} NOT NULL,
		passed {INT} NOT NULL,
		actual {REAL},
		reason {TEXT},
		PRIMARY KEY (run_id, seq))`,
}

// addedColumns came after the first stores were made; migrate adds those a
// store lacks. They are nullable, so an older tsbench still writes such a
// store (leaving them NULL) and StoreVersion needs no bump.
var addedColumns = []struct{ table, column, typ string }{
	{"tsbench_intervals", "op_seq", "{INT}"},
	{"tsbench_resources", "time_utc", "{ID}"},
	{"tsbench_resources", "tool_pid", "{INT}"},
	{"tsbench_resources", "tool_processes", "{INT}"},
	{"tsbench_resources", "tool_read_bytes_per_s", "{REAL}"},
	{"tsbench_resources", "tool_write_bytes_per_s", "{REAL}"},
	{"tsbench_resources", "server_processes", "{INT}"},
	{"tsbench_resources", "host_cores", "{INT}"},
	{"tsbench_runs", "run_group", "{ID}"},
	{"tsbench_runs", "worker_index", "{INT}"},
}

type dialect struct {
	name  string
	types map[string]string
	// tableOptions follow each CREATE TABLE.
	tableOptions string
}

// Labels are {NAME} = TEXT on the servers: server versions, host names and
// scenario labels have no length a VARCHAR could promise. MySQL tables
// declare utf8mb4 because a server's default is often latin1, which rejects
// (in strict mode) any other character in a label or an error text; the
// binary collation makes keys case-sensitive as on the other databases.
var dialects = map[string]dialect{
	"sqlite": {name: "sqlite", types: map[string]string{"{ID}": "TEXT", "{NAME}": "TEXT", "{TEXT}": "TEXT", "{BIG}": "TEXT",
		"{REAL}": "REAL", "{INT}": "INTEGER"}},
	"postgres": {name: "postgres", types: map[string]string{"{ID}": "VARCHAR(100)", "{NAME}": "TEXT", "{TEXT}": "TEXT",
		"{BIG}": "TEXT", "{REAL}": "DOUBLE PRECISION", "{INT}": "INTEGER"}},
	"mysql": {name: "mysql", types: map[string]string{"{ID}": "VARCHAR(100)", "{NAME}": "TEXT", "{TEXT}": "TEXT",
		"{BIG}": "LONGTEXT", "{REAL}": "DOUBLE", "{INT}": "INTEGER"},
		tableOptions: " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"},
}

// ddl is the dialect's CREATE statements.
func (d dialect) ddl() []string {
	var out []string
	for _, t := range ddlTemplate {
		t = d.typesIn(t)
		var index string
		if i := strings.Index(t, "{INDEX "); i >= 0 {
			j := strings.Index(t[i:], "}") + i
			index = t[i+len("{INDEX ") : j]
			t = strings.TrimRight(t[:i], " \t\n") + t[j+1:]
		}
		if index == "" {
			out = append(out, t+d.tableOptions)
			continue
		}
		name, cols, _ := strings.Cut(index, " ")
		if d.name == "mysql" {
			// MySQL has no CREATE INDEX IF NOT EXISTS: declare it inline.
			t = strings.TrimSuffix(t, ")") + ",\n\t\tINDEX " + name + " " + cols + ")"
			out = append(out, t+d.tableOptions)
			continue
		}
		table := strings.Fields(t)[5] // CREATE TABLE IF NOT EXISTS <table>
		out = append(out, t+d.tableOptions, "CREATE INDEX IF NOT EXISTS "+name+" ON "+table+" "+cols)
	}
	return out
}

// typesIn replaces the type placeholders of a DDL template.
func (d dialect) typesIn(t string) string {
	for k, v := range d.types {
		t = strings.ReplaceAll(t, k, v)
	}
	return t
}

// rebind turns ? placeholders into PostgreSQL's $1, $2, ...
func (d dialect) rebind(q string) string {
	if d.name != "postgres" {
		return q
	}
	return dollarparams.Number(q)
}

// likeEscape is the escape clause of LIKE patterns built by escapeLike. The
// escape character is '!' rather than a backslash: a backslash in the
// literal means different things under PostgreSQL's
// standard_conforming_strings and MySQL's NO_BACKSLASH_ESCAPES.
const likeEscape = ` ESCAPE '!'`

// duplicate reports a unique-key violation, or an object that already
// exists (PostgreSQL's word when two sessions create the same table).
func (d dialect) duplicate(err error) bool {
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "unique") || strings.Contains(msg, "duplicate") || strings.Contains(msg, "already exists")
}
