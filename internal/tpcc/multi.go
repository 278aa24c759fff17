package tpcc

import (
	"fmt"
	"strings"
)

// The batched mode on MySQL and MariaDB. Their driver sends one statement
// per request and has no pipeline (and the target's connections do not
// allow several statements in one request), so statements that do not
// need each other's answers are merged into one statement instead: a join
// reads several tables at once, one SELECT ... IN (...) reads or locks all
// the rows a loop would, a multi-row INSERT or an UPDATE joined to a list
// of rows writes them all. Each transaction draws its input as the
// interactive form does and leaves the same rows; docs/tpcc.md lists what
// each round trip carries.

// stockKey names a stock row.
type stockKey struct{ w, item int }

// newOrderMulti is clause 2.4.2 in nine round trips: BEGIN; the district
// update (its new D_NEXT_O_ID comes back in the OK packet as the insert
// id, through LAST_INSERT_ID(expr)); the customer, both taxes and every
// item in one join; every stock row FOR UPDATE; every stock update; the
// order; the new order; every order line; COMMIT.
//
// long: the transaction's round trips in the specification's order
func (x *txn) newOrderMulti() error {
	t := x.t
	in := t.newOrderInput()
	res, err := x.exec(`UPDATE tpcc_district SET d_next_o_id = LAST_INSERT_ID(d_next_o_id + 1) WHERE d_w_id = ? AND d_id = ?`,
		t.w, in.d)
	if err != nil {
		return fmt.Errorf("new-order: district: %w", err)
	}
	next, err := res.LastInsertId()
	if err != nil {
		return fmt.Errorf("new-order: district %d of warehouse %d: the new order id: %w", in.d, t.w, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("new-order: district %d of warehouse %d: %d rows updated", in.d, t.w, n)
	}
	orderID := int(next) - 1

	// The customer, the warehouse's and the district's tax, and the items:
	// a join that repeats the first three on every item's row. An unused
	// item is missing from the answer.
	ids := make([]any, 0, 6+len(in.lines))
	ids = append(ids, t.w, in.d, in.c, t.w, t.w, in.d)
	for _, l := range in.lines {
		ids = append(ids, l.item)
	}
	rows, err := x.query(`SELECT c_discount, c_last, c_credit, w_tax, d_tax, i_id, i_price, i_name, i_data
		FROM tpcc_customer, tpcc_warehouse, tpcc_district, tpcc_item
		WHERE c_w_id = ? AND c_d_id = ? AND c_id = ? AND w_id = ? AND d_w_id = ? AND d_id = ? AND i_id IN (`+
		placeholders(len(in.lines), "?")+`)`, ids...)
	if err != nil {
		return fmt.Errorf("new-order: customer and items: %w", err)
	}
	prices := make(map[int]int64, len(in.lines))
	for rows.Next() {
		var discount, wTax, dTax float64
		var last, credit, price, name, data string
		var id int
		if err := rows.Scan(&discount, &last, &credit, &wTax, &dTax, &id, &price, &name, &data); err != nil {
			rows.Close()
			return fmt.Errorf("new-order: customer and items: %w", err)
		}
		if prices[id], err = parseCents(price); err != nil {
			rows.Close()
			return fmt.Errorf("new-order: item price: %w", err)
		}
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("new-order: customer and items: %w", err)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("new-order: customer and items: %w", err)
	}
	for _, l := range in.lines {
		if _, ok := prices[l.item]; !ok {
			return errRollback
		}
	}

	stock, err := x.lockStock(in)
	if err != nil {
		return err
	}
	// The lines in their (locking) order, each from the stock row as the
	// lines before it left it: an item ordered twice from one warehouse is
	// updated twice, as the interactive form does it.
	type change struct{ quantity, ytd, count, remote int }
	changes := make(map[stockKey]*change, len(in.lines))
	var order []stockKey
	lineArgs := make([]any, 0, 9*len(in.lines))
	for _, l := range in.lines {
		k := stockKey{l.supply, l.item}
		s := stock[k]
		c := changes[k]
		if c == nil {
			c = &change{quantity: s.quantity}
			changes[k] = c
			order = append(order, k)
		}
		if c.quantity-l.quantity >= 10 {
			c.quantity -= l.quantity
		} else {
			c.quantity += 91 - l.quantity
		}
		c.ytd += l.quantity
		c.count++
		if l.supply != t.w {
			c.remote++
		}
		lineArgs = append(lineArgs, orderID, in.d, t.w, l.number, l.item, l.supply, l.quantity,
			cents(prices[l.item]*int64(l.quantity)), s.distInfo)
	}
	upArgs := make([]any, 0, 6*len(order))
	for _, k := range order {
		c := changes[k]
		upArgs = append(upArgs, k.w, k.item, c.quantity, c.ytd, c.count, c.remote)
	}
	if _, err := x.exec(`UPDATE tpcc_stock JOIN (SELECT ? AS w, ? AS i, ? AS q, ? AS ytd, ? AS cnt, ? AS remote`+
		strings.Repeat(" UNION ALL SELECT ?, ?, ?, ?, ?, ?", len(order)-1)+`) AS v ON s_w_id = v.w AND s_i_id = v.i
		SET s_quantity = v.q, s_ytd = s_ytd + v.ytd, s_order_cnt = s_order_cnt + v.cnt, s_remote_cnt = s_remote_cnt + v.remote`,
		upArgs...); err != nil {
		return fmt.Errorf("new-order: stock: %w", err)
	}
	if _, err := x.exec(`INSERT INTO tpcc_orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
		VALUES (?, ?, ?, ?, ?, NULL, ?, ?)`, orderID, in.d, t.w, in.c, t.now(), len(in.lines), in.allLocal); err != nil {
		return fmt.Errorf("new-order: order: %w", err)
	}
	if _, err := x.exec(`INSERT INTO tpcc_new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)`, orderID, in.d, t.w); err != nil {
		return fmt.Errorf("new-order: new order: %w", err)
	}
	if _, err := x.exec(`INSERT INTO tpcc_order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
		ol_quantity, ol_amount, ol_dist_info) VALUES `+placeholders(len(in.lines), "(?, ?, ?, ?, ?, ?, ?, ?, ?)"),
		lineArgs...); err != nil {
		return fmt.Errorf("new-order: order lines: %w", err)
	}
	return nil
}

// stockRow is what New-Order reads of a stock row.
type stockRow struct {
	quantity int
	distInfo string
}

// lockStock reads every stock row of the order FOR UPDATE in one
// statement, locking them in (warehouse, item) order, the order of the
// order's lines, so that two New-Orders never wait for each other in a
// cycle: InnoDB locks them as it walks the primary key, PostgreSQL as the
// ORDER BY returns them.
func (x *txn) lockStock(in newOrderInput) (map[stockKey]stockRow, error) {
	args := make([]any, 0, 2*len(in.lines))
	for _, l := range in.lines {
		args = append(args, l.supply, l.item)
	}
	rows, err := x.query(fmt.Sprintf(`SELECT s_w_id, s_i_id, s_quantity, s_dist_%02d, s_data FROM tpcc_stock
		WHERE (s_w_id, s_i_id) IN (%s) ORDER BY s_w_id, s_i_id FOR UPDATE`, in.d, placeholders(len(in.lines), "(?, ?)")), args...)
	if err != nil {
		return nil, fmt.Errorf("new-order: stock: %w", err)
	}
	defer rows.Close()
	stock := make(map[stockKey]stockRow, len(in.lines))
	for rows.Next() {
		var k stockKey
		var s stockRow
		var data string
		if err := rows.Scan(&k.w, &k.item, &s.quantity, &s.distInfo, &data); err != nil {
			return nil, fmt.Errorf("new-order: stock: %w", err)
		}
		stock[k] = s
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("new-order: stock: %w", err)
	}
	for _, l := range in.lines {
		if _, ok := stock[stockKey{l.supply, l.item}]; !ok {
			return nil, fmt.Errorf("new-order: no stock of item %d in warehouse %d", l.item, l.supply)
		}
	}
	return stock, nil
}

// placeholders is n copies of one, separated by commas.
func placeholders(n int, one string) string {
	return strings.TrimSuffix(strings.Repeat(one+", ", n), ", ")
}

// payer columns with the warehouse's and the district's names and
// addresses first.
const addressColumns = `w_name, w_street_1, w_street_2, w_city, w_state, w_zip,
	d_name, d_street_1, d_street_2, d_city, d_state, d_zip, `

// paymentMulti is clause 2.5.2 in six round trips: BEGIN; the warehouse
// and district totals in one multi-table UPDATE; both addresses with the
// customer (by id, or all of the last name sorted by first name) FOR
// UPDATE in one join (the warehouse and district rows it also locks are
// the ones this transaction has just updated); the customer's update; the
// history row; COMMIT.
func (x *txn) paymentMulti() error {
	t := x.t
	in := t.paymentInput()
	if _, err := x.exec(`UPDATE tpcc_warehouse JOIN tpcc_district ON d_w_id = w_id SET w_ytd = w_ytd + ?, d_ytd = d_ytd + ?
		WHERE w_id = ? AND d_id = ?`, cents(in.amount), cents(in.amount), t.w, in.d); err != nil {
		return fmt.Errorf("payment: warehouse %d district %d: %w", t.w, in.d, err)
	}
	type paid struct {
		w, d address
		c    payer
	}
	scan := func(s scanner, p *paid) error {
		return s.Scan(&p.w.name, &p.w.street1, &p.w.street2, &p.w.city, &p.w.state, &p.w.zip,
			&p.d.name, &p.d.street1, &p.d.street2, &p.d.city, &p.d.state, &p.d.zip,
			&p.c.id, &p.c.first, &p.c.middle, &p.c.last, &p.c.street1, &p.c.street2, &p.c.city, &p.c.state, &p.c.zip,
			&p.c.phone, &p.c.since, &p.c.credit, &p.c.creditLim, &p.c.discount, &p.c.balance, &p.c.data)
	}
	from := ` FROM tpcc_warehouse, tpcc_district, tpcc_customer WHERE w_id = ` + fmt.Sprint(t.w) + ` AND d_w_id = w_id AND d_id = ` +
		fmt.Sprint(in.d) + ` AND c_w_id = ? AND c_d_id = ? AND `
	r := customerRead{
		byName: `SELECT ` + addressColumns + payerColumns + from + `c_last = ? ORDER BY c_first FOR UPDATE`,
		byID:   `SELECT ` + addressColumns + payerColumns + from + `c_id = ? FOR UPDATE`,
	}
	p, err := readCustomer(x, r, in.cw, in.cd, in.customer, scan)
	if err != nil {
		return fmt.Errorf("payment: %w", err)
	}
	if err := x.payCustomer(in, p.c); err != nil {
		return fmt.Errorf("payment: customer %d of warehouse %d district %d: %w", p.c.id, in.cw, in.cd, err)
	}
	if _, err := x.exec(`INSERT INTO tpcc_history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, p.c.id, in.cd, in.cw, in.d, t.w, t.now(), cents(in.amount), p.w.name+"    "+p.d.name); err != nil {
		return fmt.Errorf("payment: history: %w", err)
	}
	return nil
}

// deliveryMulti is clause 2.7.4 for all ten districts in eight round
// trips: BEGIN; each district's oldest new order FOR UPDATE (ten SELECTs
// in one UNION ALL); then, for all the districts that have one at once,
// the new orders' deletion, the orders' carrier, the lines' delivery
// date, each order's customer and total, every customer's balance; COMMIT.
//
// long: the transaction's round trips in the specification's order
func (x *txn) deliveryMulti() error {
	t := x.t
	carrier := t.g.intn(1, 10)
	now := t.now()
	var parts []string
	var args []any
	for d := 1; d <= districtsPerW; d++ {
		parts = append(parts, `(SELECT no_d_id, no_o_id FROM tpcc_new_order WHERE no_w_id = ? AND no_d_id = ?
			ORDER BY no_o_id LIMIT 1 FOR UPDATE)`)
		args = append(args, t.w, d)
	}
	rows, err := x.query(strings.Join(parts, " UNION ALL "), args...)
	if err != nil {
		return fmt.Errorf("delivery: new orders: %w", err)
	}
	var keys []any // district, order; district, order; ...
	for rows.Next() {
		var d, o int
		if err := rows.Scan(&d, &o); err != nil {
			rows.Close()
			return fmt.Errorf("delivery: new orders: %w", err)
		}
		keys = append(keys, d, o)
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("delivery: new orders: %w", err)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("delivery: new orders: %w", err)
	}
	found := len(keys) / 2
	t.deliverySkipped += int64(districtsPerW - found) // clause 2.7.4.2: the district is skipped
	if found == 0 {
		return nil
	}
	in := placeholders(found, "(?, ?)")
	with := func(head ...any) []any { return append(head, keys...) }
	res, err := x.exec(`DELETE FROM tpcc_new_order WHERE no_w_id = ? AND (no_d_id, no_o_id) IN (`+in+`)`, with(t.w)...)
	if err != nil {
		return fmt.Errorf("delivery: new orders: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n != int64(found) {
		return fmt.Errorf("delivery: %d of the %d new orders of warehouse %d were taken by another Delivery", int64(found)-n, found, t.w)
	}
	if _, err := x.exec(`UPDATE tpcc_orders SET o_carrier_id = ? WHERE o_w_id = ? AND (o_d_id, o_id) IN (`+in+`)`,
		with(carrier, t.w)...); err != nil {
		return fmt.Errorf("delivery: orders: %w", err)
	}
	if _, err := x.exec(`UPDATE tpcc_order_line SET ol_delivery_d = ? WHERE ol_w_id = ? AND (ol_d_id, ol_o_id) IN (`+in+`)`,
		with(now, t.w)...); err != nil {
		return fmt.Errorf("delivery: order lines: %w", err)
	}
	rows, err = x.query(`SELECT o_d_id, o_c_id, SUM(ol_amount) FROM tpcc_orders JOIN tpcc_order_line
			ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
		WHERE o_w_id = ? AND (o_d_id, o_id) IN (`+in+`) GROUP BY o_d_id, o_c_id`, with(t.w)...)
	if err != nil {
		return fmt.Errorf("delivery: order totals: %w", err)
	}
	var up []any // district, customer, total; ...
	for rows.Next() {
		var d, c int
		var total string
		if err := rows.Scan(&d, &c, &total); err != nil {
			rows.Close()
			return fmt.Errorf("delivery: order totals: %w", err)
		}
		up = append(up, d, c, total)
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("delivery: order totals: %w", err)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("delivery: order totals: %w", err)
	}
	if len(up) != 3*found {
		return fmt.Errorf("delivery: %d of %d delivered orders have lines", len(up)/3, found)
	}
	// Each district's order has its own customer (C_D_ID differs), so no
	// customer is in the list twice.
	if _, err := x.exec(`UPDATE tpcc_customer JOIN (SELECT ? AS d, ? AS c, CAST(? AS DECIMAL(12,2)) AS total`+
		strings.Repeat(" UNION ALL SELECT ?, ?, ?", found-1)+`) AS v ON c_w_id = `+fmt.Sprint(t.w)+` AND c_d_id = v.d AND c_id = v.c
		SET c_balance = c_balance + v.total, c_delivery_cnt = c_delivery_cnt + 1`, up...); err != nil {
		return fmt.Errorf("delivery: customers: %w", err)
	}
	return nil
}

// stockLevelMulti is clause 2.8.2 in three round trips: BEGIN; the count,
// its order range taken from the district in the same statement; COMMIT.
func (x *txn) stockLevelMulti() error {
	t := x.t
	threshold := t.g.intn(10, 20)
	var low int
	if err := x.row(`SELECT COUNT(DISTINCT s.s_i_id) FROM tpcc_district d JOIN tpcc_order_line ol
			ON ol.ol_w_id = d.d_w_id AND ol.ol_d_id = d.d_id AND ol.ol_o_id >= d.d_next_o_id - 20 AND ol.ol_o_id < d.d_next_o_id
		JOIN tpcc_stock s ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id
		WHERE d.d_w_id = ? AND d.d_id = ? AND s.s_quantity < ?`, t.w, t.district, threshold).Scan(&low); err != nil {
		return fmt.Errorf("stock-level: count: %w", err)
	}
	return nil
}
