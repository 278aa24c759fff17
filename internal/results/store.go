// Package results is the home of a run's record, from the moment a run is
// known to the moment it is exported:
//   - filled in: what is known before it measures (Partial), what the
//     command knows once it ended (Complete), its thresholds (Evaluate);
//   - filed: the run directory, --json and --hdr-log (SaveFiles);
//   - stored: an embedded SQLite file by default (<data-dir>/results.db), or
//     a PostgreSQL or MySQL/MariaDB database given by URL (Store), written
//     while the run goes (Live, Journal) so that a run killed outright leaves
//     what it measured;
//   - loaded by id, reference or summary file (Load), listed (PrintRuns,
//     PrintMonitorSessions; --since read by ParseSince) and exported (Export: JSON, CSV, HdrHistogram
//     interval logs).
//
// A run is stored whole — its summary as JSON, from which it is read back
// exactly — and also spread over plain tables (runs, operations with their
// encoded HDR histograms, the per-second series, resource samples and
// thresholds) so that it can be queried with SQL or charted by other tools.
// What a run measures lives in internal/metrics and its shape in
// internal/summary; the console and HTML reports of a run are
// internal/report and internal/htmlreport.
package results

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	_ "github.com/go-sql-driver/mysql" // registers "mysql"
	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
	"modernc.org/sqlite"               // registers "sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/tsbench/tsbench/internal/summary"
)

// Store is an open results store.
type Store struct {
	db  *sql.DB
	loc Location
	d   dialect
}

// Open connects to the store at loc and creates its tables when missing.
func Open(ctx context.Context, loc Location) (*Store, error) {
	var driver string
	switch loc.Dialect {
	case "sqlite":
		driver = "sqlite"
		if err := os.MkdirAll(filepath.Dir(loc.Path), 0o755); err != nil {
			return nil, loc.scrubErr("create directory", err)
		}
	case "postgres":
		driver = "pgx"
	case "mysql":
		driver = "mysql"
	default:
		return nil, fmt.Errorf("results store %s: unknown kind %q", loc, loc.Dialect)
	}
	db, err := sql.Open(driver, loc.dsn)
	if err != nil {
		return nil, loc.scrubErr("open", err)
	}
	if loc.Dialect == "sqlite" {
		db.SetMaxOpenConns(1) // one writer; readers share it
	} else {
		db.SetMaxOpenConns(4)
	}
	st := &Store{db: db, loc: loc, d: dialects[loc.Dialect]}
	if err := st.connect(ctx); err != nil {
		db.Close()
		return nil, loc.scrubErr("connect", err)
	}
	if err := st.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return st, nil
}

// connect pings the store. Several tsbench opening a new SQLite file at once
// all switch it to WAL, and that switch, which needs the file to itself, can
// fail with SQLITE_BUSY without waiting on the busy timeout; it is retried for
// as long as the busy timeout would have waited.
func (st *Store) connect(ctx context.Context) error {
	deadline := time.Now().Add(sqliteBusyTimeout)
	for {
		err := st.db.PingContext(ctx)
		if err == nil || st.loc.Dialect != "sqlite" || !sqliteBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func sqliteBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// Location is where the store is.
func (st *Store) Location() Location { return st.loc }

// Close closes the store.
func (st *Store) Close() error { return st.db.Close() }

// DB is the underlying database, for tests and tools.
func (st *Store) DB() *sql.DB { return st.db }

func (st *Store) migrate(ctx context.Context) error {
	for _, stmt := range st.d.ddl() {
		// Two tsbench creating the tables at once: PostgreSQL may fail the
		// second CREATE ... IF NOT EXISTS with a duplicate key in its catalog.
		if _, err := st.db.ExecContext(ctx, stmt); err != nil && !st.d.duplicate(err) {
			return st.loc.scrubErr("create tables", err)
		}
	}
	if err := st.addColumns(ctx); err != nil {
		return err
	}
	var v string
	err := st.db.QueryRowContext(ctx, st.d.rebind("SELECT value FROM tsbench_meta WHERE name = ?"), "store_version").Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		_, err = st.db.ExecContext(ctx, st.d.rebind("INSERT INTO tsbench_meta (name, value) VALUES (?, ?)"), "store_version", strconv.Itoa(StoreVersion))
		if err != nil && !st.d.duplicate(err) { // another tsbench created it meanwhile
			return st.loc.scrubErr("create tables", err)
		}
	case err != nil:
		return st.loc.scrubErr("read version", err)
	default:
		if n, _ := strconv.Atoi(v); n > StoreVersion {
			return fmt.Errorf("results store %s: written by a newer tsbench (store version %s, this one reads %d)", st.loc, v, StoreVersion)
		}
	}
	return nil
}

// addColumns adds the addedColumns a store lacks. A column is probed by
// selecting it, which every dialect answers alike (information_schema
// differs, and SQLite has none).
func (st *Store) addColumns(ctx context.Context) error {
	for _, c := range addedColumns {
		if st.hasColumn(ctx, c.table, c.column) {
			continue
		}
		_, err := st.db.ExecContext(ctx, "ALTER TABLE "+c.table+" ADD COLUMN "+c.column+" "+st.d.typesIn(c.typ))
		if err != nil && !st.hasColumn(ctx, c.table, c.column) { // not added meanwhile by another tsbench
			return st.loc.scrubErr("add column "+c.table+"."+c.column, err)
		}
	}
	return nil
}

func (st *Store) hasColumn(ctx context.Context, table, column string) bool {
	rows, err := st.db.QueryContext(ctx, "SELECT "+column+" FROM "+table+" WHERE 1 = 0")
	if err != nil {
		return false
	}
	rows.Close()
	return true
}

// StoreVersion is the version of the store's tables.
const StoreVersion = 1

// Headline is the operation a run is summed up by in lists: INGESTION when
// it wrote, else the operation with the most successful operations.
func Headline(s *summary.Summary) *summary.Operation {
	var best *summary.Operation
	for i := range s.Operations {
		o := &s.Operations[i]
		if o.Name == "INGESTION" && o.OKOperations > 0 {
			return o
		}
		if best == nil || o.OKOperations > best.OKOperations {
			best = o
		}
	}
	return best
}

// StatusRunning is the status of a run stored by Begin and not yet by Save.
const StatusRunning = "running"

// Save stores the finished run, replacing whatever is stored under its id —
// a run journaled while it ran included.
func (st *Store) Save(ctx context.Context, s *summary.Summary) error {
	return st.write(ctx, s, string(s.Status()))
}

// write stores s whole with the given status, in one transaction.
func (st *Store) write(ctx context.Context, s *summary.Summary, status string) error {
	if s.RunID == "" {
		return fmt.Errorf("results store %s: the run has no id", st.loc)
	}
	// The per-second series lives in tsbench_intervals only, and resource
	// samples in tsbench_resources only: with a histogram per second the
	// series is most of a run's size, and kept twice a long run would
	// outgrow MySQL's default packet (16 MB) in about 1.5 h.
	whole := *s
	whole.Intervals = nil
	if r := s.Resources; r != nil && len(r.Samples)+len(r.Remote) > 0 {
		lean := *r
		lean.Samples, lean.Remote = nil, nil
		whole.Resources = &lean
	}
	body, err := json.Marshal(&whole)
	if err != nil {
		return fmt.Errorf("results store %s: encode run %s: %w", st.loc, s.RunID, err)
	}
	what := "save run " + s.RunID
	if status == StatusRunning {
		what = "begin run " + s.RunID
	}
	return st.inTx(ctx, what, func(tx *sql.Tx) error {
		if err := st.deleteRun(ctx, tx, s.RunID); err != nil {
			return err
		}
		for _, t := range runTables(s, status, string(body)) {
			if err := st.insert(ctx, tx, t.name, t.cols, t.rows); err != nil {
				return err
			}
		}
		return nil
	})
}

// inTx runs f in a transaction; what names the work in errors.
func (st *Store) inTx(ctx context.Context, what string, f func(*sql.Tx) error) error {
	tx, err := st.db.BeginTx(ctx, nil)
	if err != nil {
		return st.loc.scrubErr(what, err)
	}
	defer tx.Rollback()
	if err := f(tx); err != nil {
		return st.loc.scrubErr(what, err)
	}
	return st.loc.scrubErr(what, tx.Commit())
}

// runTableNames are the tables that hold a run, the runs table last (the
// order to delete in).
var runTableNames = []string{"tsbench_thresholds", "tsbench_resources", "tsbench_intervals", "tsbench_operations", "tsbench_runs"}

func (st *Store) deleteRun(ctx context.Context, tx *sql.Tx, id string) error {
	for _, t := range runTableNames {
		if _, err := tx.ExecContext(ctx, st.d.rebind("DELETE FROM "+t+" WHERE run_id = ?"), id); err != nil {
			return fmt.Errorf("delete from %s: %w", t, err)
		}
	}
	return nil
}

// tableRows are rows to insert into one table.
type tableRows struct {
	name string
	cols []string
	rows [][]any
}

// runTables spreads a run over the tables.
func runTables(s *summary.Summary, status, body string) []tableRows {
	var res [][]any
	if r := s.Resources; r != nil {
		res = append(resourceRows(s.RunID, "local", 0, r.Samples), resourceRows(s.RunID, "remote", 0, r.Remote)...)
	}
	return []tableRows{
		{"tsbench_runs", runColumns, [][]any{runRow(s, status, body)}},
		{"tsbench_operations", operationColumns, operationRows(s)},
		{"tsbench_intervals", intervalColumns, intervalRows(s.RunID, 0, s.Intervals)},
		{"tsbench_resources", resourceColumns, res},
		{"tsbench_thresholds", thresholdColumns, thresholdRows(s)},
	}
}

func runRow(s *summary.Summary, status, body string) []any {
	var points, fails int64
	for _, o := range s.Operations {
		points += o.OKPoints
		fails += o.FailOperations
	}
	var hOp, hTput, hP99 any
	if h := Headline(s); h != nil {
		hOp, hTput, hP99 = h.Name, h.Throughput, h.LatencyMS.P99
	}
	cfgJSON, _ := json.Marshal(s.Config) // encodable: the whole summary was
	envJSON, _ := json.Marshal(s.Environment)
	group, index := groupOf(s)
	return []any{s.RunID, s.Started.UTC().UnixMilli(), s.Started.UTC().Format(time.RFC3339Nano), s.Target, s.Scenario,
		status, s.StopReason, s.Elapsed, hOp, hTput, hP99, points, fails,
		s.Environment.Hostname, s.Tool.Version, s.Environment.ServerVersion, s.SchemaVersion,
		string(cfgJSON), string(envJSON), body, group, index}
}

// groupOf is a run's group and worker index columns: a worker's, or a
// merged run's or a repetition's group with no index; NULL for a run of
// its own.
func groupOf(s *summary.Summary) (group, index any) {
	switch {
	case s.Worker != nil:
		return s.Worker.Group, s.Worker.Index
	case s.Merge != nil && s.Merge.Group != "":
		return s.Merge.Group, nil
	case s.Repeat != nil:
		return s.Repeat.Group, nil
	}
	return nil, nil
}

func operationRows(s *summary.Summary) [][]any {
	var rows [][]any
	for _, o := range s.Operations {
		l := o.LatencyMS
		rows = append(rows, []any{s.RunID, o.Name, o.OKOperations, o.OKPoints, o.FailOperations, o.FailPoints, o.Unsupported,
			o.Throughput, l.Avg, l.Min, l.P10, l.P25, l.P50, l.P75, l.P90, l.P95, l.P99, l.P999, l.Max, o.SlowestThreadMS,
			nullIfEmpty(o.Histogram)})
	}
	return rows
}

// intervalRows are the rows of intervals numbered from first on: one per
// operation, or one with an empty operation for an interval in which
// nothing completed, so that a stall stays in the series.
func intervalRows(id string, first int, ivs []summary.Interval) [][]any {
	var rows [][]any
	for i, iv := range ivs {
		seq := first + i
		if len(iv.Ops) == 0 {
			rows = append(rows, []any{id, seq, "", iv.Start, iv.Seconds, 0, 0, 0, nil, nil, nil, nil, 0})
		}
		for j, o := range iv.Ops {
			rows = append(rows, []any{id, seq, o.Name, iv.Start, iv.Seconds, o.OKOps, o.OKPoints, o.FailOps,
				o.P50MS, o.P99MS, o.MaxMS, nullIfEmpty(o.Histogram), j})
		}
	}
	return rows
}

func thresholdRows(s *summary.Summary) [][]any {
	var rows [][]any
	for i, t := range s.Thresholds {
		passed := 0
		if t.Passed {
			passed = 1
		}
		rows = append(rows, []any{s.RunID, i, t.Expr, passed, t.Actual, t.Reason})
	}
	return rows
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// resourceRows are the rows of samples numbered from first on, in the
// order of resourceColumns.
func resourceRows(id, source string, first int, samples []summary.ResourceSample) [][]any {
	var rows [][]any
	for i, s := range samples {
		row := []any{id, source, first + i, s.T, s.Time.UTC().UnixMilli(), nullIfEmpty(s.Hostname)}
		tool, server := s.Tool, s.Server
		if tool != nil {
			row = append(row, tool.CPUPercent, int64(tool.RSSBytes))
		} else {
			row = append(row, nil, nil)
		}
		if server != nil {
			row = append(row, server.PID, server.CPUPercent, int64(server.RSSBytes), server.ReadBytesPerS, server.WriteBytesPerS)
		} else {
			row = append(row, nil, nil, nil, nil, nil)
		}
		row = append(row, hostValues(s.Host)...)
		row = append(row, s.Time.UTC().Format(time.RFC3339Nano))
		if tool != nil {
			row = append(row, tool.PID, tool.Processes, tool.ReadBytesPerS, tool.WriteBytesPerS)
		} else {
			row = append(row, nil, nil, nil, nil)
		}
		if server != nil {
			row = append(row, server.Processes)
		} else {
			row = append(row, nil)
		}
		if s.Host != nil {
			row = append(row, s.Host.Cores)
		} else {
			row = append(row, nil)
		}
		rows = append(rows, row)
	}
	return rows
}

func hostValues(h *summary.HostUsage) []any {
	if h == nil {
		return []any{nil, nil, nil, nil, nil, nil, nil}
	}
	return []any{h.CPUPercent, int64(h.MemUsedBytes), int64(h.MemTotalBytes), h.DiskReadBytesPerS, h.DiskWriteBytesPerS,
		h.NetRecvBytesPerS, h.NetSentBytesPerS}
}

// insert writes rows in multi-row INSERTs.
func (st *Store) insert(ctx context.Context, tx *sql.Tx, table string, cols []string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	per := max(1, 2000/len(cols))
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	for len(rows) > 0 {
		n := min(per, len(rows))
		var b strings.Builder
		b.WriteString("INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES ")
		args := make([]any, 0, n*len(cols))
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(one)
			args = append(args, rows[i]...)
		}
		if _, err := tx.ExecContext(ctx, st.d.rebind(b.String()), args...); err != nil {
			return fmt.Errorf("insert into %s: %w", table, err)
		}
		rows = rows[n:]
	}
	return nil
}

// RunInfo is one line of the run list.
type RunInfo struct {
	ID            string    `json:"run_id"`
	Started       time.Time `json:"started"`
	Target        string    `json:"target"`
	Scenario      string    `json:"scenario,omitempty"`
	Status        string    `json:"status"`
	ElapsedS      float64   `json:"elapsed_s"`
	Operation     string    `json:"operation,omitempty"` // the headline operation
	Throughput    float64   `json:"throughput_points_per_s"`
	P99MS         float64   `json:"p99_ms"`
	Points        int64     `json:"ok_points"`
	FailOps       int64     `json:"fail_operations"`
	Hostname      string    `json:"hostname,omitempty"`
	ServerVersion string    `json:"server_version,omitempty"`
	// Group is the run group of a worker's or a merged run; WorkerIndex is
	// a worker's index (nil for a merged run and a run of its own).
	Group       string `json:"group,omitempty"`
	WorkerIndex *int   `json:"worker_index,omitempty"`
}

// Filter selects runs for List. Zero fields select everything.
type Filter struct {
	Target   string    // exact target name (case-insensitive)
	Scenario string    // scenario label prefix (case-insensitive)
	Status   string    // exact status
	Since    time.Time // started at or after
	Group    string    // exact run group (RUN_GROUP)
	Limit    int       // newest first; 0 = no limit
}

// List returns the runs that match f, newest first.
func (st *Store) List(ctx context.Context, f Filter) ([]RunInfo, error) {
	q := `SELECT run_id, started, target, scenario, status, elapsed_s, headline_op, headline_throughput, headline_p99_ms,
		total_points, fail_operations, hostname, server_version, run_group, worker_index FROM tsbench_runs WHERE 1 = 1`
	var args []any
	if f.Target != "" {
		q += " AND LOWER(target) = ?"
		args = append(args, strings.ToLower(f.Target))
	}
	if f.Scenario != "" {
		q += " AND LOWER(scenario) LIKE ?"
		args = append(args, strings.ToLower(escapeLike(f.Scenario))+"%")
		q += likeEscape
	}
	if f.Status != "" {
		q += " AND status = ?"
		args = append(args, f.Status)
	}
	if f.Group != "" {
		q += " AND run_group = ?"
		args = append(args, f.Group)
	}
	if !f.Since.IsZero() {
		q += " AND started_ms >= ?"
		args = append(args, f.Since.UTC().UnixMilli())
	}
	q += " ORDER BY started_ms DESC, run_id DESC"
	if f.Limit > 0 {
		q += " LIMIT " + strconv.Itoa(f.Limit)
	}
	out, err := queryRows(ctx, st, q, args, func(rows *sql.Rows) (RunInfo, error) {
		var r RunInfo
		var started string
		var op, host, ver, group sql.NullString
		var tput, p99 sql.NullFloat64
		var index sql.NullInt64
		if err := rows.Scan(&r.ID, &started, &r.Target, &r.Scenario, &r.Status, &r.ElapsedS, &op, &tput, &p99,
			&r.Points, &r.FailOps, &host, &ver, &group, &index); err != nil {
			return r, err
		}
		r.Group = group.String
		if index.Valid {
			i := int(index.Int64)
			r.WorkerIndex = &i
		}
		r.Started, _ = time.Parse(time.RFC3339Nano, started)
		r.Operation, r.Throughput, r.P99MS, r.Hostname, r.ServerVersion = op.String, tput.Float64, p99.Float64, host.String, ver.String
		return r, nil
	})
	return out, st.loc.scrubErr("list runs", err)
}

// queryRows runs q (with ? placeholders) with args and makes a T of each
// row with scan, in order; on an error it returns no rows, and the error
// as the driver gave it.
func queryRows[T any](ctx context.Context, st *Store, q string, args []any, scan func(rows *sql.Rows) (T, error)) ([]T, error) {
	rows, err := st.db.QueryContext(ctx, st.d.rebind(q), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func escapeLike(s string) string {
	return strings.NewReplacer(`!`, `!!`, `%`, `!%`, `_`, `!_`).Replace(s)
}

// ErrNotFound is returned for a run id the store does not hold.
var ErrNotFound = errors.New("no such run")

// Resolve turns a reference into a stored run id: the id itself, a unique
// prefix of one, "latest" (or "last"), or "latest~N" (the N-th run before
// the latest).
func (st *Store) Resolve(ctx context.Context, ref string) (string, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return "", fmt.Errorf("empty run id")
	}
	lower := strings.ToLower(ref)
	if lower == "latest" || lower == "last" || strings.HasPrefix(lower, "latest~") || strings.HasPrefix(lower, "last~") {
		n := 0
		if _, back, ok := strings.Cut(lower, "~"); ok {
			v, err := strconv.Atoi(back)
			if err != nil || v < 0 {
				return "", fmt.Errorf("run %q: want latest~N with N >= 0", ref)
			}
			n = v
		}
		runs, err := st.List(ctx, Filter{Limit: n + 1})
		if err != nil {
			return "", err
		}
		if len(runs) <= n {
			return "", fmt.Errorf("run %q: the store %s holds %d runs: %w", ref, st.loc, len(runs), ErrNotFound)
		}
		return runs[n].ID, nil
	}
	rows, err := st.db.QueryContext(ctx, st.d.rebind("SELECT run_id FROM tsbench_runs WHERE run_id LIKE ?"+likeEscape+" ORDER BY run_id LIMIT 11"),
		escapeLike(ref)+"%")
	if err != nil {
		return "", st.loc.scrubErr("find run", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return "", st.loc.scrubErr("find run", err)
		}
		if id == ref {
			return id, nil
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return "", st.loc.scrubErr("find run", err)
	}
	switch len(ids) {
	case 0:
		return "", fmt.Errorf("run %q: not in the results store %s (see 'tsbench runs'): %w", ref, st.loc, ErrNotFound)
	case 1:
		return ids[0], nil
	}
	return "", fmt.Errorf("run %q is ambiguous: it starts %s; give more of the id", ref, strings.Join(ids, ", "))
}

// Get reads a stored run; ref is anything Resolve accepts.
func (st *Store) Get(ctx context.Context, ref string) (*summary.Summary, error) {
	id, err := st.Resolve(ctx, ref)
	if err != nil {
		return nil, err
	}
	var status, body string
	err = st.db.QueryRowContext(ctx, st.d.rebind("SELECT status, summary_json FROM tsbench_runs WHERE run_id = ?"), id).Scan(&status, &body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("run %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, st.loc.scrubErr("read run "+id, err)
	}
	var s summary.Summary
	if err := json.Unmarshal([]byte(body), &s); err != nil {
		return nil, fmt.Errorf("results store %s: run %s: stored summary unreadable: %w", st.loc, id, err)
	}
	if status == StatusRunning {
		if err := st.rebuild(ctx, &s); err != nil {
			return nil, err
		}
		return &s, nil
	}
	if s.Intervals, err = st.readIntervals(ctx, id); err != nil {
		return nil, st.loc.scrubErr("read intervals of run "+id, err)
	}
	if err := st.readResources(ctx, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// Delete removes a run; ref is anything Resolve accepts. It returns the id.
func (st *Store) Delete(ctx context.Context, ref string) (string, error) {
	id, err := st.Resolve(ctx, ref)
	if err != nil {
		return "", err
	}
	err = st.inTx(ctx, "delete run "+id, func(tx *sql.Tx) error { return st.deleteRun(ctx, tx, id) })
	if err != nil {
		return "", err
	}
	return id, nil
}
