package tpcc

import (
	"context"
	"database/sql"
	"runtime"
	"strings"

	"github.com/tsbench/tsbench/internal/summary"
)

// Figures completes a run's TPC-C section: the run's shape (tc), its load,
// and tpmC, tpmTotal and tpmC per core of the database host (cores; 0 is
// this machine's) from the measured transactions.
func Figures(s *summary.Summary, tc Config, load LoadResult, cores int) *summary.TPCC {
	t := s.TPCC
	t.Warehouses, t.Terminals, t.ThinkTimes, t.Tablespace = tc.Warehouses, tc.Terminals, tc.Think, tc.Tablespace
	t.Mode = tc.Mode
	if t.Mode == "" {
		t.Mode = ModeBatched
	}
	t.Tables = "logged"
	if tc.Unlogged {
		t.Tables = "unlogged"
	}
	t.Load = summary.TPCCLoad{Loaded: load.Loaded, Seconds: load.Seconds, Rows: load.Rows}
	if cores == 0 {
		cores = runtime.NumCPU()
	}
	t.ServerCores = cores
	t.SetRates(s)
	return t
}

// ServerVersion asks the server for its version in the form the
// time-series target of the same server reports it (targets.Versioner):
// "PostgreSQL 18.6" from SHOW server_version, MariaDB's VERSION() as it is
// ("11.4.5-MariaDB"), so that tsbench compare sees a TPC-C run and another
// run of one server as runs of one version; "" when it does not answer.
func ServerVersion(ctx context.Context, db *sql.DB, dialect string) string {
	q := "SELECT version()"
	if dialect == "postgres" {
		q = "SHOW server_version"
	}
	var v string
	if err := db.QueryRowContext(ctx, q).Scan(&v); err != nil || strings.TrimSpace(v) == "" {
		return ""
	}
	if dialect == "postgres" {
		// "18.6" or "15.18 (Debian 15.18-0+deb12u1)": the release alone.
		return "PostgreSQL " + strings.Fields(v)[0]
	}
	return v
}
