package tpcc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// sent is one statement a terminal sent, as its trace saw it.
type sent struct {
	query string
	args  []any
}

// kind is the statement's verb and table, e.g. "UPDATE tpcc_warehouse".
func (s sent) kind() string {
	f := strings.Fields(s.query)
	verb := strings.ToUpper(f[0])
	if verb == "UPDATE" {
		return verb + " " + f[1]
	}
	for i, w := range f[:len(f)-1] {
		if w = strings.ToUpper(w); verb == "SELECT" && w == "FROM" || verb == "INSERT" && w == "INTO" {
			return verb + " " + f[i+1]
		}
	}
	return verb
}

// columns are the items of a SELECT's list, as written.
func (s sent) columns() []string {
	q := strings.Join(strings.Fields(s.query), " ")
	from := strings.Index(q, " FROM ")
	if !strings.HasPrefix(q, "SELECT ") || from < 0 {
		return nil
	}
	var items []string
	for _, it := range strings.Split(q[len("SELECT "):from], ",") {
		items = append(items, strings.TrimSpace(it))
	}
	return items
}

// filters reports whether the statement's WHERE compares col with a
// parameter (? or PostgreSQL's $n).
func (s sent) filters(col string) bool {
	where := strings.Index(s.query, "WHERE")
	return where >= 0 && regexp.MustCompile(`\b`+col+` = (\?|\$\d+)`).MatchString(s.query[where:])
}

func (s sent) intArg(i int) int {
	if i < 0 {
		i += len(s.args)
	}
	n, _ := s.args[i].(int)
	return n
}

// txCase is what one transaction type must send.
type txCase struct {
	tx    Tx
	order []string // statement kinds, in order
	// customer are the columns the one customer read returns (clauses
	// 2.5.2.2 and 2.6.2.2); by name it also returns c_id.
	customer  []string
	forUpdate bool // the customer read locks the row
	// chosen is the customer the transaction went on with: warehouse,
	// district and id, as its later statements name it.
	chosen func(stmts []sent) (w, d, c int)
	// extra checks the rest of one transaction's statements and names the
	// case it exercised ("" for none); cover are the cases the runs must
	// all exercise.
	extra func(ctx context.Context, t *testing.T, db *sql.DB, stmts []sent) string
	cover []string
}

var paymentCase = txCase{
	tx: Payment,
	order: []string{"UPDATE tpcc_warehouse", "SELECT tpcc_warehouse", "UPDATE tpcc_district", "SELECT tpcc_district",
		"SELECT tpcc_customer", "UPDATE tpcc_customer", "INSERT tpcc_history"},
	customer: []string{"c_first", "c_middle", "c_last", "c_street_1", "c_street_2", "c_city", "c_state", "c_zip",
		"c_phone", "c_since", "c_credit", "c_credit_lim", "c_discount", "c_balance"},
	forUpdate: true,
	chosen:    paymentCustomer,
	extra:     checkPaymentReads,
	cover:     []string{"good credit", "bad credit"},
}

// paymentCustomer is the customer Payment updated.
func paymentCustomer(stmts []sent) (w, d, c int) {
	up := stmts[5] // UPDATE tpcc_customer ... WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?
	return up.intArg(-3), up.intArg(-2), up.intArg(-1)
}

var orderStatusCase = txCase{
	tx:       OrderStatus,
	order:    []string{"SELECT tpcc_customer", "SELECT tpcc_orders", "SELECT tpcc_order_line"},
	customer: []string{"c_balance", "c_first", "c_middle", "c_last"},
	chosen: func(stmts []sent) (w, d, c int) {
		o := stmts[1] // SELECT ... FROM tpcc_orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ?
		return o.intArg(0), o.intArg(1), o.intArg(2)
	},
}

// TestStatementsOnServers runs Payment and Order-Status on the real
// servers, in each mode, with a trace on the terminal and checks, for
// every transaction,
// the statements it sent: their order (Payment: warehouse, then district,
// then the customer), exactly one customer read returning the columns of
// the specification, the customer chosen by last name being the middle one
// of those sorted by first name, and, for Payment, the address reads and
// C_DATA updated exactly for bad-credit customers. The consistency
// conditions must hold afterwards.
func TestStatementsOnServers(t *testing.T) {
	onServers(t, func(ctx context.Context, t *testing.T, db *sql.DB, dialect string) {
		// The modes that send the transactions' statements one by one:
		// batched on MySQL merges Payment's, procedures sends a call.
		stmtModes := []string{ModeInteractive}
		if dialect == "postgres" {
			stmtModes = append(stmtModes, ModeBatched)
		}
		for _, mode := range stmtModes {
			term := loadedTerminal(ctx, t, db, dialect, mode)
			defer term.conn.Close()
			for _, c := range []struct {
				name string
				tc   txCase
				runs int
			}{{"payment", paymentCase, 200}, {"order-status", orderStatusCase, 60}} {
				t.Run(mode+"/"+c.name, func(t *testing.T) { checkStatements(ctx, t, db, term, c.tc, c.runs) })
			}
		}
		checks, err := CheckConsistency(ctx, db, dialect, false)
		if err != nil {
			t.Fatal(err)
		}
		if !AllOK(checks) {
			t.Errorf("after the traced transactions: %+v", checks)
		}
	})
}

// loadedTerminal is one terminal on a one-warehouse load (an existing one
// is reused), sending in the given mode.
func loadedTerminal(ctx context.Context, t *testing.T, db *sql.DB, dialect, mode string) *terminal {
	t.Helper()
	cfg := Config{Warehouses: 1, Terminals: 1, Duration: time.Second, Load: LoadAuto, Seed: 11, TxTimeout: 30 * time.Second,
		Mode: mode}
	return openTerminal(ctx, t, db, dialect, cfg)
}

// checkStatements runs tc's transaction runs times and checks what each
// sent; both ways of choosing the customer must have been seen.
func checkStatements(ctx context.Context, t *testing.T, db *sql.DB, term *terminal, tc txCase, runs int) {
	var stmts []sent
	term.trace = func(q string, args []any) { stmts = append(stmts, sent{q, args}) }
	defer func() { term.trace = nil }()
	seen := map[string]int{} // the cases exercised
	for i := 0; i < runs && !t.Failed(); i++ {
		stmts = stmts[:0]
		if err := term.run(ctx, tc.tx); err != nil {
			t.Fatalf("%s: %v", tc.tx, err)
		}
		byName, ok := checkOrder(t, tc, stmts)
		if !ok {
			continue
		}
		if byName {
			seen["by name"]++
			checkMiddleCustomer(ctx, t, db, term.d, tc, stmts)
		} else {
			seen["by id"]++
		}
		if tc.extra != nil {
			seen[tc.extra(ctx, t, db, stmts)]++
		}
	}
	for _, c := range append([]string{"by name", "by id"}, tc.cover...) {
		if !t.Failed() && seen[c] == 0 {
			t.Errorf("%s: no customer %s in %d runs (%v)", tc.tx, c, runs, seen)
		}
	}
}

// checkOrder checks the kinds and order of the statements and the one
// customer read; it returns whether the customer was chosen by name.
func checkOrder(t *testing.T, tc txCase, stmts []sent) (byName, ok bool) {
	t.Helper()
	var kinds []string
	for _, s := range stmts {
		kinds = append(kinds, s.kind())
	}
	if !slices.Equal(kinds, tc.order) {
		t.Errorf("%s sent\n  %s\nwant\n  %s", tc.tx, strings.Join(kinds, "\n  "), strings.Join(tc.order, "\n  "))
		return false, false
	}
	read := stmts[slices.Index(tc.order, "SELECT tpcc_customer")]
	byName = read.filters("c_last")
	want := tc.customer
	if byName {
		want = append(slices.Clone(want), "c_id")
		if !strings.Contains(read.query, "ORDER BY c_first") {
			t.Errorf("%s: the read by name does not sort by c_first: %s", tc.tx, read.query)
		}
	} else if !read.filters("c_id") {
		t.Errorf("%s: the customer read names neither c_last nor c_id: %s", tc.tx, read.query)
	}
	checkColumns(t, tc.tx.String()+" customer", read, want)
	if locks := strings.HasSuffix(strings.TrimSpace(read.query), "FOR UPDATE"); locks != tc.forUpdate {
		t.Errorf("%s: customer read FOR UPDATE = %v, want %v: %s", tc.tx, locks, tc.forUpdate, read.query)
	}
	return byName, !t.Failed()
}

func checkColumns(t *testing.T, what string, s sent, want []string) {
	t.Helper()
	got := s.columns()
	for _, col := range want {
		if !slices.Contains(got, col) {
			t.Errorf("%s read lacks %s: it returns %v", what, col, got)
		}
	}
}

// checkMiddleCustomer checks that the customer chosen by name is the one
// at position ceil(n/2) of the n with that name, sorted by first name,
// by asking the database apart from the terminal.
func checkMiddleCustomer(ctx context.Context, t *testing.T, db *sql.DB, d *dialect, tc txCase, stmts []sent) {
	t.Helper()
	read := stmts[slices.Index(tc.order, "SELECT tpcc_customer")]
	last, _ := read.args[len(read.args)-1].(string)
	w, dist, got := tc.chosen(stmts)
	rows, err := db.QueryContext(ctx, d.rebind(`SELECT c_id FROM tpcc_customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ?
		ORDER BY c_first`), w, dist, last)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []int
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 || got != ids[(len(ids)+1)/2-1] {
		t.Errorf("%s: by name %q in warehouse %d district %d chose customer %d; those named so, by first name: %v",
			tc.tx, last, w, dist, got, ids)
	}
}

// checkPaymentReads checks Payment's warehouse and district reads, that
// the customer read fetches C_DATA, and that C_DATA is rewritten exactly
// for a bad-credit customer; it returns the customer's credit.
func checkPaymentReads(ctx context.Context, t *testing.T, db *sql.DB, stmts []sent) string {
	t.Helper()
	checkColumns(t, "Payment warehouse", stmts[1], []string{"w_name", "w_street_1", "w_street_2", "w_city", "w_state", "w_zip"})
	checkColumns(t, "Payment district", stmts[3], []string{"d_name", "d_street_1", "d_street_2", "d_city", "d_state", "d_zip"})
	if !slices.ContainsFunc(stmts[4].columns(), func(c string) bool { return strings.Contains(c, "c_data") }) {
		t.Errorf("Payment customer read does not fetch c_data: %s", stmts[4].query)
	}
	w, d, c := paymentCustomer(stmts)
	var credit string
	q := fmt.Sprintf("SELECT c_credit FROM tpcc_customer WHERE c_w_id = %d AND c_d_id = %d AND c_id = %d", w, d, c)
	if err := db.QueryRowContext(ctx, q).Scan(&credit); err != nil {
		t.Fatal(err)
	}
	if rewrites := strings.Contains(stmts[5].query, "c_data"); rewrites != (credit == "BC") {
		t.Errorf("Payment of customer %d (credit %s) rewrites c_data: %v", c, credit, rewrites)
	}
	if credit == "BC" {
		return "bad credit"
	}
	return "good credit"
}

// The statement parsing the checks above rely on, on both dialects' forms.
func TestSentParsing(t *testing.T) {
	for _, c := range []struct {
		query   string
		kind    string
		columns []string
		filters []string // columns compared with a parameter
	}{
		{"UPDATE tpcc_warehouse SET w_ytd = w_ytd + $1 WHERE w_id = $2", "UPDATE tpcc_warehouse", nil, []string{"w_id"}},
		{"SELECT c_id, c_balance,\n\t\tc_first FROM tpcc_customer WHERE c_w_id = ? AND c_last = ? ORDER BY c_first",
			"SELECT tpcc_customer", []string{"c_id", "c_balance", "c_first"}, []string{"c_w_id", "c_last"}},
		{"SELECT CASE WHEN c_credit = 'BC' THEN c_data ELSE '' END FROM tpcc_customer WHERE c_id = $3 FOR UPDATE",
			"SELECT tpcc_customer", []string{"CASE WHEN c_credit = 'BC' THEN c_data ELSE '' END"}, []string{"c_id"}},
		{"INSERT INTO tpcc_history (h_c_id) VALUES (?)", "INSERT tpcc_history", nil, nil},
	} {
		s := sent{query: c.query}
		if got := s.kind(); got != c.kind {
			t.Errorf("kind(%q) = %q, want %q", c.query, got, c.kind)
		}
		if got := s.columns(); !slices.Equal(got, c.columns) {
			t.Errorf("columns(%q) = %q, want %q", c.query, got, c.columns)
		}
		for _, col := range []string{"w_id", "c_w_id", "c_last", "c_id", "c_credit", "c_first"} {
			if got, want := s.filters(col), slices.Contains(c.filters, col); got != want {
				t.Errorf("filters(%q, %s) = %v, want %v", c.query, col, got, want)
			}
		}
	}
}

// TestMergedStatementsUseKeys runs each transaction of MySQL's batched
// mode on the real MariaDB and asks the server (EXPLAIN) how it would run
// every statement sent: none may read a TPC-C table whole. A merged
// statement (an IN list, a join to a list of rows) that fell back to a
// full scan would lock, under FOR UPDATE or in an UPDATE, every row it
// passed, where the statements it replaces lock only their own.
func TestMergedStatementsUseKeys(t *testing.T) {
	onServers(t, func(ctx context.Context, t *testing.T, db *sql.DB, dialect string) {
		if dialect != "mysql" {
			t.Skip("the merged statements are MySQL's batched mode")
		}
		term := loadedTerminal(ctx, t, db, dialect, ModeBatched)
		defer term.conn.Close()
		var stmts []sent
		term.trace = func(q string, args []any) { stmts = append(stmts, sent{q, args}) }
		explained := map[string]bool{}
		for _, c := range []struct {
			tx   Tx
			runs int
		}{{NewOrder, 20}, {Payment, 20}, {Delivery, 3}, {StockLevel, 3}} {
			for range c.runs {
				stmts = stmts[:0]
				if err := term.run(ctx, c.tx); err != nil && !errors.Is(err, errRollback) {
					t.Fatalf("%s: %v", c.tx, err)
				}
				for _, s := range stmts {
					verb := strings.ToUpper(strings.Fields(s.query)[0])
					if verb == "INSERT" || explained[s.query] {
						continue // an INSERT of values reads no table
					}
					explained[s.query] = true
					checkPlan(ctx, t, db, c.tx, s)
				}
			}
		}
		t.Logf("%d distinct statements explained", len(explained))
		if len(explained) < 8 {
			t.Errorf("only %d distinct statements explained", len(explained))
		}
	})
}

// checkPlan fails the test when EXPLAIN of s shows a whole TPC-C table read.
func checkPlan(ctx context.Context, t *testing.T, db *sql.DB, tx Tx, s sent) {
	t.Helper()
	rows, err := db.QueryContext(ctx, "EXPLAIN "+s.query, s.args...)
	if err != nil {
		t.Fatalf("%s: EXPLAIN %s: %v", tx, s.query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	table, typ := slices.Index(cols, "table"), slices.Index(cols, "type")
	if table < 0 || typ < 0 {
		t.Fatalf("EXPLAIN columns %v lack table or type", cols)
	}
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(vals[table].String, "tpcc_") || len(vals[table].String) <= 2 && vals[table].Valid {
			if vals[typ].String == "ALL" || vals[typ].String == "index" {
				t.Errorf("%s: %s reads %s whole (%s): %s", tx, s.kind(), vals[table].String, vals[typ].String, s.query)
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}
