package tpcc

import (
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The five transactions in batched mode (PostgreSQL). Each draws its
// input exactly as its interactive form does and leaves the same rows;
// docs/tpcc.md lists what each round trip carries.

// stockLine is what New-Order learns about one order line in its first
// round trip.
type stockLine struct {
	found    bool // the stock row exists (not for the unused item)
	distInfo string
}

// newOrder is clause 2.4.2 in two round trips: (1) the customer, the
// warehouse, the district (its update returns the order id) and, since
// none of them needs an answer, every item and every stock update (each
// returning S_DIST_xx, so stock is not read and then written); (2) the
// order, the new order and all order lines in one INSERT, and COMMIT.
func (p *pipe) newOrder() error {
	t := p.t
	in := t.newOrderInput()
	var discount, wTax, dTax float64
	var last, credit string
	var orderID int
	p.queue(`SELECT c_discount, c_last, c_credit FROM tpcc_customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`,
		t.w, in.d, in.c).QueryRow(row(&discount, &last, &credit))
	p.queue(`SELECT w_tax FROM tpcc_warehouse WHERE w_id = ?`, t.w).QueryRow(row(&wTax))
	p.queue(`UPDATE tpcc_district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?
		RETURNING d_tax, d_next_o_id - 1`, t.w, in.d).QueryRow(row(&dTax, &orderID))
	prices := p.queueItems(in.lines)
	stock := p.queueStock(in)
	if err := p.flush(); err != nil {
		return fmt.Errorf("new-order: %w", err)
	}
	for i, l := range in.lines {
		if _, ok := prices[l.item]; !ok {
			return errRollback
		}
		if !stock[i].found {
			return fmt.Errorf("new-order: no stock of item %d in warehouse %d", l.item, l.supply)
		}
	}
	p.queue(`INSERT INTO tpcc_orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
		VALUES (?, ?, ?, ?, ?, NULL, ?, ?)`, orderID, in.d, t.w, in.c, t.now(), len(in.lines), in.allLocal)
	p.queue(`INSERT INTO tpcc_new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)`, orderID, in.d, t.w)
	p.queueOrderLines(orderID, in, prices, stock)
	if err := p.commit(); err != nil {
		return fmt.Errorf("new-order: order %d: %w", orderID, err)
	}
	return nil
}

// queueItems reads the order's items in one statement; an unused item
// is simply missing from the answer.
func (p *pipe) queueItems(lines []orderLine) map[int]int64 {
	ids := make([]int32, len(lines))
	for i, l := range lines {
		ids[i] = int32(l.item)
	}
	prices := make(map[int]int64, len(lines))
	p.queue(`SELECT i_id, i_price, i_name, i_data FROM tpcc_item WHERE i_id = ANY(?)`, ids).Query(func(rows pgx.Rows) error {
		var id int
		var price, name, data string
		_, err := pgx.ForEachRow(rows, []any{&id, &price, &name, &data}, func() error {
			c, err := parseCents(price)
			prices[id] = c
			return err
		})
		return err
	})
	return prices
}

// queueStock updates each line's stock in the lines' (locking) order. The
// new quantity is computed by the server as the interactive form computes
// it from the quantity it read (clause 2.4.2.2).
func (p *pipe) queueStock(in newOrderInput) []stockLine {
	t := p.t
	stock := make([]stockLine, len(in.lines))
	q := fmt.Sprintf(`UPDATE tpcc_stock SET s_quantity = CASE WHEN s_quantity - ? >= 10 THEN s_quantity - ?
		ELSE s_quantity + 91 - ? END, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ?
		WHERE s_w_id = ? AND s_i_id = ? RETURNING s_dist_%02d, s_data`, in.d)
	for i, l := range in.lines {
		remote := 0
		if l.supply != t.w {
			remote = 1
		}
		s := &stock[i]
		p.queue(q, l.quantity, l.quantity, l.quantity, l.quantity, remote, l.supply, l.item).Query(func(rows pgx.Rows) error {
			var data string
			_, err := pgx.ForEachRow(rows, []any{&s.distInfo, &data}, func() error { s.found = true; return nil })
			return err
		})
	}
	return stock
}

// queueOrderLines inserts all the order's lines with one statement: the
// columns go as arrays and unnest turns them into rows.
func (p *pipe) queueOrderLines(orderID int, in newOrderInput, prices map[int]int64, stock []stockLine) {
	n := len(in.lines)
	number, item, supply, quantity := make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n)
	amount, dist := make([]string, n), make([]string, n)
	for i, l := range in.lines {
		number[i], item[i], supply[i], quantity[i] = int32(l.number), int32(l.item), int32(l.supply), int32(l.quantity)
		amount[i], dist[i] = cents(prices[l.item]*int64(l.quantity)), stock[i].distInfo
	}
	p.queue(`INSERT INTO tpcc_order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
		ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
		SELECT ?, ?, ?, n, i, s, NULL, q, a, d FROM unnest(?::int[], ?::int[], ?::int[], ?::int[], ?::numeric[], ?::text[])
			AS l(n, i, s, q, a, d)`, orderID, in.d, p.t.w, number, item, supply, quantity, amount, dist)
}

// payment is clause 2.5.2 in two round trips: (1) the warehouse, the
// district and the customer, each updated and read in the interactive
// form's order; (2) the customer's update (which needs its id and
// credit), the history row and COMMIT.
func (p *pipe) payment() error {
	t := p.t
	in := t.paymentInput()
	var w, d address
	p.queue(`UPDATE tpcc_warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?`, cents(in.amount), t.w)
	p.queue(`SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM tpcc_warehouse WHERE w_id = ?`,
		t.w).QueryRow(func(r pgx.Row) error { return w.scan(r) })
	p.queue(`UPDATE tpcc_district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?`, cents(in.amount), t.w, in.d)
	p.queue(`SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM tpcc_district
		WHERE d_w_id = ? AND d_id = ?`, t.w, in.d).QueryRow(func(r pgx.Row) error { return d.scan(r) })
	var c payer
	queueCustomer(p, payerRead, in.cw, in.cd, in.customer, scanPayer, &c)
	if err := p.flush(); err != nil {
		return fmt.Errorf("payment: warehouse %d district %d: %w", t.w, in.d, err)
	}
	p.queueCustomerPayment(in, c)
	p.queue(`INSERT INTO tpcc_history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, c.id, in.cd, in.cw, in.d, t.w, t.now(), cents(in.amount), w.name+"    "+d.name)
	if err := p.commit(); err != nil {
		return fmt.Errorf("payment: customer %d of warehouse %d district %d: %w", c.id, in.cw, in.cd, err)
	}
	return nil
}

// queueCustomerPayment is payCustomer's statement, queued.
func (p *pipe) queueCustomerPayment(in paymentInput, c payer) {
	amount := cents(in.amount)
	if c.credit != "BC" {
		p.queue(`UPDATE tpcc_customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?,
			c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`, amount, amount, in.cw, in.cd, c.id)
		return
	}
	data := fmt.Sprintf("%d %d %d %d %d %s|%s", c.id, in.cd, in.cw, in.d, p.t.w, amount, c.data)
	if len(data) > 500 {
		data = data[:500]
	}
	p.queue(`UPDATE tpcc_customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?,
		c_payment_cnt = c_payment_cnt + 1, c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`,
		amount, amount, data, in.cw, in.cd, c.id)
}

// queueCustomer queues the read of the customer k names (by last name:
// all of that name, the one at position ceil(n/2) kept), as readCustomer
// does it interactively; *c is set once the pipeline has been flushed.
func queueCustomer[T any](p *pipe, r customerRead, w, d int, k customerKey, scan func(scanner, *T) error, c *T) {
	if k.last == "" {
		p.queue(r.byID, w, d, k.id).QueryRow(func(row pgx.Row) error {
			if err := scan(row, c); err != nil {
				return fmt.Errorf("customer %d of warehouse %d district %d: %w", k.id, w, d, err)
			}
			return nil
		})
		return
	}
	p.queue(r.byName, w, d, k.last).Query(func(rows pgx.Rows) error {
		var all []T
		for rows.Next() {
			var v T
			if err := scan(rows, &v); err != nil {
				return fmt.Errorf("customers named %s in warehouse %d district %d: %w", k.last, w, d, err)
			}
			all = append(all, v)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("customers named %s in warehouse %d district %d: %w", k.last, w, d, err)
		}
		if len(all) == 0 {
			return fmt.Errorf("no customer named %s in warehouse %d district %d", k.last, w, d)
		}
		*c = all[(len(all)+1)/2-1] // position ceil(n/2), counted from 1
		return nil
	})
}

// orderStatus is clause 2.6.2: the customer, its latest order, that
// order's lines. By id the first two share a round trip (the order's read
// needs only the id); by last name the order waits for the customer.
func (p *pipe) orderStatus() error {
	t := p.t
	d := t.g.intn(1, districtsPerW)
	k := t.g.customerKey()
	var c statusCustomer
	queueCustomer(p, statusCustomerRead, t.w, d, k, scanStatusCustomer, &c)
	if k.last != "" {
		if err := p.flush(); err != nil {
			return fmt.Errorf("order-status: %w", err)
		}
		k.id = c.id
	}
	var orderID int
	var carrier *int
	var entry time.Time
	p.queue(statusOrderRead, t.w, d, k.id).QueryRow(row(&orderID, &carrier, &entry))
	if err := p.flush(); err != nil {
		return fmt.Errorf("order-status: last order of customer %d: %w", k.id, err)
	}
	return p.statusLines(d, orderID)
}

// statusLines reads the order lines an Order-Status shows, with COMMIT.
func (p *pipe) statusLines(d, orderID int) error {
	t := p.t
	n := 0
	p.queue(statusLinesRead, t.w, d, orderID).Query(func(rows pgx.Rows) error {
		var item, supply, quantity int
		var amount string
		var delivered *time.Time
		_, err := pgx.ForEachRow(rows, []any{&item, &supply, &quantity, &amount, &delivered}, func() error { n++; return nil })
		return err
	})
	if err := p.commit(); err != nil {
		return fmt.Errorf("order-status: order lines: %w", err)
	}
	return t.linesShown(n, d, orderID)
}

// delivery is clause 2.7.4 for all ten districts in three round trips:
// (1) each district's oldest new order, locked; (2) for each found, its
// deletion, the order's carrier (returning the customer), the lines'
// delivery date and their total; (3) each customer's balance, and COMMIT.
func (p *pipe) delivery() error {
	t := p.t
	carrier := t.g.intn(1, 10)
	now := t.now()
	var oldest [districtsPerW + 1]int // 0: no new order
	for d := 1; d <= districtsPerW; d++ {
		p.queue(`SELECT no_o_id FROM tpcc_new_order WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id LIMIT 1 FOR UPDATE`,
			t.w, d).Query(func(rows pgx.Rows) error {
			_, err := pgx.ForEachRow(rows, []any{&oldest[d]}, func() error { return nil })
			return err
		})
	}
	if err := p.flush(); err != nil {
		return fmt.Errorf("delivery: new orders: %w", err)
	}
	var customer [districtsPerW + 1]int
	var total [districtsPerW + 1]string
	for d := 1; d <= districtsPerW; d++ {
		if oldest[d] == 0 {
			t.deliverySkipped++ // clause 2.7.4.2: the district is skipped
			continue
		}
		p.queueDelivered(d, oldest[d], carrier, now, &customer[d], &total[d])
	}
	if err := p.flush(); err != nil {
		return fmt.Errorf("delivery: orders: %w", err)
	}
	for d := 1; d <= districtsPerW; d++ {
		if oldest[d] == 0 {
			continue
		}
		p.queue(`UPDATE tpcc_customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1
			WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`, total[d], t.w, d, customer[d])
	}
	if err := p.commit(); err != nil {
		return fmt.Errorf("delivery: customers: %w", err)
	}
	return nil
}

// queueDelivered queues the delivery of order orderID of district d.
func (p *pipe) queueDelivered(d, orderID, carrier int, now time.Time, customer *int, total *string) {
	t := p.t
	p.queue(`DELETE FROM tpcc_new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?`, t.w, d, orderID).
		Exec(func(ct pgconn.CommandTag) error {
			if ct.RowsAffected() != 1 {
				return fmt.Errorf("new order %d of warehouse %d district %d was taken by another Delivery", orderID, t.w, d)
			}
			return nil
		})
	p.queue(`UPDATE tpcc_orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ? RETURNING o_c_id`,
		carrier, t.w, d, orderID).QueryRow(row(customer))
	p.queue(`UPDATE tpcc_order_line SET ol_delivery_d = ? WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?`, now, t.w, d, orderID)
	p.queue(`SELECT SUM(ol_amount) FROM tpcc_order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?`,
		t.w, d, orderID).QueryRow(row(total))
}

// stockLevel is clause 2.8.2 in two round trips: the district's next
// order id, then the count with COMMIT.
func (p *pipe) stockLevel() error {
	t := p.t
	threshold := t.g.intn(10, 20)
	var next, low int
	p.queue(`SELECT d_next_o_id FROM tpcc_district WHERE d_w_id = ? AND d_id = ?`, t.w, t.district).QueryRow(row(&next))
	if err := p.flush(); err != nil {
		return fmt.Errorf("stock-level: district: %w", err)
	}
	p.queue(`SELECT COUNT(DISTINCT s.s_i_id) FROM tpcc_order_line ol JOIN tpcc_stock s
			ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id
		WHERE ol.ol_w_id = ? AND ol.ol_d_id = ? AND ol.ol_o_id >= ? AND ol.ol_o_id < ? AND s.s_quantity < ?`,
		t.w, t.district, next-20, next, threshold).QueryRow(row(&low))
	if err := p.commit(); err != nil {
		return fmt.Errorf("stock-level: count: %w", err)
	}
	return nil
}
