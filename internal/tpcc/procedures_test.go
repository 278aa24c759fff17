package tpcc

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
)

// TestProcedureFailureRollsBack calls the Payment routine on the real
// servers for a last name no customer has, after it has already added the
// amount to the warehouse and the district: the call must fail with the
// routine's message, leave W_YTD and D_YTD as they were, and leave no
// transaction open on the connection (on MySQL the procedure's exit
// handler rolls back; a half transaction left open would be committed by
// the next call's START TRANSACTION).
func TestProcedureFailureRollsBack(t *testing.T) {
	onServers(t, func(ctx context.Context, t *testing.T, db *sql.DB, dialect string) {
		term := loadedTerminal(ctx, t, db, dialect, ModeProcedures)
		defer term.conn.Close()
		ytd := func() (w, d string) {
			t.Helper()
			if err := term.conn.QueryRowContext(ctx, `SELECT w_ytd, d_ytd FROM tpcc_warehouse JOIN tpcc_district ON d_w_id = w_id
				WHERE w_id = 1 AND d_id = 1`).Scan(&w, &d); err != nil {
				t.Fatal(err)
			}
			return w, d
		}
		w0, d0 := ytd()
		q := "CALL tpcc_tx_payment(1, 1, 1, 1, 0, 'NOSUCHNAME', '10.00', NOW(6))"
		if dialect == "postgres" {
			q = "SELECT tpcc_tx_payment(1, 1, 1, 1, 0, 'NOSUCHNAME', 10.00, now()::timestamp)"
		}
		rows, err := term.conn.QueryContext(ctx, q)
		if err == nil {
			for rows.Next() {
			}
			err = rows.Err()
			if cerr := rows.Close(); err == nil {
				err = cerr
			}
		}
		if err == nil || !strings.Contains(err.Error(), "no customer") {
			t.Fatalf("payment for an unknown last name: %v, want the routine's \"no customer\" error", err)
		}
		if w, d := ytd(); w != w0 || d != d0 {
			t.Errorf("after the failed call W_YTD %s, D_YTD %s; before %s, %s", w, d, w0, d0)
		}
		if dialect == "mysql" {
			var open int
			if err := term.conn.QueryRowContext(ctx, "SELECT @@in_transaction").Scan(&open); err != nil {
				t.Fatal(err)
			}
			if open != 0 {
				t.Error("the failed call left a transaction open")
			}
		}
		// The terminal goes on: a whole deck of transactions.
		w := worker{t: term}
		for range 100 {
			if err := term.run(ctx, w.nextTx()); err != nil && !errors.Is(err, errRollback) {
				t.Fatal(err)
			}
		}
		checks, err := CheckConsistency(ctx, db, dialect, false)
		if err != nil {
			t.Fatal(err)
		}
		if !AllOK(checks) {
			t.Errorf("after the calls: %+v", checks)
		}
	})
}
