package spark

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Default ports of scripts/services/mariadb.sh and postgres.sh (those of the
// mysql and postgres targets).
const (
	mysqlPort    = 3307
	postgresPort = 5433
)

// store is how both Spark (JDBC) and this package (database/sql) reach the
// event store, with the same defaults as the target's own connection.
type store struct {
	target      string
	jdbcURL     string // never holds the password
	driverClass string
	user        string
	password    string
	secret      bool // the password was given (not a well-known default): redact it
	open        func(ctx context.Context) (*resultDB, error)
}

// storeFor is the event store of targetName reached with o.
func storeFor(targetName string, o targets.Options) (*store, error) {
	switch targetName {
	case "mysql":
		host, port := o.HostPort(mysqlPort)
		user := o.User
		if user == "" {
			user = "root"
		}
		db := o.DatabaseOr("test")
		st := &store{target: targetName, driverClass: "org.mariadb.jdbc.Driver", user: user}
		if o.Password != "" && !(user == "root" && o.Password == "root") { // IoT-benchmark's default credentials
			st.password, st.secret = o.Password, true
		}
		addr := net.JoinHostPort(host, strconv.Itoa(port))
		// jdbc:mysql rather than jdbc:mariadb: Spark picks its MySQL dialect
		// (backquoted identifiers, MySQL types) by this prefix, and MariaDB
		// Connector/J 3 accepts it with permitMysqlScheme.
		st.jdbcURL = "jdbc:mysql://" + addr + "/" + url.PathEscape(db) + "?permitMysqlScheme&connectTimeout=10000"
		st.open = func(ctx context.Context) (*resultDB, error) {
			cfg := mysql.NewConfig()
			cfg.Net, cfg.Addr, cfg.User, cfg.Passwd, cfg.DBName = "tcp", addr, user, st.password, db
			cfg.Timeout, cfg.ReadTimeout, cfg.WriteTimeout = 10*time.Second, 10*time.Minute, 10*time.Minute
			conn, err := mysql.NewConnector(cfg)
			if err != nil {
				return nil, fmt.Errorf("spark: mysql at %s: %w", addr, err)
			}
			return openDB(ctx, sql.OpenDB(conn), "mysql", addr, user)
		}
		return st, nil
	case "postgres":
		if l := o.Extra["layout"]; l != "" && l != "narrow" {
			return nil, fmt.Errorf("spark: postgres layout=%s: the Spark job reads the narrow layout only", l)
		}
		host, port := o.HostPort(postgresPort)
		user, db := o.User, o.DatabaseOr("test")
		if user == "" || user == "root" { // IoT-benchmark's default user means "not set" there
			user = "postgres"
		}
		st := &store{target: targetName, driverClass: "org.postgresql.Driver", user: user, password: "postgres"}
		if o.Password != "" && o.Password != "root" {
			st.password, st.secret = o.Password, true
		}
		addr := net.JoinHostPort(host, strconv.Itoa(port))
		st.jdbcURL = "jdbc:postgresql://" + addr + "/" + url.PathEscape(db) + "?sslmode=disable&connectTimeout=10"
		st.open = func(ctx context.Context) (*resultDB, error) {
			cfg, err := pgx.ParseConfig(fmt.Sprintf("host=%s port=%d dbname=%s sslmode=disable connect_timeout=10", host, port, db))
			if err != nil {
				return nil, fmt.Errorf("spark: postgres at %s: %w", addr, err)
			}
			cfg.User, cfg.Password = user, st.password
			return openDB(ctx, stdlib.OpenDB(*cfg), "postgres", addr, user)
		}
		return st, nil
	}
	return nil, fmt.Errorf("spark: target %q: the Spark analytics engine reads the mysql and postgres targets' tables only", targetName)
}

// redact removes the password from text bound for output.
func (s *store) redact(text string) string {
	if !s.secret || s.password == "" {
		return text
	}
	return strings.ReplaceAll(text, s.password, "********")
}

// redactErr is err with the password removed from its text (still
// unwrapping to err).
func (s *store) redactErr(err error) error {
	if err == nil {
		return nil
	}
	if msg := s.redact(err.Error()); msg != err.Error() {
		return &redactedError{msg: msg, err: err}
	}
	return err
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// resultDB reads the result tables.
type resultDB struct{ db *sql.DB }

func openDB(ctx context.Context, db *sql.DB, name, addr, user string) (*resultDB, error) {
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("spark: connect to %s at %s as %s: %w", name, addr, user, err)
	}
	return &resultDB{db: db}, nil
}

func (r *resultDB) close() { r.db.Close() }

func (r *resultDB) exec(ctx context.Context, q string) error {
	_, err := r.db.ExecContext(ctx, q)
	return err
}

// result is a result table's answer as ts.Analytic defines it: one value
// per row.
func (r *resultDB) result(ctx context.Context, table string) (ts.Result, error) {
	rows, err := r.db.QueryContext(ctx, "SELECT value FROM "+table)
	if err != nil {
		return ts.Result{}, err
	}
	defer rows.Close()
	var res ts.Result
	for rows.Next() {
		var v sql.NullFloat64
		if err := rows.Scan(&v); err != nil {
			return ts.Result{}, err
		}
		if !v.Valid {
			return ts.Result{}, fmt.Errorf("a NULL value in %s", table)
		}
		res.Add(0, v.Float64)
	}
	if err := rows.Err(); err != nil {
		return ts.Result{}, err
	}
	res.First, res.Last = 0, 0
	return res, nil
}
