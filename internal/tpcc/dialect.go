package tpcc

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/tsbench/tsbench/internal/dollarparams"
)

// dialect is what differs between the SQL servers TPC-C runs on.
type dialect struct {
	name      string
	timestamp string // column type of a date and time
	// bulk inserts rows into a table for the loader.
	bulk func(ctx context.Context, db *sql.DB, table string, cols []string, rows [][]any) error
}

func dialectOf(name string) (*dialect, error) {
	switch name {
	case "postgres":
		return &dialect{name: name, timestamp: "TIMESTAMP", bulk: copyRows}, nil
	case "mysql":
		return &dialect{name: name, timestamp: "DATETIME(6)", bulk: insertRows}, nil
	}
	return nil, fmt.Errorf("tpcc: no SQL dialect %q (postgres, mysql)", name)
}

// rebind turns the statement's ? placeholders into PostgreSQL's $1, $2, ...
// Statements here never contain a literal question mark.
func (d *dialect) rebind(q string) string {
	if d.name != "postgres" {
		return q
	}
	return dollarparams.Number(q)
}

// copyRows loads rows with PostgreSQL's COPY, through the pgx connection
// under database/sql.
func copyRows(ctx context.Context, db *sql.DB, table string, cols []string, rows [][]any) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		pc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("tpcc: not a pgx connection: %T", dc)
		}
		_, err := pc.Conn().CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromRows(rows))
		return err
	})
}

// insertRows loads rows with multi-row INSERTs of at most 500 rows.
func insertRows(ctx context.Context, db *sql.DB, table string, cols []string, rows [][]any) error {
	const per = 500
	one := "(" + strings.TrimSuffix(strings.Repeat("?,", len(cols)), ",") + ")"
	for len(rows) > 0 {
		n := min(per, len(rows))
		q := "INSERT INTO " + table + " (" + strings.Join(cols, ",") + ") VALUES " +
			strings.TrimSuffix(strings.Repeat(one+",", n), ",")
		args := make([]any, 0, n*len(cols))
		for _, r := range rows[:n] {
			args = append(args, r...)
		}
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}
