package postgres

import (
	"context"
	"database/sql"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily/sqltest"
)

var server = sqltest.Server{Name: "postgres", Addr: "127.0.0.1:5433"}

// A DB_NAME that does not exist yet is created, once, even when several
// clients open it at the same time, and by the database/sql access (TPC-C);
// a user who may not create databases gets an error that names the target,
// the database and the createdb command that creates it.
func TestCreateDatabase(t *testing.T) {
	sqltest.CreateDB{
		Server: server,
		Driver: Driver,
		Admin: func(ctx context.Context) (*sql.DB, error) {
			return sql.Open("pgx", "host=127.0.0.1 port=5433 dbname=postgres user=postgres password=postgres sslmode=disable")
		},
		Drop: func(name string) string {
			return "DROP DATABASE IF EXISTS " + pgx.Identifier{name}.Sanitize() + " WITH (FORCE)"
		},
		Exists:  "SELECT count(*) FROM pg_database WHERE datname = $1",
		Current: "SELECT current_database()",
		TargetCurrent: func(ctx context.Context, tg targets.Target) (name string, err error) {
			err = tg.(*Target).c.pg.QueryRow(ctx, "SELECT current_database()").Scan(&name)
			return name, err
		},
		NoCreate: []string{"CREATE ROLE %s LOGIN NOCREATEDB"},
		DropUser: "DROP ROLE IF EXISTS %s",
		Refused: func(name, _ string) []string {
			return []string{"postgres: ", "permission denied", "createdb -h 127.0.0.1 -p 5433 -U postgres " + name}
		},
	}.Run(t)
}
