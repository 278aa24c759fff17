package tpcc

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/tsbench/tsbench/internal/summary"
)

// Check is one consistency condition of clause 3.3.2 and how many rows
// (warehouses, districts, orders, customers) break it.
type Check = summary.TPCCCheck

type condition struct {
	number int
	text   string
	sql    string // counts the violating rows
	// freshOnly: holds only until the first Delivery (condition 11), so it
	// is checked on a fresh load only.
	freshOnly bool
}

// delivered is, per customer, the amount of the order lines delivered to
// them; paid is what they paid (history).
const (
	delivered = `SELECT o.o_w_id AS w, o.o_d_id AS d, o.o_c_id AS c, SUM(l.ol_amount) AS s
		FROM tpcc_orders o JOIN tpcc_order_line l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
		WHERE l.ol_delivery_d IS NOT NULL GROUP BY o.o_w_id, o.o_d_id, o.o_c_id`
	paid = `SELECT h_c_w_id AS w, h_c_d_id AS d, h_c_id AS c, SUM(h_amount) AS s FROM tpcc_history
		GROUP BY h_c_w_id, h_c_d_id, h_c_id`
)

var conditions = []condition{
	{1, "W_YTD = sum(D_YTD) of the warehouse's districts",
		`SELECT COUNT(*) FROM tpcc_warehouse w WHERE w.w_ytd <> (SELECT SUM(d.d_ytd) FROM tpcc_district d WHERE d.d_w_id = w.w_id)`, false},
	{2, "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) per district",
		`SELECT COUNT(*) FROM tpcc_district d WHERE d.d_next_o_id - 1 <>
			(SELECT MAX(o.o_id) FROM tpcc_orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id)
		OR d.d_next_o_id - 1 <> COALESCE((SELECT MAX(n.no_o_id) FROM tpcc_new_order n
			WHERE n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id), d.d_next_o_id - 1)`, false},
	{3, "max(NO_O_ID) - min(NO_O_ID) + 1 = rows in NEW-ORDER per district",
		`SELECT COUNT(*) FROM (SELECT MAX(no_o_id) - MIN(no_o_id) + 1 AS span, COUNT(*) AS n FROM tpcc_new_order
			GROUP BY no_w_id, no_d_id) x WHERE x.span <> x.n`, false},
	{4, "sum(O_OL_CNT) = rows in ORDER-LINE per district",
		`SELECT COUNT(*) FROM (SELECT o_w_id, o_d_id, SUM(o_ol_cnt) AS s FROM tpcc_orders GROUP BY o_w_id, o_d_id) o
		LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) AS n FROM tpcc_order_line GROUP BY ol_w_id, ol_d_id) l
			ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id
		WHERE o.s <> COALESCE(l.n, 0)`, false},
	{5, "O_CARRIER_ID is null exactly for the orders in NEW-ORDER",
		`SELECT COUNT(*) FROM tpcc_orders o LEFT JOIN tpcc_new_order n
			ON n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id
		WHERE (o.o_carrier_id IS NULL AND n.no_o_id IS NULL) OR (o.o_carrier_id IS NOT NULL AND n.no_o_id IS NOT NULL)`, false},
	{6, "O_OL_CNT = the order's rows in ORDER-LINE",
		`SELECT COUNT(*) FROM tpcc_orders o LEFT JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, COUNT(*) AS n FROM tpcc_order_line
			GROUP BY ol_w_id, ol_d_id, ol_o_id) l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
		WHERE o.o_ol_cnt <> COALESCE(l.n, 0)`, false},
	{7, "OL_DELIVERY_D is null exactly when the order's O_CARRIER_ID is",
		`SELECT COUNT(*) FROM tpcc_order_line l JOIN tpcc_orders o
			ON o.o_w_id = l.ol_w_id AND o.o_d_id = l.ol_d_id AND o.o_id = l.ol_o_id
		WHERE (l.ol_delivery_d IS NULL AND o.o_carrier_id IS NOT NULL) OR (l.ol_delivery_d IS NOT NULL AND o.o_carrier_id IS NULL)`, false},
	{8, "W_YTD = sum(H_AMOUNT) of the warehouse's history",
		`SELECT COUNT(*) FROM tpcc_warehouse w WHERE w.w_ytd <>
			(SELECT COALESCE(SUM(h.h_amount), 0) FROM tpcc_history h WHERE h.h_w_id = w.w_id)`, false},
	{9, "D_YTD = sum(H_AMOUNT) of the district's history",
		`SELECT COUNT(*) FROM tpcc_district d WHERE d.d_ytd <>
			(SELECT COALESCE(SUM(h.h_amount), 0) FROM tpcc_history h WHERE h.h_w_id = d.d_w_id AND h.h_d_id = d.d_id)`, false},
	{10, "C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT) per customer",
		`SELECT COUNT(*) FROM tpcc_customer c
		LEFT JOIN (` + delivered + `) ol ON ol.w = c.c_w_id AND ol.d = c.c_d_id AND ol.c = c.c_id
		LEFT JOIN (` + paid + `) h ON h.w = c.c_w_id AND h.d = c.c_d_id AND h.c = c.c_id
		WHERE c.c_balance <> COALESCE(ol.s, 0) - COALESCE(h.s, 0)`, false},
	{11, "rows in ORDER - rows in NEW-ORDER = 2,100 per district (before any Delivery)",
		`SELECT COUNT(*) FROM (SELECT o_w_id AS w, o_d_id AS d, COUNT(*) AS n FROM tpcc_orders GROUP BY o_w_id, o_d_id) o
		LEFT JOIN (SELECT no_w_id AS w, no_d_id AS d, COUNT(*) AS n FROM tpcc_new_order GROUP BY no_w_id, no_d_id) n
			ON n.w = o.w AND n.d = o.d
		WHERE o.n - COALESCE(n.n, 0) <> 2100`, true},
	{12, "C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT) per customer",
		`SELECT COUNT(*) FROM tpcc_customer c
		LEFT JOIN (` + delivered + `) ol ON ol.w = c.c_w_id AND ol.d = c.c_d_id AND ol.c = c.c_id
		WHERE c.c_balance + c.c_ytd_payment <> COALESCE(ol.s, 0)`, false},
}

// CheckConsistency runs the consistency conditions: all twelve on a fresh
// load, every one but 11 (which the first Delivery ends) after a run. A
// condition that cannot be evaluated is reported with its error.
func CheckConsistency(ctx context.Context, db *sql.DB, dialectName string, fresh bool) ([]Check, error) {
	if _, err := dialectOf(dialectName); err != nil {
		return nil, err
	}
	var out []Check
	for _, c := range conditions {
		if c.freshOnly && !fresh {
			continue
		}
		ch := Check{Number: c.number, Condition: c.text}
		if err := db.QueryRowContext(ctx, c.sql).Scan(&ch.Violations); err != nil {
			ch.Error = fmt.Sprintf("tpcc: consistency condition %d: %v", c.number, err)
		}
		ch.OK = ch.Error == "" && ch.Violations == 0
		out = append(out, ch)
	}
	return out, nil
}

// AllOK reports whether every check passed.
func AllOK(cs []Check) bool {
	for _, c := range cs {
		if !c.OK {
			return false
		}
	}
	return len(cs) > 0
}
