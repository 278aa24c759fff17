package mysql

import (
	"context"
	"database/sql"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily/sqltest"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// The tests against the real servers of scripts/services, through the SQL
// targets' shared tests (sqltest): Debian 12's MariaDB 10.11 (mariadb.sh,
// the target's default port) and 11.4.5 (mariadb-11.4.sh, beside it).
var (
	server  = targettest.Server{Name: "mariadb", Addr: "127.0.0.1:3307"}
	current = targettest.Server{Name: "mariadb-11.4", Addr: "127.0.0.1:3308", Port: 3308}
	// releases are the servers the conformance suite, the analytics, the
	// fleet questions and the own statements run on; the tests of one
	// setting (TLS, database creation) run on server only.
	releases = []targettest.Server{server, current}
)

var writePaths = map[string][]string{"write_path": {"insert", "load"}}

// Both write paths pass the conformance suite, names case included,
// against both releases.
func TestConformance(t *testing.T) {
	targettest.EachServer(t, releases, func(t *testing.T, srv targettest.Server) {
		srv.Conformance(t, targettest.Suite{Driver: Driver, Options: targets.Options{Database: "tsbench_conformance"}}, writePaths)
	})
}

// The analytics queries answer what the generator computes, on both
// releases.
func TestAnalytics(t *testing.T) {
	targettest.EachServer(t, releases, func(t *testing.T, srv targettest.Server) {
		sqltest.Analytics(t, srv, "mysql", targets.Options{Database: "tsbench_analytics"})
	})
}

// Every iot question, each fleet and window, answers what fleet.Answer
// computes from the written points, on both releases.
func TestFleetQuestions(t *testing.T) {
	targettest.EachServer(t, releases, func(t *testing.T, srv targettest.Server) {
		targettest.FleetQuestions(t, Driver, srv.Options(targets.Options{}))
	})
}

// The same on data with every kind answered, times before 1970, empty
// cells and missing periods (targettest.FleetEdges).
func TestFleetEdges(t *testing.T) {
	targettest.EachServer(t, releases, func(t *testing.T, srv targettest.Server) {
		targettest.FleetEdges(t, Driver, srv.Options(targets.Options{}))
	})
}

// BenchmarkWritePath compares the write paths on the same data in one run:
// go test -run '^$' -bench WritePath -count 3 ./internal/targets/mysql/
func BenchmarkWritePath(b *testing.B) {
	server.BenchmarkWrite(b, Driver, targets.Options{Database: "test"}, writePaths)
}

// A DB_NAME that does not exist yet is created, even when several clients
// open it at the same time, and by the database/sql access (TPC-C); a user
// who may read every database but create none gets an error that names the
// target, the database and the mysql command that creates it.
func TestCreateDatabase(t *testing.T) {
	sqltest.CreateDB{
		Admin: func(ctx context.Context) (*sql.DB, error) {
			cfg := mysql.NewConfig()
			cfg.Net, cfg.Addr, cfg.User = "tcp", server.Addr, "root"
			conn, err := mysql.NewConnector(cfg)
			if err != nil {
				return nil, err
			}
			return sql.OpenDB(conn), nil
		},
		Drop:    func(name string) string { return "DROP DATABASE IF EXISTS " + quoteIdent(name) },
		Exists:  "SELECT count(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?",
		Current: "SELECT DATABASE()",
		TargetCurrent: func(ctx context.Context, tg targets.Target) (name string, err error) {
			err = tg.(*Target).db.QueryRowContext(ctx, "SELECT DATABASE()").Scan(&name)
			return name, err
		},
		NoCreate: []string{"CREATE USER '%s'@'%%'", "GRANT SELECT ON *.* TO '%s'@'%%'"},
		DropUser: "DROP USER IF EXISTS '%s'@'%%'",
		Refused: func(name, _ string) []string {
			return []string{"mysql: ", "Access denied", "mysql -h 127.0.0.1 -P 3307 -u root -p -e 'CREATE DATABASE `" + name + "`'"}
		},
	}.Run(t, server, Driver)
}

// Identifiers survive any name.
func TestQuoteIdent(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"crashdb", "`crashdb`"},
		{"my db", "`my db`"},
		{"a`b", "`a``b`"},
		{"it's", "`it's`"},
	} {
		if got := quoteIdent(c.in); got != c.want {
			t.Errorf("quoteIdent(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// The target connects over TLS as asked, against a MariaDB that takes TLS
// connections only (require_secure_transport): verified against the test's
// own CA, refused with another CA or host name, refused in plaintext, which
// MariaDB 10.11 answers under require_secure_transport as a denied access.
// TLS asked of the MariaDB without TLS is ErrNoTLS, never plaintext.
func TestTLS(t *testing.T) {
	plaintext := targettest.TLSCase{Name: "plaintext", TLS: targets.TLS{Mode: "off"}, Want: "Access denied"}
	sqltest.TLS(t, server, Driver, testenv.StartMariaDBTLS(t), testenv.MariaDBTLSPort, openSQL,
		"SELECT VARIABLE_VALUE FROM information_schema.SESSION_STATUS WHERE VARIABLE_NAME = 'Ssl_cipher'", plaintext)
}
