// Package mysql is the "mysql" target: MySQL and MariaDB through
// go-sql-driver/mysql (tested on MariaDB 10.11), one connection per client.
//
// # Layout
//
// The same narrow design as the postgres target, for the same reasons (any
// sensor count — MySQL allows 4,096 columns per table — one clustered index
// serving every query kind):
//
//	CREATE TABLE points (series INT NOT NULL, t BIGINT NOT NULL, v DOUBLE NULL,
//	    s TEXT NULL, PRIMARY KEY (series, t)) ENGINE=InnoDB
//
// InnoDB clusters rows by the primary key, so a series' points are stored
// together in time order. Metadata tables series and devices (tags as JSON
// text) name every series and device.
//
// # Writes
//
// write_path=insert (default): multi-row INSERT ... ON DUPLICATE KEY UPDATE,
// prepared once per statement size. write_path=load: LOAD DATA LOCAL INFILE
// ... REPLACE, streaming the batch as tab-separated text from memory (the
// server must allow local_infile). Both replace a rewritten point.
package mysql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/tsbench/tsbench/internal/arrival"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
	"github.com/tsbench/tsbench/internal/ts"
)

// DefaultPort is where scripts/services/mariadb.sh starts the server.
const DefaultPort = 3307

// Driver registers the target.
var Driver = &targets.Driver{
	Name:        "mysql",
	Service:     "mariadb",
	URLs:        targets.MySQLURLs,
	Aliases:     []string{"MySQL", "MariaDB"},
	Description: "MySQL/MariaDB: narrow InnoDB table, multi-row INSERT or LOAD DATA LOCAL INFILE with replace",
	WritePaths:  []string{"insert", "load"},
	Server:      "scripts/services/mariadb.sh (Debian's MariaDB 10.11 on 127.0.0.1:3307; mariadb-11.4.sh: 11.4.5 on 3308)",
	DefaultPort: DefaultPort,
	// Sparse: one row per point, so an empty cell is a row not written.
	Caps: targets.Capabilities{TLS: true, Types: ts.DataTypes, Queries: ts.QueryKinds, Sparse: true, GroupByAcross: true,
		Fleet: targets.FleetOnServer},
	Options:  []targets.Option{{Name: "write_path", Values: []string{"insert", "load"}}},
	Open:     open,
	SQL:      &targets.SQLAccess{Dialect: "mysql", Open: openSQL},
	Language: language,
}

func init() { targets.Register(Driver) }

// Target is one client's connection.
type Target struct {
	db        *sql.DB
	conn      *targets.CountingConnector // db's: re-opened connections counted
	addr      string
	writePath string
	reader    string // LOAD DATA reader name, unique per Target

	targets.Bound                        // the lock and the schema
	sqlfamily.Queries                    // Query, Count and analytics on db
	ins               sqlfamily.Inserter // the insert path's statements
	load              loadBuffer
	own               sqlfamily.Stmts // the user's own queries, prepared (RunStatement)
}

var readerSeq struct {
	sync.Mutex
	n int
}

// connConfig is the driver configuration of o: HOST, PORT, USERNAME,
// PASSWORD and DB_NAME (IoT-benchmark's root/root means no password), and
// TLS as asked (TLS and TLS_* keys): the driver then never falls back to
// plaintext.
func connConfig(o targets.Options) (*mysql.Config, error) {
	host, port := o.HostPort(DefaultPort)
	user := o.User
	if user == "" {
		user = "root"
	}
	cfg := mysql.NewConfig()
	cfg.Net, cfg.Addr, cfg.User, cfg.DBName = "tcp", net.JoinHostPort(host, strconv.Itoa(port)), user, o.DatabaseOr("test")
	if o.Password != "" && !(user == "root" && o.Password == "root") { // IoT-benchmark's default credentials
		cfg.Passwd = o.Password
	}
	cfg.AllowAllFiles = false
	cfg.Timeout, cfg.ReadTimeout, cfg.WriteTimeout = 10*time.Second, 10*time.Minute, 10*time.Minute
	cfg.InterpolateParams = false
	tlsCfg, err := o.TLS.Config(host)
	if err != nil {
		return nil, fmt.Errorf("mysql: %s: %w", cfg.Addr, err)
	}
	cfg.TLS = tlsCfg
	// A client's connection opened under its arrival clock ends each
	// answer at the kernel's receive time (arrival.Dial); the driver's own
	// dial is a net.Dialer's with cfg.Timeout and keep-alive.
	dialer := &net.Dialer{Timeout: cfg.Timeout, KeepAlive: 15 * time.Second}
	cfg.DialFunc = arrival.Dial(dialer.DialContext)
	return cfg, nil
}

// openSQL is the database/sql handle of SQLAccess (TPC-C).
func openSQL(ctx context.Context, o targets.Options) (*sql.DB, error) {
	cfg, err := connConfig(o)
	if err != nil {
		return nil, err
	}
	// Transactions read dates back, and send each statement once: with
	// server-side prepared statements every statement would take three
	// round trips (prepare, execute, close).
	cfg.ParseTime, cfg.InterpolateParams = true, true
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("mysql: %s: %w", cfg.Addr, err)
	}
	db := sql.OpenDB(conn)
	if err := pingCreating(ctx, db, cfg); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func open(ctx context.Context, o targets.Options) (targets.Target, error) {
	cfg, err := connConfig(o)
	if err != nil {
		return nil, err
	}
	path, err := sqlfamily.Choice("mysql", o, "write_path", "insert", "insert", "load")
	if err != nil {
		return nil, err
	}
	mc, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("mysql: %s: %w", cfg.Addr, err)
	}
	conn := &targets.CountingConnector{Connector: mc}
	sdb := sql.OpenDB(conn)
	sdb.SetMaxOpenConns(1)
	sdb.SetMaxIdleConns(1)
	if err := pingCreating(ctx, sdb, cfg); err != nil {
		sdb.Close()
		return nil, err
	}
	readerSeq.Lock()
	readerSeq.n++
	name := fmt.Sprintf("tsbench%d", readerSeq.n)
	readerSeq.Unlock()
	t := &Target{db: sdb, conn: conn, addr: cfg.Addr, writePath: path, reader: name,
		ins: sqlfamily.Inserter{D: &Dialect, PerStmt: maxInsertRows}}
	t.Binding = targets.NewBinding("mysql")
	t.Queries = sqlfamily.Queries{D: &Dialect, DB: sdb, Bound: &t.Bound, Wrap: t.wrap,
		Drop: []string{"DROP TABLE IF EXISTS points, series, devices"}, DDL: ddl}
	if path == "load" {
		mysql.RegisterReaderHandler(name, t.load.reader)
	}
	return t, nil
}

// pingCreating connects db, creating cfg's database first when the server
// says it does not exist: a benchmark run with DB_NAME=crashdb should not
// need a CREATE DATABASE of its own beforehand.
func pingCreating(ctx context.Context, db *sql.DB, cfg *mysql.Config) error {
	err := db.PingContext(ctx)
	if isError(err, errBadDB) {
		if err := createDatabase(ctx, cfg); err != nil {
			return err
		}
		err = db.PingContext(ctx)
	}
	switch {
	case errors.Is(err, mysql.ErrNoTLS):
		return fmt.Errorf("mysql: %s: %w", cfg.Addr, targets.ErrNoTLS)
	case err != nil:
		return fmt.Errorf("mysql: connect to %s as %s: %w", cfg.Addr, cfg.User, err)
	}
	return nil
}

// Server error numbers.
const (
	errBadDB = 1049 // ER_BAD_DB_ERROR: unknown database
)

func isError(err error, number uint16) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && me.Number == number
}

// createDatabase creates cfg's database over a connection to no database.
// IF NOT EXISTS: another client of the same run may create it first. When
// the user may not, the error names the database and the command that does.
func createDatabase(ctx context.Context, cfg *mysql.Config) error {
	ncfg := cfg.Clone()
	ncfg.DBName = ""
	conn, err := mysql.NewConnector(ncfg)
	if err != nil {
		return createRefused(cfg, err)
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE IF NOT EXISTS "+quoteIdent(cfg.DBName)); err != nil {
		return createRefused(cfg, err)
	}
	return nil
}

// createRefused says that cfg's database is missing and could not be
// created, and how a user who may (root, say) creates it.
func createRefused(cfg *mysql.Config, err error) error {
	host, port, _ := net.SplitHostPort(cfg.Addr)
	sqlText := "CREATE DATABASE " + quoteIdent(cfg.DBName)
	return fmt.Errorf("mysql: database %q does not exist at %s and user %s could not create it (%w); create it with: mysql -h %s -P %s -u root -p -e %s",
		cfg.DBName, cfg.Addr, cfg.User, err, host, port, sqlfamily.ShellQuote(sqlText))
}

// quoteIdent quotes a MySQL identifier (backticks, doubled inside).
func quoteIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// Reconnects counts the connections database/sql re-opened
// (targets.Reconnector).
func (t *Target) Reconnects() int64 { return t.conn.Reconnects() }

func (t *Target) wrap(what string, err error) error {
	return fmt.Errorf("mysql: %s at %s: %w", what, t.addr, classify(err))
}

// The names (device, sensor, group) are VARBINARY: compared byte for byte,
// so that names differing only in case, accents or trailing spaces stay
// two devices (a _ci collation, or a _bin one with PAD SPACE, would merge
// them in the primary key), and any UTF-8 text fits, whatever the server's
// default character set (latin1 cannot hold "温度"). 1,020 bytes are 255
// characters of four bytes. Text values and tags are utf8mb4.
var ddl = []string{
	`CREATE TABLE IF NOT EXISTS points (series INT NOT NULL, t BIGINT NOT NULL, v DOUBLE NULL, s TEXT NULL,
		PRIMARY KEY (series, t)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`,
	`CREATE TABLE IF NOT EXISTS series (id INT PRIMARY KEY, device VARBINARY(1020) NOT NULL, device_index INT NOT NULL,
		sensor VARBINARY(1020) NOT NULL, type VARCHAR(16) NOT NULL, grp VARBINARY(1020) NOT NULL, KEY (sensor))
		ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`,
	`CREATE TABLE IF NOT EXISTS devices (name VARBINARY(1020) PRIMARY KEY, idx INT NOT NULL, grp VARBINARY(1020) NOT NULL,
		tags TEXT NOT NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`,
}

// ServerVersion implements targets.Versioner.
func (t *Target) ServerVersion(ctx context.Context) (string, error) {
	var v string
	if err := t.db.QueryRowContext(ctx, "SELECT VERSION()").Scan(&v); err != nil {
		return "", t.wrap("server version", err)
	}
	return v, nil
}

// StorageBytes implements targets.Sizer from information_schema, after
// ANALYZE TABLE refreshes InnoDB's estimates (they lag otherwise).
func (t *Target) StorageBytes(ctx context.Context) (int64, error) {
	if _, err := t.db.ExecContext(ctx, "ANALYZE TABLE points"); err != nil {
		return 0, t.wrap("analyze", err)
	}
	var n sql.NullInt64
	err := t.db.QueryRowContext(ctx, `SELECT data_length + index_length FROM information_schema.TABLES
		WHERE table_schema = DATABASE() AND table_name = 'points'`).Scan(&n)
	if err != nil {
		return 0, t.wrap("table size", err)
	}
	return n.Int64, nil
}

// Close ends the connection.
func (t *Target) Close() error {
	if t.writePath == "load" {
		mysql.DeregisterReaderHandler(t.reader)
	}
	t.ins.Close()
	t.own.Close()
	return t.db.Close()
}
