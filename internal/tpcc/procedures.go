package tpcc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// The procedures mode: each transaction is one server-side routine,
// called in one round trip with the input the terminal drew, as HammerDB
// runs TPC-C. On PostgreSQL they are PL/pgSQL functions, called with
// SELECT in the implicit transaction of that one statement; on MySQL and
// MariaDB stored procedures that open and commit their own transaction
// (autocommit is on between them) and roll it back on any error before
// passing the error on. Each routine runs the interactive form's
// statements in the same order, so the same rows result.

// rollbackState is the SQLSTATE tpcc_tx_new_order raises on PostgreSQL
// for the unused item of the 1 % of New-Orders that roll back by design.
const rollbackState = "TPC01"

// distColumn is the S_DIST_xx column of the district named by the
// routine's parameter p_d.
var distColumn = func() string {
	var b strings.Builder
	b.WriteString("CASE p_d")
	for d := 1; d <= districtsPerW; d++ {
		fmt.Fprintf(&b, " WHEN %d THEN s_dist_%02d", d, d)
	}
	b.WriteString(" END")
	return b.String()
}()

// pgMiddleCustomer is the PL/pgSQL that ends Payment's and Order-Status's
// lookup of a customer by last name (clauses 2.5.2.2 and 2.6.2.2): with
// none of that name in warehouse w, district d, an error; else v_c is the
// one at position ceil(n/2) of list, the customers found in first-name
// order. One text, so that both transactions pick the same customer.
func pgMiddleCustomer(list, w, d string) string {
	return `		IF cardinality(` + list + `) = 0 THEN
			RAISE EXCEPTION 'tpcc: no customer named % in warehouse % district %', p_last, ` + w + `, ` + d + `;
		END IF;
		v_c := ` + list + `[(cardinality(` + list + `) + 1) / 2];
`
}

// pgRoutines are the five transactions as PL/pgSQL functions.
var pgRoutines = []string{
	`CREATE OR REPLACE FUNCTION tpcc_tx_new_order(p_w int, p_d int, p_c int, p_numbers int[], p_items int[], p_supply int[],
		p_qty int[], p_all_local int, p_now timestamp) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
	v_discount numeric; v_last text; v_credit text; v_wtax numeric; v_dtax numeric; v_o int;
	v_price numeric; v_name text; v_idata text; v_q int; v_dist text; v_sdata text;
BEGIN
	SELECT c_discount, c_last, c_credit INTO STRICT v_discount, v_last, v_credit FROM tpcc_customer
		WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;
	SELECT w_tax INTO STRICT v_wtax FROM tpcc_warehouse WHERE w_id = p_w;
	SELECT d_tax, d_next_o_id INTO STRICT v_dtax, v_o FROM tpcc_district WHERE d_w_id = p_w AND d_id = p_d FOR UPDATE;
	UPDATE tpcc_district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w AND d_id = p_d;
	INSERT INTO tpcc_orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
		VALUES (v_o, p_d, p_w, p_c, p_now, NULL, cardinality(p_items), p_all_local);
	INSERT INTO tpcc_new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o, p_d, p_w);
	FOR i IN 1 .. cardinality(p_items) LOOP
		SELECT i_price, i_name, i_data INTO v_price, v_name, v_idata FROM tpcc_item WHERE i_id = p_items[i];
		IF NOT FOUND THEN
			RAISE EXCEPTION 'tpcc: item % is unused (New-Order rolled back by design)', p_items[i] USING ERRCODE = '` + rollbackState + `';
		END IF;
		SELECT s_quantity, ` + distColumn + `, s_data INTO STRICT v_q, v_dist, v_sdata FROM tpcc_stock
			WHERE s_w_id = p_supply[i] AND s_i_id = p_items[i] FOR UPDATE;
		IF v_q - p_qty[i] >= 10 THEN v_q := v_q - p_qty[i]; ELSE v_q := v_q + 91 - p_qty[i]; END IF;
		UPDATE tpcc_stock SET s_quantity = v_q, s_ytd = s_ytd + p_qty[i], s_order_cnt = s_order_cnt + 1,
			s_remote_cnt = s_remote_cnt + CASE WHEN p_supply[i] = p_w THEN 0 ELSE 1 END
			WHERE s_w_id = p_supply[i] AND s_i_id = p_items[i];
		INSERT INTO tpcc_order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,
			ol_quantity, ol_amount, ol_dist_info)
			VALUES (v_o, p_d, p_w, p_numbers[i], p_items[i], p_supply[i], NULL, p_qty[i], v_price * p_qty[i], v_dist);
	END LOOP;
	RETURN v_o;
END $$`,
	`CREATE OR REPLACE FUNCTION tpcc_tx_payment(p_w int, p_d int, p_cw int, p_cd int, p_c int, p_last text, p_amount numeric,
		p_now timestamp) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
	v_w tpcc_warehouse%ROWTYPE; v_d tpcc_district%ROWTYPE; v_c tpcc_customer%ROWTYPE; v_all tpcc_customer[] := '{}';
BEGIN
	UPDATE tpcc_warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w;
	SELECT * INTO STRICT v_w FROM tpcc_warehouse WHERE w_id = p_w;
	UPDATE tpcc_district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w AND d_id = p_d;
	SELECT * INTO STRICT v_d FROM tpcc_district WHERE d_w_id = p_w AND d_id = p_d;
	IF p_last IS NULL THEN
		SELECT * INTO STRICT v_c FROM tpcc_customer WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_id = p_c FOR UPDATE;
	ELSE
		FOR v_c IN SELECT * FROM tpcc_customer WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_last = p_last
				ORDER BY c_first FOR UPDATE LOOP
			v_all := v_all || v_c;
		END LOOP;
` + pgMiddleCustomer("v_all", "p_cw", "p_cd") + `	END IF;
	IF v_c.c_credit = 'BC' THEN
		UPDATE tpcc_customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount,
			c_payment_cnt = c_payment_cnt + 1,
			c_data = left(format('%s %s %s %s %s %s|%s', v_c.c_id, p_cd, p_cw, p_d, p_w, p_amount, v_c.c_data), 500)
			WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_id = v_c.c_id;
	ELSE
		UPDATE tpcc_customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount,
			c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_id = v_c.c_id;
	END IF;
	INSERT INTO tpcc_history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
		VALUES (v_c.c_id, p_cd, p_cw, p_d, p_w, p_now, p_amount, v_w.w_name || '    ' || v_d.d_name);
	RETURN v_c.c_id;
END $$`,
	`CREATE OR REPLACE FUNCTION tpcc_tx_order_status(p_w int, p_d int, p_c int, p_last text)
		RETURNS TABLE (r_item int, r_supply int, r_quantity int, r_amount numeric, r_delivery timestamp) LANGUAGE plpgsql AS $$
DECLARE
	v_c int; v_ids int[] := '{}'; v_balance numeric; v_first text; v_middle text; v_lastname text;
	v_o int; v_carrier int; v_entry timestamp;
BEGIN
	IF p_last IS NULL THEN
		SELECT c_id, c_balance, c_first, c_middle, c_last INTO STRICT v_c, v_balance, v_first, v_middle, v_lastname
			FROM tpcc_customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;
	ELSE
		FOR v_c, v_balance, v_first, v_middle, v_lastname IN SELECT c_id, c_balance, c_first, c_middle, c_last
				FROM tpcc_customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last ORDER BY c_first LOOP
			v_ids := v_ids || v_c;
		END LOOP;
` + pgMiddleCustomer("v_ids", "p_w", "p_d") + `	END IF;
	SELECT o_id, o_carrier_id, o_entry_d INTO STRICT v_o, v_carrier, v_entry FROM tpcc_orders
		WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = v_c ORDER BY o_id DESC LIMIT 1;
	RETURN QUERY SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM tpcc_order_line
		WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id = v_o;
END $$`,
	`CREATE OR REPLACE FUNCTION tpcc_tx_delivery(p_w int, p_carrier int, p_now timestamp) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
	v_o int; v_c int; v_total numeric; v_n int; v_skipped int := 0;
BEGIN
	FOR v_d IN 1 .. ` + strconv.Itoa(districtsPerW) + ` LOOP
		SELECT no_o_id INTO v_o FROM tpcc_new_order WHERE no_w_id = p_w AND no_d_id = v_d ORDER BY no_o_id LIMIT 1 FOR UPDATE;
		IF NOT FOUND THEN
			v_skipped := v_skipped + 1;
			CONTINUE;
		END IF;
		DELETE FROM tpcc_new_order WHERE no_w_id = p_w AND no_d_id = v_d AND no_o_id = v_o;
		GET DIAGNOSTICS v_n = ROW_COUNT;
		IF v_n <> 1 THEN
			RAISE EXCEPTION 'tpcc: new order % of warehouse % district % was taken by another Delivery', v_o, p_w, v_d;
		END IF;
		SELECT o_c_id INTO STRICT v_c FROM tpcc_orders WHERE o_w_id = p_w AND o_d_id = v_d AND o_id = v_o;
		UPDATE tpcc_orders SET o_carrier_id = p_carrier WHERE o_w_id = p_w AND o_d_id = v_d AND o_id = v_o;
		UPDATE tpcc_order_line SET ol_delivery_d = p_now WHERE ol_w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o;
		SELECT SUM(ol_amount) INTO STRICT v_total FROM tpcc_order_line WHERE ol_w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o;
		UPDATE tpcc_customer SET c_balance = c_balance + v_total, c_delivery_cnt = c_delivery_cnt + 1
			WHERE c_w_id = p_w AND c_d_id = v_d AND c_id = v_c;
	END LOOP;
	RETURN v_skipped;
END $$`,
	`CREATE OR REPLACE FUNCTION tpcc_tx_stock_level(p_w int, p_d int, p_threshold int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
	v_next int; v_low int;
BEGIN
	SELECT d_next_o_id INTO STRICT v_next FROM tpcc_district WHERE d_w_id = p_w AND d_id = p_d;
	SELECT COUNT(DISTINCT s.s_i_id) INTO v_low FROM tpcc_order_line ol JOIN tpcc_stock s
			ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id
		WHERE ol.ol_w_id = p_w AND ol.ol_d_id = p_d AND ol.ol_o_id >= v_next - 20 AND ol.ol_o_id < v_next
			AND s.s_quantity < p_threshold;
	RETURN v_low;
END $$`,
}

// nthCSV is the SQL expression of the i-th (from 1) integer of a
// comma-separated list: MySQL procedures have no array parameters.
func nthCSV(list, i string) string {
	return "CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(" + list + ", ',', " + i + "), ',', -1) AS SIGNED)"
}

// onError rolls the procedure's transaction back and passes the error on:
// without it a failed statement would leave the transaction open, and the
// next call's START TRANSACTION would commit its half.
const onError = `DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;`

// mysqlRoutines are the five transactions as MySQL/MariaDB stored
// procedures, by name. Each returns one result set: New-Order the order
// id and whether it rolled back, Order-Status the order's lines,
// Delivery the districts skipped, Stock-Level the count.
var mysqlRoutines = [][2]string{
	{"tpcc_tx_new_order", `CREATE PROCEDURE tpcc_tx_new_order(p_w INT, p_d INT, p_c INT, p_n INT, p_numbers VARCHAR(255),
		p_items VARCHAR(255), p_supply VARCHAR(255), p_qty VARCHAR(255), p_all_local INT, p_now DATETIME(6))
proc: BEGIN
	DECLARE v_discount, v_wtax, v_dtax DECIMAL(4,4);
	DECLARE v_last VARCHAR(16);
	DECLARE v_credit CHAR(2);
	DECLARE v_o, v_i, v_number, v_item, v_supply, v_qty, v_q INT;
	DECLARE v_price DECIMAL(5,2);
	DECLARE v_name VARCHAR(24);
	DECLARE v_idata, v_sdata VARCHAR(50);
	DECLARE v_dist CHAR(24);
	DECLARE v_found INT DEFAULT 1;
	DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_found = 0;
	` + onError + `
	START TRANSACTION;
	SELECT c_discount, c_last, c_credit INTO v_discount, v_last, v_credit FROM tpcc_customer
		WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;
	SELECT w_tax INTO v_wtax FROM tpcc_warehouse WHERE w_id = p_w;
	SELECT d_tax, d_next_o_id INTO v_dtax, v_o FROM tpcc_district WHERE d_w_id = p_w AND d_id = p_d FOR UPDATE;
	IF v_found = 0 THEN
		SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: New-Order: no such customer, warehouse or district';
	END IF;
	UPDATE tpcc_district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w AND d_id = p_d;
	INSERT INTO tpcc_orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
		VALUES (v_o, p_d, p_w, p_c, p_now, NULL, p_n, p_all_local);
	INSERT INTO tpcc_new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o, p_d, p_w);
	SET v_i = 1;
	WHILE v_i <= p_n DO
		SET v_number = ` + nthCSV("p_numbers", "v_i") + `, v_item = ` + nthCSV("p_items", "v_i") + `,
			v_supply = ` + nthCSV("p_supply", "v_i") + `, v_qty = ` + nthCSV("p_qty", "v_i") + `;
		SELECT i_price, i_name, i_data INTO v_price, v_name, v_idata FROM tpcc_item WHERE i_id = v_item;
		IF v_found = 0 THEN
			ROLLBACK;
			SELECT v_o, 1;
			LEAVE proc;
		END IF;
		SELECT s_quantity, ` + distColumn + `, s_data INTO v_q, v_dist, v_sdata FROM tpcc_stock
			WHERE s_w_id = v_supply AND s_i_id = v_item FOR UPDATE;
		IF v_found = 0 THEN
			SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: New-Order: no stock row for an item';
		END IF;
		IF v_q - v_qty >= 10 THEN SET v_q = v_q - v_qty; ELSE SET v_q = v_q + 91 - v_qty; END IF;
		UPDATE tpcc_stock SET s_quantity = v_q, s_ytd = s_ytd + v_qty, s_order_cnt = s_order_cnt + 1,
			s_remote_cnt = s_remote_cnt + IF(v_supply = p_w, 0, 1) WHERE s_w_id = v_supply AND s_i_id = v_item;
		INSERT INTO tpcc_order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,
			ol_quantity, ol_amount, ol_dist_info)
			VALUES (v_o, p_d, p_w, v_number, v_item, v_supply, NULL, v_qty, v_price * v_qty, v_dist);
		SET v_i = v_i + 1;
	END WHILE;
	COMMIT;
	SELECT v_o, 0;
END`},
	{"tpcc_tx_payment", `CREATE PROCEDURE tpcc_tx_payment(p_w INT, p_d INT, p_cw INT, p_cd INT, p_c INT, p_last VARCHAR(16),
		p_amount DECIMAL(6,2), p_now DATETIME(6))
BEGIN
	DECLARE v_wname, v_dname VARCHAR(10);
	DECLARE v_street1, v_street2, v_city VARCHAR(20);
	DECLARE v_state CHAR(2);
	DECLARE v_zip CHAR(9);
	DECLARE v_n, v_c INT;
	DECLARE v_credit CHAR(2);
	DECLARE v_data VARCHAR(500);
	` + onError + `
	START TRANSACTION;
	UPDATE tpcc_warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w;
	SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip INTO v_wname, v_street1, v_street2, v_city, v_state, v_zip
		FROM tpcc_warehouse WHERE w_id = p_w;
	UPDATE tpcc_district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w AND d_id = p_d;
	SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip INTO v_dname, v_street1, v_street2, v_city, v_state, v_zip
		FROM tpcc_district WHERE d_w_id = p_w AND d_id = p_d;
	IF p_last IS NULL THEN
		SELECT c_id, c_credit, c_data INTO v_c, v_credit, v_data FROM tpcc_customer
			WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_id = p_c FOR UPDATE;
	ELSE
		-- Lock every customer of the name, as the interactive read does,
		-- then take the one at position ceil(n/2) by first name.
		SELECT COUNT(*) INTO v_n FROM tpcc_customer WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_last = p_last FOR UPDATE;
		IF v_n = 0 THEN
			SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: Payment: no customer of that last name';
		END IF;
		SET v_n = (v_n + 1) DIV 2 - 1;
		SELECT c_id, c_credit, c_data INTO v_c, v_credit, v_data FROM tpcc_customer
			WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_last = p_last ORDER BY c_first LIMIT v_n, 1 FOR UPDATE;
	END IF;
	IF v_credit = 'BC' THEN
		UPDATE tpcc_customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount,
			c_payment_cnt = c_payment_cnt + 1,
			c_data = LEFT(CONCAT(v_c, ' ', p_cd, ' ', p_cw, ' ', p_d, ' ', p_w, ' ', p_amount, '|', v_data), 500)
			WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_id = v_c;
	ELSE
		UPDATE tpcc_customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount,
			c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_id = v_c;
	END IF;
	INSERT INTO tpcc_history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
		VALUES (v_c, p_cd, p_cw, p_d, p_w, p_now, p_amount, CONCAT(v_wname, '    ', v_dname));
	COMMIT;
	SELECT v_c;
END`},
	{"tpcc_tx_order_status", `CREATE PROCEDURE tpcc_tx_order_status(p_w INT, p_d INT, p_c INT, p_last VARCHAR(16))
BEGIN
	DECLARE v_n, v_c, v_o, v_carrier INT;
	DECLARE v_balance DECIMAL(12,2);
	DECLARE v_first, v_lastname VARCHAR(16);
	DECLARE v_middle CHAR(2);
	DECLARE v_entry DATETIME(6);
	` + onError + `
	START TRANSACTION;
	IF p_last IS NULL THEN
		SELECT c_id, c_balance, c_first, c_middle, c_last INTO v_c, v_balance, v_first, v_middle, v_lastname
			FROM tpcc_customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;
	ELSE
		SELECT COUNT(*) INTO v_n FROM tpcc_customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last;
		IF v_n = 0 THEN
			SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: Order-Status: no customer of that last name';
		END IF;
		SET v_n = (v_n + 1) DIV 2 - 1;
		SELECT c_id, c_balance, c_first, c_middle, c_last INTO v_c, v_balance, v_first, v_middle, v_lastname
			FROM tpcc_customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last ORDER BY c_first LIMIT v_n, 1;
	END IF;
	SELECT o_id, o_carrier_id, o_entry_d INTO v_o, v_carrier, v_entry FROM tpcc_orders
		WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = v_c ORDER BY o_id DESC LIMIT 1;
	SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM tpcc_order_line
		WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id = v_o;
	COMMIT;
END`},
	{"tpcc_tx_delivery", `CREATE PROCEDURE tpcc_tx_delivery(p_w INT, p_carrier INT, p_now DATETIME(6))
BEGIN
	DECLARE v_d, v_o, v_c, v_skipped INT DEFAULT 0;
	DECLARE v_total DECIMAL(12,2);
	DECLARE v_found INT DEFAULT 1;
	DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_found = 0;
	` + onError + `
	START TRANSACTION;
	SET v_d = 1;
	WHILE v_d <= ` + strconv.Itoa(districtsPerW) + ` DO
		SET v_found = 1;
		SELECT no_o_id INTO v_o FROM tpcc_new_order WHERE no_w_id = p_w AND no_d_id = v_d ORDER BY no_o_id LIMIT 1 FOR UPDATE;
		IF v_found = 0 THEN
			SET v_skipped = v_skipped + 1;
		ELSE
			DELETE FROM tpcc_new_order WHERE no_w_id = p_w AND no_d_id = v_d AND no_o_id = v_o;
			IF ROW_COUNT() <> 1 THEN
				SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tpcc: Delivery: a new order was taken by another Delivery';
			END IF;
			SELECT o_c_id INTO v_c FROM tpcc_orders WHERE o_w_id = p_w AND o_d_id = v_d AND o_id = v_o;
			UPDATE tpcc_orders SET o_carrier_id = p_carrier WHERE o_w_id = p_w AND o_d_id = v_d AND o_id = v_o;
			UPDATE tpcc_order_line SET ol_delivery_d = p_now WHERE ol_w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o;
			SELECT SUM(ol_amount) INTO v_total FROM tpcc_order_line WHERE ol_w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o;
			UPDATE tpcc_customer SET c_balance = c_balance + v_total, c_delivery_cnt = c_delivery_cnt + 1
				WHERE c_w_id = p_w AND c_d_id = v_d AND c_id = v_c;
		END IF;
		SET v_d = v_d + 1;
	END WHILE;
	COMMIT;
	SELECT v_skipped;
END`},
	{"tpcc_tx_stock_level", `CREATE PROCEDURE tpcc_tx_stock_level(p_w INT, p_d INT, p_threshold INT)
BEGIN
	DECLARE v_next, v_low INT;
	` + onError + `
	START TRANSACTION;
	SELECT d_next_o_id INTO v_next FROM tpcc_district WHERE d_w_id = p_w AND d_id = p_d;
	SELECT COUNT(DISTINCT s.s_i_id) INTO v_low FROM tpcc_order_line ol JOIN tpcc_stock s
			ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id
		WHERE ol.ol_w_id = p_w AND ol.ol_d_id = p_d AND ol.ol_o_id >= v_next - 20 AND ol.ol_o_id < v_next
			AND s.s_quantity < p_threshold;
	COMMIT;
	SELECT v_low;
END`},
}

// createRoutines (re)creates the five transactions' routines on the
// server, for ModeProcedures.
func createRoutines(ctx context.Context, db *sql.DB, d *dialect) error {
	if d.name == "postgres" {
		for _, r := range pgRoutines {
			if _, err := db.ExecContext(ctx, r); err != nil {
				return fmt.Errorf("create function %s: %w", strings.Fields(r)[4], err)
			}
		}
		return nil
	}
	for _, r := range mysqlRoutines {
		if _, err := db.ExecContext(ctx, "DROP PROCEDURE IF EXISTS "+r[0]); err != nil {
			return fmt.Errorf("drop procedure %s: %w", r[0], err)
		}
		if _, err := db.ExecContext(ctx, r[1]); err != nil {
			return fmt.Errorf("create procedure %s: %w", r[0], err)
		}
	}
	return nil
}

// call is one transaction in procedures mode.
type call struct {
	t   *terminal
	ctx context.Context
	pg  *pgx.Conn // PostgreSQL; nil on MySQL
}

// runProcedure runs transaction tx as one call of its routine.
func (t *terminal) runProcedure(ctx context.Context, tx Tx) error {
	if t.d.name != "postgres" {
		return tx.run(&call{t: t, ctx: ctx})
	}
	return t.conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("tpcc: procedures mode needs a pgx connection, not %T", dc)
		}
		return tx.run(&call{t: t, ctx: ctx, pg: sc.Conn()})
	})
}

// rows calls routine name with args and hands each row of its answer to
// each (nil: the answer is not read), in one round trip.
func (c *call) rows(name string, args []any, each func(scanner) error) error {
	c.t.roundTrips++
	if c.pg != nil {
		q := "SELECT * FROM " + name + "(" + placeholders(len(args), "?") + ")"
		rows, err := c.pg.Query(c.ctx, c.t.traced(q, args), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		return eachRow(rows, each)
	}
	q := "CALL " + name + "(" + placeholders(len(args), "?") + ")"
	rows, err := c.t.conn.QueryContext(c.ctx, c.t.traced(q, args), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if err := eachRow(rows, each); err != nil {
		return err
	}
	return rows.Close() // reads the CALL's closing status, which carries a later error
}

// eachRow hands every row of rows to each, pgx's rows or database/sql's
// alike, and returns the first error: each's or the iteration's.
func eachRow(rows interface {
	scanner
	Next() bool
	Err() error
}, each func(scanner) error) error {
	for rows.Next() {
		if err := each(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// one calls routine name and scans its one row into dest.
func (c *call) one(name string, args []any, dest ...any) error {
	n := 0
	err := c.rows(name, args, func(s scanner) error { n++; return s.Scan(dest...) })
	if err == nil && n != 1 {
		err = fmt.Errorf("%s returned %d rows, want 1", name, n)
	}
	return err
}

// list joins ints with commas: the MySQL procedures' array parameters.
func list(n []int32) string {
	s := make([]string, len(n))
	for i, v := range n {
		s[i] = strconv.Itoa(int(v))
	}
	return strings.Join(s, ",")
}

func (c *call) newOrder() error {
	t := c.t
	in := t.newOrderInput()
	n := len(in.lines)
	number, item, supply, quantity := make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n)
	for i, l := range in.lines {
		number[i], item[i], supply[i], quantity[i] = int32(l.number), int32(l.item), int32(l.supply), int32(l.quantity)
	}
	var orderID, rolledBack int
	var err error
	if c.pg != nil {
		err = c.one("tpcc_tx_new_order", []any{t.w, in.d, in.c, number, item, supply, quantity, in.allLocal, t.now()}, &orderID)
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == rollbackState {
			return errRollback
		}
	} else {
		err = c.one("tpcc_tx_new_order", []any{t.w, in.d, in.c, n, list(number), list(item), list(supply), list(quantity),
			in.allLocal, t.now()}, &orderID, &rolledBack)
	}
	if err != nil {
		return fmt.Errorf("new-order: %w", err)
	}
	if rolledBack == 1 {
		return errRollback
	}
	return nil
}

// customerArgs are a customer key as the routines take it: an id, or a
// last name (the id then 0).
func customerArgs(k customerKey) (id int, last any) {
	if k.last != "" {
		return 0, k.last
	}
	return k.id, nil
}

func (c *call) payment() error {
	t := c.t
	in := t.paymentInput()
	id, last := customerArgs(in.customer)
	var customer int
	if err := c.one("tpcc_tx_payment", []any{t.w, in.d, in.cw, in.cd, id, last, cents(in.amount), t.now()}, &customer); err != nil {
		return fmt.Errorf("payment: warehouse %d district %d, customer of warehouse %d district %d: %w", t.w, in.d, in.cw, in.cd, err)
	}
	return nil
}

func (c *call) orderStatus() error {
	t := c.t
	d := t.g.intn(1, districtsPerW)
	id, last := customerArgs(t.g.customerKey())
	n := 0
	err := c.rows("tpcc_tx_order_status", []any{t.w, d, id, last}, func(s scanner) error {
		var item, supply, quantity int
		var amount string
		var delivered sql.NullTime
		n++
		return s.Scan(&item, &supply, &quantity, &amount, &delivered)
	})
	if err != nil {
		return fmt.Errorf("order-status: warehouse %d district %d: %w", t.w, d, err)
	}
	if n == 0 {
		return fmt.Errorf("order-status: the latest order in warehouse %d district %d has no lines", t.w, d)
	}
	return nil
}

func (c *call) delivery() error {
	t := c.t
	carrier := t.g.intn(1, 10)
	var skipped int
	if err := c.one("tpcc_tx_delivery", []any{t.w, carrier, t.now()}, &skipped); err != nil {
		return fmt.Errorf("delivery: warehouse %d: %w", t.w, err)
	}
	t.deliverySkipped += int64(skipped) // clause 2.7.4.2: the district is skipped
	return nil
}

func (c *call) stockLevel() error {
	t := c.t
	threshold := t.g.intn(10, 20)
	var low int
	if err := c.one("tpcc_tx_stock_level", []any{t.w, t.district, threshold}, &low); err != nil {
		return fmt.Errorf("stock-level: warehouse %d district %d: %w", t.w, t.district, err)
	}
	return nil
}
