package tpcc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"time"
)

// errRollback is the New-Order that rolls back by design (clause 2.4.2.3:
// 1 % name an unused item); it completes as a business transaction.
var errRollback = errors.New("tpcc: New-Order rolled back by design (unused item)")

// terminal is one emulated terminal: a connection, a home warehouse and
// its own random stream.
type terminal struct {
	conn       *sql.Conn
	d          *dialect
	g          *random
	w          int // home warehouse
	district   int // Stock-Level's district (clause 2.8.1.1: fixed per terminal)
	warehouses int
	stmts      map[string]string // statement text in the dialect, by the ?-form
	now        func() time.Time

	deliverySkipped int64 // districts a Delivery found without new orders
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
	dbtx, err := t.conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	x := &txn{t: t, tx: dbtx, ctx: ctx}
	switch tx {
	case NewOrder:
		err = x.newOrder()
	case Payment:
		err = x.payment()
	case OrderStatus:
		err = x.orderStatus()
	case Delivery:
		err = x.delivery()
	case StockLevel:
		err = x.stockLevel()
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

// txn is one transaction in progress.
type txn struct {
	t   *terminal
	tx  *sql.Tx
	ctx context.Context
}

func (x *txn) exec(q string, args ...any) (sql.Result, error) {
	return x.tx.ExecContext(x.ctx, x.t.sql(q), args...)
}

func (x *txn) row(q string, args ...any) *sql.Row {
	return x.tx.QueryRowContext(x.ctx, x.t.sql(q), args...)
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

// newOrder is clause 2.4.2.
func (x *txn) newOrder() error {
	t, g := x.t, x.t.g
	d, c := g.intn(1, districtsPerW), g.customerID()
	lines := make([]orderLine, g.intn(minItemsPerOrder, maxItemsPerOrder))
	rollback := g.intn(1, 100) == 1
	allLocal := 1
	for i := range lines {
		l := orderLine{number: i + 1, item: g.itemID(), supply: t.w, quantity: g.intn(1, 10)}
		if t.warehouses > 1 && g.intn(1, 100) == 1 {
			l.supply, allLocal = t.otherWarehouse(), 0
		}
		lines[i] = l
	}
	if rollback {
		lines[len(lines)-1].item = invalidItem
	}
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
		VALUES (?, ?, ?, ?, ?, NULL, ?, ?)`, orderID, d, t.w, c, t.now(), len(lines), allLocal); err != nil {
		return fmt.Errorf("new-order: order: %w", err)
	}
	if _, err := x.exec(`INSERT INTO tpcc_new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)`, orderID, d, t.w); err != nil {
		return fmt.Errorf("new-order: new order: %w", err)
	}
	// Stock rows are locked in one global order, so that two New-Orders
	// never wait for each other in a cycle.
	sort.Slice(lines, func(i, j int) bool {
		a, b := lines[i], lines[j]
		return a.supply < b.supply || a.supply == b.supply && a.item < b.item
	})
	for _, l := range lines {
		if err := x.orderLine(orderID, d, l); err != nil {
			return err
		}
	}
	return nil
}

func (x *txn) orderLine(orderID, d int, l orderLine) error {
	t := x.t
	var price int64
	var priceText, name, itemData string
	err := x.row(`SELECT i_price, i_name, i_data FROM tpcc_item WHERE i_id = ?`, l.item).Scan(&priceText, &name, &itemData)
	if errors.Is(err, sql.ErrNoRows) {
		return errRollback
	}
	if err != nil {
		return fmt.Errorf("new-order: item: %w", err)
	}
	if price, err = parseCents(priceText); err != nil {
		return fmt.Errorf("new-order: item price: %w", err)
	}
	var quantity int
	var distInfo, stockData string
	if err := x.row(fmt.Sprintf(`SELECT s_quantity, s_dist_%02d, s_data FROM tpcc_stock WHERE s_w_id = ? AND s_i_id = ? FOR UPDATE`, d),
		l.supply, l.item).Scan(&quantity, &distInfo, &stockData); err != nil {
		return fmt.Errorf("new-order: stock: %w", err)
	}
	if quantity-l.quantity >= 10 {
		quantity -= l.quantity
	} else {
		quantity += 91 - l.quantity
	}
	remote := 0
	if l.supply != t.w {
		remote = 1
	}
	if _, err := x.exec(`UPDATE tpcc_stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1,
		s_remote_cnt = s_remote_cnt + ? WHERE s_w_id = ? AND s_i_id = ?`, quantity, l.quantity, remote, l.supply, l.item); err != nil {
		return fmt.Errorf("new-order: stock: %w", err)
	}
	if _, err := x.exec(`INSERT INTO tpcc_order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
		ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
		orderID, d, t.w, l.number, l.item, l.supply, l.quantity, cents(price*int64(l.quantity)), distInfo); err != nil {
		return fmt.Errorf("new-order: order line: %w", err)
	}
	return nil
}

// customerByName is the middle customer (rounded up) of those with the
// last name, ordered by first name (clause 2.5.2.2).
func (x *txn) customerByName(w, d int, last string) (int, error) {
	rows, err := x.tx.QueryContext(x.ctx, x.t.sql(`SELECT c_id FROM tpcc_customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ?
		ORDER BY c_first`), w, d, last)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var ids []int
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			return 0, err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if len(ids) == 0 {
		return 0, fmt.Errorf("no customer named %s in warehouse %d district %d", last, w, d)
	}
	return ids[(len(ids)-1)/2], nil
}

// chooseCustomer is the 60 % by last name, 40 % by id of Payment and
// Order-Status.
func (x *txn) chooseCustomer(w, d int) (int, error) {
	g := x.t.g
	if g.intn(1, 100) <= 60 {
		return x.customerByName(w, d, lastName(g.lastNameNumber()))
	}
	return g.customerID(), nil
}

// payment is clause 2.5.2.
func (x *txn) payment() error {
	t, g := x.t, x.t.g
	d := g.intn(1, districtsPerW)
	cw, cd := t.w, d
	if t.warehouses > 1 && g.intn(1, 100) > 85 {
		cw, cd = t.otherWarehouse(), g.intn(1, districtsPerW)
	}
	amount := int64(g.intn(100, 500_000))
	c, err := x.chooseCustomer(cw, cd)
	if err != nil {
		return fmt.Errorf("payment: customer: %w", err)
	}
	if _, err := x.exec(`UPDATE tpcc_warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?`, cents(amount), t.w); err != nil {
		return fmt.Errorf("payment: warehouse: %w", err)
	}
	var wName, dName, street, city, state, zip string
	if err := x.row(`SELECT w_name, w_street_1, w_city, w_state, w_zip FROM tpcc_warehouse WHERE w_id = ?`, t.w).
		Scan(&wName, &street, &city, &state, &zip); err != nil {
		return fmt.Errorf("payment: warehouse: %w", err)
	}
	if _, err := x.exec(`UPDATE tpcc_district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?`, cents(amount), t.w, d); err != nil {
		return fmt.Errorf("payment: district: %w", err)
	}
	if err := x.row(`SELECT d_name, d_street_1, d_city, d_state, d_zip FROM tpcc_district WHERE d_w_id = ? AND d_id = ?`, t.w, d).
		Scan(&dName, &street, &city, &state, &zip); err != nil {
		return fmt.Errorf("payment: district: %w", err)
	}
	var credit, data string
	if err := x.row(`SELECT c_credit, c_data FROM tpcc_customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ? FOR UPDATE`,
		cw, cd, c).Scan(&credit, &data); err != nil {
		return fmt.Errorf("payment: customer: %w", err)
	}
	if credit == "BC" {
		// Bad credit: the payment is prepended to C_DATA (clause 2.5.2.2).
		data = fmt.Sprintf("%d %d %d %d %d %s|%s", c, cd, cw, d, t.w, cents(amount), data)
		if len(data) > 500 {
			data = data[:500]
		}
		_, err = x.exec(`UPDATE tpcc_customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?,
			c_payment_cnt = c_payment_cnt + 1, c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`,
			cents(amount), cents(amount), data, cw, cd, c)
	} else {
		_, err = x.exec(`UPDATE tpcc_customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?,
			c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`,
			cents(amount), cents(amount), cw, cd, c)
	}
	if err != nil {
		return fmt.Errorf("payment: customer: %w", err)
	}
	hData := wName + "    " + dName
	if _, err := x.exec(`INSERT INTO tpcc_history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, c, cd, cw, d, t.w, t.now(), cents(amount), hData); err != nil {
		return fmt.Errorf("payment: history: %w", err)
	}
	return nil
}

// orderStatus is clause 2.6.2.
func (x *txn) orderStatus() error {
	t := x.t
	d := t.g.intn(1, districtsPerW)
	c, err := x.chooseCustomer(t.w, d)
	if err != nil {
		return fmt.Errorf("order-status: customer: %w", err)
	}
	var balance, first, last string
	if err := x.row(`SELECT c_balance, c_first, c_last FROM tpcc_customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`,
		t.w, d, c).Scan(&balance, &first, &last); err != nil {
		return fmt.Errorf("order-status: customer: %w", err)
	}
	var orderID int
	var carrier sql.NullInt64
	var entry time.Time
	if err := x.row(`SELECT o_id, o_carrier_id, o_entry_d FROM tpcc_orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ?
		ORDER BY o_id DESC LIMIT 1`, t.w, d, c).Scan(&orderID, &carrier, &entry); err != nil {
		return fmt.Errorf("order-status: last order of customer %d: %w", c, err)
	}
	rows, err := x.tx.QueryContext(x.ctx, t.sql(`SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
		FROM tpcc_order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?`), t.w, d, orderID)
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
	if n == 0 {
		return fmt.Errorf("order-status: order %d of warehouse %d district %d has no lines", orderID, t.w, d)
	}
	return nil
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
