package tpcc

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"
)

var (
	primaryKey = regexp.MustCompile(`PRIMARY KEY \([^)]*\)`)
	inlineKey  = regexp.MustCompile(`,\s*PRIMARY KEY \([^)]*\)`)
)

// tables in the order they are created; dropped in reverse.
var tables = []string{"tpcc_meta", "tpcc_item", "tpcc_warehouse", "tpcc_district", "tpcc_customer",
	"tpcc_history", "tpcc_orders", "tpcc_new_order", "tpcc_order_line", "tpcc_stock"}

// ddl are the CREATE statements of clause 1.3, with {ts} for the dialect's
// timestamp type. Column types follow the specification's field
// definitions; money is DECIMAL so the consistency conditions hold exactly.
var ddl = []string{
	`CREATE TABLE tpcc_meta (k VARCHAR(32) NOT NULL, v VARCHAR(64) NOT NULL, PRIMARY KEY (k))`,
	`CREATE TABLE tpcc_item (i_id INT NOT NULL, i_im_id INT NOT NULL, i_name VARCHAR(24) NOT NULL,
		i_price DECIMAL(5,2) NOT NULL, i_data VARCHAR(50) NOT NULL, PRIMARY KEY (i_id))`,
	`CREATE TABLE tpcc_warehouse (w_id INT NOT NULL, w_name VARCHAR(10) NOT NULL, w_street_1 VARCHAR(20) NOT NULL,
		w_street_2 VARCHAR(20) NOT NULL, w_city VARCHAR(20) NOT NULL, w_state CHAR(2) NOT NULL, w_zip CHAR(9) NOT NULL,
		w_tax DECIMAL(4,4) NOT NULL, w_ytd DECIMAL(12,2) NOT NULL, PRIMARY KEY (w_id))`,
	`CREATE TABLE tpcc_district (d_id INT NOT NULL, d_w_id INT NOT NULL, d_name VARCHAR(10) NOT NULL,
		d_street_1 VARCHAR(20) NOT NULL, d_street_2 VARCHAR(20) NOT NULL, d_city VARCHAR(20) NOT NULL,
		d_state CHAR(2) NOT NULL, d_zip CHAR(9) NOT NULL, d_tax DECIMAL(4,4) NOT NULL, d_ytd DECIMAL(12,2) NOT NULL,
		d_next_o_id INT NOT NULL, PRIMARY KEY (d_w_id, d_id))`,
	`CREATE TABLE tpcc_customer (c_id INT NOT NULL, c_d_id INT NOT NULL, c_w_id INT NOT NULL,
		c_first VARCHAR(16) NOT NULL, c_middle CHAR(2) NOT NULL, c_last VARCHAR(16) NOT NULL,
		c_street_1 VARCHAR(20) NOT NULL, c_street_2 VARCHAR(20) NOT NULL, c_city VARCHAR(20) NOT NULL,
		c_state CHAR(2) NOT NULL, c_zip CHAR(9) NOT NULL, c_phone CHAR(16) NOT NULL, c_since {ts} NOT NULL,
		c_credit CHAR(2) NOT NULL, c_credit_lim DECIMAL(12,2) NOT NULL, c_discount DECIMAL(4,4) NOT NULL,
		c_balance DECIMAL(12,2) NOT NULL, c_ytd_payment DECIMAL(12,2) NOT NULL, c_payment_cnt INT NOT NULL,
		c_delivery_cnt INT NOT NULL, c_data VARCHAR(500) NOT NULL, PRIMARY KEY (c_w_id, c_d_id, c_id))`,
	`CREATE INDEX tpcc_customer_name ON tpcc_customer (c_w_id, c_d_id, c_last, c_first)`,
	`CREATE TABLE tpcc_history (h_c_id INT NOT NULL, h_c_d_id INT NOT NULL, h_c_w_id INT NOT NULL,
		h_d_id INT NOT NULL, h_w_id INT NOT NULL, h_date {ts} NOT NULL, h_amount DECIMAL(6,2) NOT NULL,
		h_data VARCHAR(24) NOT NULL)`,
	`CREATE TABLE tpcc_orders (o_id INT NOT NULL, o_d_id INT NOT NULL, o_w_id INT NOT NULL, o_c_id INT NOT NULL,
		o_entry_d {ts} NOT NULL, o_carrier_id INT NULL, o_ol_cnt INT NOT NULL, o_all_local INT NOT NULL,
		PRIMARY KEY (o_w_id, o_d_id, o_id))`,
	`CREATE INDEX tpcc_orders_customer ON tpcc_orders (o_w_id, o_d_id, o_c_id, o_id)`,
	`CREATE TABLE tpcc_new_order (no_o_id INT NOT NULL, no_d_id INT NOT NULL, no_w_id INT NOT NULL,
		PRIMARY KEY (no_w_id, no_d_id, no_o_id))`,
	`CREATE TABLE tpcc_order_line (ol_o_id INT NOT NULL, ol_d_id INT NOT NULL, ol_w_id INT NOT NULL,
		ol_number INT NOT NULL, ol_i_id INT NOT NULL, ol_supply_w_id INT NOT NULL, ol_delivery_d {ts} NULL,
		ol_quantity INT NOT NULL, ol_amount DECIMAL(6,2) NOT NULL, ol_dist_info CHAR(24) NOT NULL,
		PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))`,
	`CREATE TABLE tpcc_stock (s_i_id INT NOT NULL, s_w_id INT NOT NULL, s_quantity INT NOT NULL,
		s_dist_01 CHAR(24) NOT NULL, s_dist_02 CHAR(24) NOT NULL, s_dist_03 CHAR(24) NOT NULL,
		s_dist_04 CHAR(24) NOT NULL, s_dist_05 CHAR(24) NOT NULL, s_dist_06 CHAR(24) NOT NULL,
		s_dist_07 CHAR(24) NOT NULL, s_dist_08 CHAR(24) NOT NULL, s_dist_09 CHAR(24) NOT NULL,
		s_dist_10 CHAR(24) NOT NULL, s_ytd INT NOT NULL, s_order_cnt INT NOT NULL, s_remote_cnt INT NOT NULL,
		s_data VARCHAR(50) NOT NULL, PRIMARY KEY (s_w_id, s_i_id))`,
}

// createTables drops the TPC-C tables and creates them again, as UNLOGGED
// and in a tablespace when asked (PostgreSQL only). On PostgreSQL it
// returns the primary keys and indexes apart, for createIndexes to build
// once the rows are in: one sort per index is faster than keeping every
// index up to date row by row. InnoDB keeps its rows in the primary key's
// order, so on MySQL every key is created with its table.
func createTables(ctx context.Context, db *sql.DB, d *dialect, cfg *Config) (indexes []string, err error) {
	if (cfg.Unlogged || cfg.Tablespace != "") && d.name != "postgres" {
		return nil, fmt.Errorf("TPCC_TABLES = unlogged and TPCC_TABLESPACE are PostgreSQL features; %s has neither", d.name)
	}
	if err := dropTables(ctx, db); err != nil {
		return nil, err
	}
	creates, indexes := tableDDL(d, cfg)
	for _, stmt := range creates {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			return nil, fmt.Errorf("create %s: %w", strings.Fields(stmt)[2], err)
		}
	}
	return indexes, nil
}

// tableDDL are createTables' statements: those that create the tables, and
// those to run after the load.
func tableDDL(d *dialect, cfg *Config) (creates, indexes []string) {
	space := ""
	if cfg.Tablespace != "" {
		space = " TABLESPACE " + quoteIdent(cfg.Tablespace)
	}
	for _, stmt := range ddl {
		stmt = strings.ReplaceAll(stmt, "{ts}", d.timestamp)
		if cfg.Unlogged {
			stmt = strings.Replace(stmt, "CREATE TABLE", "CREATE UNLOGGED TABLE", 1)
		}
		if d.name == "postgres" {
			if strings.HasPrefix(stmt, "CREATE INDEX") {
				indexes = append(indexes, stmt+space)
				continue
			}
			if key := primaryKey.FindString(stmt); key != "" && !strings.Contains(stmt, "tpcc_meta") {
				table := strings.Fields(stmt)[2]
				if cfg.Unlogged {
					table = strings.Fields(stmt)[3]
				}
				// The primary key's index goes where the table goes, too.
				indexes = append(indexes, "ALTER TABLE "+table+" ADD "+key+strings.Replace(space, " TABLESPACE", " USING INDEX TABLESPACE", 1))
				stmt = inlineKey.ReplaceAllString(stmt, "")
			}
		}
		if space != "" {
			stmt = primaryKey.ReplaceAllString(stmt, "$0 USING INDEX"+space) + space
		}
		creates = append(creates, stmt)
	}
	return creates, indexes
}

// createIndexes runs the statements createTables set apart, each on its
// own connection, up to workers at once.
func createIndexes(ctx context.Context, db *sql.DB, stmts []string, workers int) error {
	return inParallel(ctx, len(stmts), workers, func(ctx context.Context, i int) error {
		if _, err := db.ExecContext(ctx, stmts[i]); err != nil {
			return fmt.Errorf("%s: %w", stmts[i], err)
		}
		return nil
	})
}

func dropTables(ctx context.Context, db *sql.DB) error {
	for i := len(tables) - 1; i >= 0; i-- {
		if _, err := db.ExecContext(ctx, "DROP TABLE IF EXISTS "+tables[i]); err != nil {
			return fmt.Errorf("drop %s: %w", tables[i], err)
		}
	}
	return nil
}

// quoteIdent quotes a PostgreSQL identifier (a tablespace name from the
// configuration).
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
