package tpcc

import (
	"context"
	"database/sql"
	"runtime"

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
	if minutes := s.Elapsed / 60; minutes > 0 {
		var all int64
		for _, o := range s.Operations {
			all += o.OKOperations
		}
		if no := s.Op(NewOrder.String()); no != nil {
			t.TpmC = float64(no.OKOperations) / minutes
		}
		t.TpmTotal = float64(all) / minutes
		t.TpmCPerCore = t.TpmC / float64(cores)
	}
	return t
}

// ServerVersion asks the server for its version (SELECT version() works on
// PostgreSQL and MySQL alike); "" when it does not answer.
func ServerVersion(ctx context.Context, db *sql.DB) string {
	var v string
	if err := db.QueryRowContext(ctx, "SELECT version()").Scan(&v); err != nil {
		return ""
	}
	return v
}
