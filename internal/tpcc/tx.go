package tpcc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tsbench/tsbench/internal/arrival"
	"github.com/tsbench/tsbench/internal/sockwatch"
)

// errRollback is the New-Order that rolls back by design (clause 2.4.2.3:
// 1 % name an unused item); it completes as a business transaction.
var errRollback = errors.New("tpcc: New-Order rolled back by design (unused item)")

// terminal is one emulated terminal: a connection, a home warehouse and
// its own random stream.
type terminal struct {
	conn       *sql.Conn
	arrived    *arrival.Clock // its connection's last arrival (arrival.Dial)
	d          *dialect
	g          *random
	w          int // home warehouse
	district   int // Stock-Level's district (clause 2.8.1.1: fixed per terminal)
	warehouses int
	stmts      map[string]string // statement text in the dialect, by the ?-form
	now        func() time.Time
	// trace, when set (by tests), sees every statement the terminal sends,
	// in order, in its dialect and with its arguments.
	trace func(query string, args []any)
	// mode is Config.Mode ("" taken as ModeBatched): batched goes in
	// pgx pipelines on PostgreSQL and in merged statements on MySQL.
	mode string
	// roundTrips counts the requests the terminal waited for an answer
	// to: a statement, BEGIN or COMMIT when interactive (and in MySQL's
	// batched mode), a pipeline in PostgreSQL's batched mode, a call in
	// procedures mode.
	roundTrips int64

	deliverySkipped int64 // districts a Delivery found without new orders
	// orderDistrict is the district of the last New-Order drawn: where a
	// committed one must be found after the run (durability.go).
	orderDistrict int

	// sock is the socket under conn on PostgreSQL (nil on MySQL): an
	// interactive transaction's context is watched there (watch), once
	// for the terminal's reusable context, not by pgconn and database/sql
	// for every statement.
	sock  net.Conn
	watch sockwatch.Watch
}

// socketOf is the socket under a connection of pgx's database/sql driver;
// nil for other drivers.
func socketOf(conn *sql.Conn) net.Conn {
	var sock net.Conn
	_ = conn.Raw(func(dc any) error {
		if c, ok := dc.(interface{ Conn() *pgx.Conn }); ok {
			sock = c.Conn().PgConn().Conn()
		}
		return nil
	})
	return sock
}

// unwatched returns the context a transaction's statements run under: ctx
// itself, or on PostgreSQL a context that never ends, ctx being watched on
// the terminal's socket instead.
func (t *terminal) unwatched(ctx context.Context) (context.Context, error) {
	if t.sock == nil || ctx.Done() == nil {
		return ctx, nil
	}
	if err := t.watch.Arm(ctx, t.sock); err != nil {
		return nil, err
	}
	return context.WithoutCancel(ctx), nil
}

// sql returns q in the terminal's dialect.
func (t *terminal) sql(q string) string {
	s, ok := t.stmts[q]
	if !ok {
		s = t.d.rebind(q)
		t.stmts[q] = s
	}
	return s
}

// run executes one transaction of type tx inside a database transaction.
func (t *terminal) run(ctx context.Context, tx Tx) error {
	switch {
	case t.mode == ModeProcedures:
		return t.runProcedure(ctx, tx)
	case t.mode == ModeInteractive:
		return t.runInteractive(ctx, tx)
	case t.d.name == "postgres":
		return t.runBatched(ctx, tx)
	}
	return t.runInteractive(ctx, tx)
}

// runInteractive sends one statement per round trip through database/sql:
// the interactive forms, or on MySQL in batched mode the merged ones.
func (t *terminal) runInteractive(ctx context.Context, tx Tx) error {
	err := t.interactive(ctx, tx)
	if cause := ctx.Err(); err != nil && cause != nil && !errors.Is(err, cause) {
		err = fmt.Errorf("%w: %w", cause, err) // interrupted through the socket
	}
	return err
}

func (t *terminal) interactive(watched context.Context, tx Tx) error {
	ctx, err := t.unwatched(watched)
	if err != nil {
		return err
	}
	t.roundTrips += 2 // BEGIN, and COMMIT or ROLLBACK
	dbtx, err := t.conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	x := &txn{t: t, tx: dbtx, ctx: ctx}
	form := interactiveForms[tx]
	run := form.interactive
	if t.mode != ModeInteractive && form.merged != nil { // MySQL's batched mode
		run = form.merged
	}
	if run != nil {
		err = run(x)
	}
	if err != nil {
		if rbErr := dbtx.Rollback(); rbErr != nil && !errors.Is(err, errRollback) {
			return fmt.Errorf("%w (and rollback: %v)", err, rbErr)
		}
		return err
	}
	if err := dbtx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// interactiveForms are each transaction's statements sent one per round
// trip: the interactive form, and the merged one MySQL's batched mode
// sends instead (nil for Order-Status, whose reads merge no further).
var interactiveForms = map[Tx]struct{ interactive, merged func(*txn) error }{
	NewOrder:    {(*txn).newOrder, (*txn).newOrderMulti},
	Payment:     {(*txn).payment, (*txn).paymentMulti},
	OrderStatus: {(*txn).orderStatus, nil},
	Delivery:    {(*txn).delivery, (*txn).deliveryMulti},
	StockLevel:  {(*txn).stockLevel, (*txn).stockLevelMulti},
}

// txn is one transaction in progress.
type txn struct {
	t   *terminal
	tx  *sql.Tx
	ctx context.Context
}

func (x *txn) exec(q string, args ...any) (sql.Result, error) {
	return x.tx.ExecContext(x.ctx, x.send(q, args), args...)
}

func (x *txn) row(q string, args ...any) *sql.Row {
	return x.tx.QueryRowContext(x.ctx, x.send(q, args), args...)
}

func (x *txn) query(q string, args ...any) (*sql.Rows, error) {
	return x.tx.QueryContext(x.ctx, x.send(q, args), args...)
}

// send is the statement q in the terminal's dialect, shown to the trace.
func (x *txn) send(q string, args []any) string {
	x.t.roundTrips++
	return x.t.traced(q, args)
}

// traced is the statement q in the terminal's dialect, shown to the trace.
func (t *terminal) traced(q string, args []any) string {
	s := t.sql(q)
	if t.trace != nil {
		t.trace(s, args)
	}
	return s
}

// otherWarehouse is a warehouse other than the home one, uniformly.
func (t *terminal) otherWarehouse() int {
	w := t.g.intn(1, t.warehouses-1)
	if w >= t.w {
		w++
	}
	return w
}

type orderLine struct {
	number, item, supply, quantity int
}

// newOrderInput is what a New-Order terminal keys (clause 2.4.1), with
// the lines sorted as they are processed.
type newOrderInput struct {
	d, c     int
	lines    []orderLine
	allLocal int
}

func (t *terminal) newOrderInput() newOrderInput {
	g := t.g
	in := newOrderInput{d: g.intn(1, districtsPerW), c: g.customerID(), allLocal: 1}
	t.orderDistrict = in.d
	in.lines = make([]orderLine, g.intn(minItemsPerOrder, maxItemsPerOrder))
	rollback := g.intn(1, 100) == 1
	for i := range in.lines {
		l := orderLine{number: i + 1, item: g.itemID(), supply: t.w, quantity: g.intn(1, 10)}
		if t.warehouses > 1 && g.intn(1, 100) == 1 {
			l.supply, in.allLocal = t.otherWarehouse(), 0
		}
		in.lines[i] = l
	}
	if rollback {
		in.lines[len(in.lines)-1].item = invalidItem
	}
	// Stock rows are locked in one global order, so that two New-Orders
	// never wait for each other in a cycle.
	sort.Slice(in.lines, func(i, j int) bool {
		a, b := in.lines[i], in.lines[j]
		return a.supply < b.supply || a.supply == b.supply && a.item < b.item
	})
	return in
}

// newOrder is clause 2.4.2, one step a round trip, in the statement shapes
// go-tpc sends (the specification leaves how rows are read to the
// implementation): the customer, the warehouse, the district read FOR
// UPDATE and advanced, the order and the new order; then every item of
// the order in one SELECT ... IN, every stock row in one SELECT ... IN
// ... FOR UPDATE, each stock row's update, and every order line in one
// multi-row INSERT.
func (x *txn) newOrder() error {
	t := x.t
	in := t.newOrderInput()
	d, c, lines := in.d, in.c, in.lines
	var discount, wTax, dTax float64
	var last, credit string
	if err := x.row(`SELECT c_discount, c_last, c_credit FROM tpcc_customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`,
		t.w, d, c).Scan(&discount, &last, &credit); err != nil {
		return fmt.Errorf("new-order: customer: %w", err)
	}
	if err := x.row(`SELECT w_tax FROM tpcc_warehouse WHERE w_id = ?`, t.w).Scan(&wTax); err != nil {
		return fmt.Errorf("new-order: warehouse: %w", err)
	}
	var orderID int
	if err := x.row(`SELECT d_tax, d_next_o_id FROM tpcc_district WHERE d_w_id = ? AND d_id = ? FOR UPDATE`,
		t.w, d).Scan(&dTax, &orderID); err != nil {
		return fmt.Errorf("new-order: district: %w", err)
	}
	if _, err := x.exec(`UPDATE tpcc_district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?`, t.w, d); err != nil {
		return fmt.Errorf("new-order: district: %w", err)
	}
	if _, err := x.exec(`INSERT INTO tpcc_orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
		VALUES (?, ?, ?, ?, ?, NULL, ?, ?)`, orderID, d, t.w, c, t.now(), len(lines), in.allLocal); err != nil {
		return fmt.Errorf("new-order: order: %w", err)
	}
	if _, err := x.exec(`INSERT INTO tpcc_new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)`, orderID, d, t.w); err != nil {
		return fmt.Errorf("new-order: new order: %w", err)
	}
	prices, err := x.itemPrices(lines)
	if err != nil {
		return err
	}
	stock, err := x.lockStock(in)
	if err != nil {
		return err
	}
	return x.orderLines(orderID, in, prices, stock)
}

// itemPrices reads the order's items in one statement; an unused item
// (missing from the answer) rolls the New-Order back.
func (x *txn) itemPrices(lines []orderLine) (map[int]int64, error) {
	ids := make([]any, len(lines))
	for i, l := range lines {
		ids[i] = l.item
	}
	rows, err := x.query(`SELECT i_id, i_price, i_name, i_data FROM tpcc_item WHERE i_id IN (`+placeholders(len(ids), "?")+`)`, ids...)
	if err != nil {
		return nil, fmt.Errorf("new-order: items: %w", err)
	}
	defer rows.Close()
	prices := make(map[int]int64, len(lines))
	for rows.Next() {
		var id int
		var price, name, data string
		if err := rows.Scan(&id, &price, &name, &data); err != nil {
			return nil, fmt.Errorf("new-order: items: %w", err)
		}
		if prices[id], err = parseCents(price); err != nil {
			return nil, fmt.Errorf("new-order: item price: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("new-order: items: %w", err)
	}
	for _, l := range lines {
		if _, ok := prices[l.item]; !ok {
			return nil, errRollback
		}
	}
	return prices, nil
}

// orderLines updates each line's stock row, in the lines' (locking) order,
// each from the row as the lines before it left it (an item ordered twice
// from one warehouse is updated twice), and inserts every order line in
// one statement.
func (x *txn) orderLines(orderID int, in newOrderInput, prices map[int]int64, stock map[stockKey]stockRow) error {
	t := x.t
	lineArgs := make([]any, 0, 9*len(in.lines))
	for _, l := range in.lines {
		k := stockKey{l.supply, l.item}
		s := stock[k]
		if s.quantity-l.quantity >= 10 {
			s.quantity -= l.quantity
		} else {
			s.quantity += 91 - l.quantity
		}
		stock[k] = s
		remote := 0
		if l.supply != t.w {
			remote = 1
		}
		if _, err := x.exec(`UPDATE tpcc_stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1,
			s_remote_cnt = s_remote_cnt + ? WHERE s_w_id = ? AND s_i_id = ?`, s.quantity, l.quantity, remote, l.supply, l.item); err != nil {
			return fmt.Errorf("new-order: stock: %w", err)
		}
		lineArgs = append(lineArgs, orderID, in.d, t.w, l.number, l.item, l.supply, l.quantity,
			cents(prices[l.item]*int64(l.quantity)), s.distInfo)
	}
	if _, err := x.exec(`INSERT INTO tpcc_order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
		ol_quantity, ol_amount, ol_dist_info) VALUES `+placeholders(len(in.lines), "(?, ?, ?, ?, ?, ?, ?, ?, ?)"),
		lineArgs...); err != nil {
		return fmt.Errorf("new-order: order lines: %w", err)
	}
	return nil
}

// customerKey is how the terminal names the customer of a Payment or an
// Order-Status: 60 % by last name, else by id (clauses 2.5.1.2, 2.6.1.2).
type customerKey struct {
	last string // by last name when set
	id   int
}

func (g *random) customerKey() customerKey {
	if g.intn(1, 100) <= 60 {
		return customerKey{last: lastName(g.lastNameNumber())}
	}
	return customerKey{id: g.customerID()}
}

// customerRead is one customer read in its two forms: by last name (the
// customers of that name sorted by first name) and by id.
type customerRead struct{ byName, byID string }

type scanner interface{ Scan(dest ...any) error }

// readCustomer reads the customer k names in warehouse w, district d. By
// last name the one statement returns every customer of that name and the
// one at position ceil(n/2) is kept (clauses 2.5.2.2, 2.6.2.2), so the
// columns come from that read and the customer is not read twice.
func readCustomer[T any](x *txn, r customerRead, w, d int, k customerKey, scan func(scanner, *T) error) (T, error) {
	var c T
	if k.last != "" {
		return readCustomerByName(x, r.byName, w, d, k.last, scan)
	}
	if err := scan(x.row(r.byID, w, d, k.id), &c); err != nil {
		return c, fmt.Errorf("customer %d of warehouse %d district %d: %w", k.id, w, d, err)
	}
	return c, nil
}

func readCustomerByName[T any](x *txn, q string, w, d int, last string, scan func(scanner, *T) error) (T, error) {
	var none T
	all, err := scanAll(x, scan, q, w, d, last)
	if err != nil {
		return none, fmt.Errorf("customers named %s in warehouse %d district %d: %w", last, w, d, err)
	}
	if len(all) == 0 {
		return none, fmt.Errorf("no customer named %s in warehouse %d district %d", last, w, d)
	}
	return all[(len(all)+1)/2-1], nil // position ceil(n/2), counted from 1
}

// scanAll is every row query q returns.
func scanAll[T any](x *txn, scan func(scanner, *T) error, q string, args ...any) ([]T, error) {
	rows, err := x.query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var all []T
	for rows.Next() {
		var c T
		if err := scan(rows, &c); err != nil {
			return nil, err
		}
		all = append(all, c)
	}
	return all, rows.Err()
}

// paymentInput is what a Payment terminal keys (clause 2.5.1.2).
type paymentInput struct {
	d        int // district of the home warehouse
	cw, cd   int // the customer's warehouse and district
	customer customerKey
	amount   int64 // H_AMOUNT in cents
}

func (t *terminal) paymentInput() paymentInput {
	g := t.g
	in := paymentInput{d: g.intn(1, districtsPerW)}
	in.cw, in.cd = t.w, in.d
	if t.warehouses > 1 && g.intn(1, 100) > 85 {
		in.cw, in.cd = t.otherWarehouse(), g.intn(1, districtsPerW)
	}
	in.amount = int64(g.intn(100, 500_000))
	in.customer = g.customerKey()
	return in
}

// address is a warehouse's or a district's name and address, which the
// Payment terminal shows.
type address struct{ name, street1, street2, city, state, zip string }

func (a *address) scan(s scanner) error {
	return s.Scan(&a.name, &a.street1, &a.street2, &a.city, &a.state, &a.zip)
}

// payer is the customer of a Payment as its read returns it. C_DATA comes
// back only for bad credit: only then is it needed (it is rewritten), and
// it is the longest column.
type payer struct {
	id                                                             int
	first, middle, last, street1, street2, city, state, zip, phone string
	since                                                          time.Time
	credit, creditLim, discount, balance, data                     string
}

func scanPayer(s scanner, c *payer) error {
	return s.Scan(&c.id, &c.first, &c.middle, &c.last, &c.street1, &c.street2, &c.city, &c.state, &c.zip, &c.phone,
		&c.since, &c.credit, &c.creditLim, &c.discount, &c.balance, &c.data)
}

const payerColumns = `c_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone,
	c_since, c_credit, c_credit_lim, c_discount, c_balance, CASE WHEN c_credit = 'BC' THEN c_data ELSE '' END`

// payerRead locks the customer (FOR UPDATE): the Payment updates it next.
// By name that locks every customer of the name (three on average) until
// commit; choosing one and reading it again by id to lock only that one
// would be the second read clause 2.5.2.2 does not have. The rows are
// locked in first-name order, the same in every Payment, so two of them
// do not deadlock on each other's customers.
var payerRead = customerRead{
	byName: `SELECT ` + payerColumns + ` FROM tpcc_customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ?
		ORDER BY c_first FOR UPDATE`,
	byID: `SELECT ` + payerColumns + ` FROM tpcc_customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ? FOR UPDATE`,
}

// payment is clause 2.5.2, in its order: the warehouse, the district, then
// the customer, then the history row.
func (x *txn) payment() error {
	in := x.t.paymentInput()
	w, err := x.payWarehouse(in)
	if err != nil {
		return fmt.Errorf("payment: warehouse %d: %w", x.t.w, err)
	}
	d, err := x.payDistrict(in)
	if err != nil {
		return fmt.Errorf("payment: district %d of warehouse %d: %w", in.d, x.t.w, err)
	}
	c, err := readCustomer(x, payerRead, in.cw, in.cd, in.customer, scanPayer)
	if err != nil {
		return fmt.Errorf("payment: %w", err)
	}
	if err := x.payCustomer(in, c); err != nil {
		return fmt.Errorf("payment: customer %d of warehouse %d district %d: %w", c.id, in.cw, in.cd, err)
	}
	if _, err := x.exec(`INSERT INTO tpcc_history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, c.id, in.cd, in.cw, in.d, x.t.w, x.t.now(), cents(in.amount), w.name+"    "+d.name); err != nil {
		return fmt.Errorf("payment: history: %w", err)
	}
	return nil
}

func (x *txn) payWarehouse(in paymentInput) (address, error) {
	var a address
	if _, err := x.exec(`UPDATE tpcc_warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?`, cents(in.amount), x.t.w); err != nil {
		return a, err
	}
	return a, a.scan(x.row(`SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM tpcc_warehouse WHERE w_id = ?`, x.t.w))
}

func (x *txn) payDistrict(in paymentInput) (address, error) {
	var a address
	if _, err := x.exec(`UPDATE tpcc_district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?`, cents(in.amount), x.t.w, in.d); err != nil {
		return a, err
	}
	return a, a.scan(x.row(`SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM tpcc_district
		WHERE d_w_id = ? AND d_id = ?`, x.t.w, in.d))
}

// payCustomer books the payment on the customer; a bad-credit customer's
// C_DATA gets the payment prepended (clause 2.5.2.2).
func (x *txn) payCustomer(in paymentInput, c payer) error {
	amount := cents(in.amount)
	if c.credit != "BC" {
		_, err := x.exec(`UPDATE tpcc_customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?,
			c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`, amount, amount, in.cw, in.cd, c.id)
		return err
	}
	data := fmt.Sprintf("%d %d %d %d %d %s|%s", c.id, in.cd, in.cw, in.d, x.t.w, amount, c.data)
	if len(data) > 500 {
		data = data[:500]
	}
	_, err := x.exec(`UPDATE tpcc_customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?,
		c_payment_cnt = c_payment_cnt + 1, c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`,
		amount, amount, data, in.cw, in.cd, c.id)
	return err
}

// statusCustomer is the customer of an Order-Status as its read returns it.
type statusCustomer struct {
	id                           int
	balance, first, middle, last string
}

func scanStatusCustomer(s scanner, c *statusCustomer) error {
	return s.Scan(&c.id, &c.balance, &c.first, &c.middle, &c.last)
}

var statusCustomerRead = customerRead{
	byName: `SELECT c_id, c_balance, c_first, c_middle, c_last FROM tpcc_customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ?
		ORDER BY c_first`,
	byID: `SELECT c_id, c_balance, c_first, c_middle, c_last FROM tpcc_customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`,
}

// An Order-Status's reads of the customer's latest order and of that
// order's lines: one text for the modes that send statements (interactive
// and batched), as statusCustomerRead is.
const (
	statusOrderRead = `SELECT o_id, o_carrier_id, o_entry_d FROM tpcc_orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ?
		ORDER BY o_id DESC LIMIT 1`
	statusLinesRead = `SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
		FROM tpcc_order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?`
)

// linesShown ends an Order-Status in either mode: the order it read had n
// lines, and an order without any means the data is broken.
func (t *terminal) linesShown(n, d, orderID int) error {
	if n == 0 {
		return fmt.Errorf("order-status: order %d of warehouse %d district %d has no lines", orderID, t.w, d)
	}
	return nil
}

// orderStatus is clause 2.6.2: the customer, its latest order, and that
// order's lines.
func (x *txn) orderStatus() error {
	t := x.t
	d := t.g.intn(1, districtsPerW)
	c, err := readCustomer(x, statusCustomerRead, t.w, d, t.g.customerKey(), scanStatusCustomer)
	if err != nil {
		return fmt.Errorf("order-status: %w", err)
	}
	var orderID int
	var carrier sql.NullInt64
	var entry time.Time
	if err := x.row(statusOrderRead, t.w, d, c.id).Scan(&orderID, &carrier, &entry); err != nil {
		return fmt.Errorf("order-status: last order of customer %d: %w", c.id, err)
	}
	return x.statusLines(d, orderID)
}

// statusLines reads the order lines an Order-Status shows.
func (x *txn) statusLines(d, orderID int) error {
	t := x.t
	rows, err := x.query(statusLinesRead, t.w, d, orderID)
	if err != nil {
		return fmt.Errorf("order-status: order lines: %w", err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var item, supply, quantity int
		var amount string
		var delivered sql.NullTime
		if err := rows.Scan(&item, &supply, &quantity, &amount, &delivered); err != nil {
			return fmt.Errorf("order-status: order lines: %w", err)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("order-status: order lines: %w", err)
	}
	return t.linesShown(n, d, orderID)
}

// delivery is clause 2.7.4, run as one database transaction for all ten
// districts (as BenchmarkSQL does; the specification lets it be deferred).
func (x *txn) delivery() error {
	t := x.t
	carrier := t.g.intn(1, 10)
	now := t.now()
	for d := 1; d <= districtsPerW; d++ {
		var orderID int
		err := x.row(`SELECT no_o_id FROM tpcc_new_order WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id LIMIT 1 FOR UPDATE`,
			t.w, d).Scan(&orderID)
		if errors.Is(err, sql.ErrNoRows) {
			t.deliverySkipped++ // clause 2.7.4.2: the district is skipped
			continue
		}
		if err != nil {
			return fmt.Errorf("delivery: new order: %w", err)
		}
		res, err := x.exec(`DELETE FROM tpcc_new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?`, t.w, d, orderID)
		if err != nil {
			return fmt.Errorf("delivery: new order: %w", err)
		}
		if n, err := res.RowsAffected(); err == nil && n != 1 {
			return fmt.Errorf("delivery: new order %d of warehouse %d district %d was taken by another Delivery", orderID, t.w, d)
		}
		var customer int
		if err := x.row(`SELECT o_c_id FROM tpcc_orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?`, t.w, d, orderID).Scan(&customer); err != nil {
			return fmt.Errorf("delivery: order: %w", err)
		}
		if _, err := x.exec(`UPDATE tpcc_orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?`, carrier, t.w, d, orderID); err != nil {
			return fmt.Errorf("delivery: order: %w", err)
		}
		if _, err := x.exec(`UPDATE tpcc_order_line SET ol_delivery_d = ? WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?`, now, t.w, d, orderID); err != nil {
			return fmt.Errorf("delivery: order lines: %w", err)
		}
		var total string
		if err := x.row(`SELECT SUM(ol_amount) FROM tpcc_order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?`, t.w, d, orderID).Scan(&total); err != nil {
			return fmt.Errorf("delivery: order total: %w", err)
		}
		if _, err := x.exec(`UPDATE tpcc_customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1
			WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`, total, t.w, d, customer); err != nil {
			return fmt.Errorf("delivery: customer: %w", err)
		}
	}
	return nil
}

// stockLevel is clause 2.8.2.
func (x *txn) stockLevel() error {
	t := x.t
	threshold := t.g.intn(10, 20)
	var next int
	if err := x.row(`SELECT d_next_o_id FROM tpcc_district WHERE d_w_id = ? AND d_id = ?`, t.w, t.district).Scan(&next); err != nil {
		return fmt.Errorf("stock-level: district: %w", err)
	}
	var low int
	if err := x.row(`SELECT COUNT(DISTINCT s.s_i_id) FROM tpcc_order_line ol JOIN tpcc_stock s
			ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id
		WHERE ol.ol_w_id = ? AND ol.ol_d_id = ? AND ol.ol_o_id >= ? AND ol.ol_o_id < ? AND s.s_quantity < ?`,
		t.w, t.district, next-20, next, threshold).Scan(&low); err != nil {
		return fmt.Errorf("stock-level: count: %w", err)
	}
	return nil
}

// parseCents reads a DECIMAL(…,2) as returned by the drivers ("12.5",
// "12.50", "12") into cents.
func parseCents(s string) (int64, error) {
	var whole, frac int64
	var fracDigits int
	neg := false
	i := 0
	if i < len(s) && s[i] == '-' {
		neg, i = true, i+1
	}
	seenDot := false
	for ; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '.' && !seenDot:
			seenDot = true
		case ch >= '0' && ch <= '9' && !seenDot:
			whole = whole*10 + int64(ch-'0')
		case ch >= '0' && ch <= '9' && fracDigits < 2:
			frac = frac*10 + int64(ch-'0')
			fracDigits++
		case ch >= '0' && ch <= '9':
			if ch != '0' {
				return 0, fmt.Errorf("amount %q has more than two decimals", s)
			}
		default:
			return 0, fmt.Errorf("amount %q is not a decimal", s)
		}
	}
	for ; fracDigits < 2; fracDigits++ {
		frac *= 10
	}
	c := whole*100 + frac
	if neg {
		c = -c
	}
	return c, nil
}
