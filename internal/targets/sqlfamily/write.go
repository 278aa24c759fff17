package sqlfamily

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// Values is head followed by rows groups of one placeholder per entry of
// casts (each followed by its cast), then tail: the multi-row INSERT.
func (d *Dialect) Values(head string, casts []string, rows int, tail string) string {
	var sb strings.Builder
	sb.Grow(len(head) + len(tail) + rows*(len(casts)*4+2))
	sb.WriteString(head)
	var num [20]byte
	p := 0
	for r := 0; r < rows; r++ {
		if r > 0 {
			sb.WriteByte(',')
		}
		sb.WriteByte('(')
		for c, cast := range casts {
			if c > 0 {
				sb.WriteByte(',')
			}
			p++
			if d.Placeholder == Dollar {
				sb.WriteByte('$')
				sb.Write(strconv.AppendInt(num[:0], int64(p), 10))
			} else {
				sb.WriteByte('?')
			}
			sb.WriteString(cast)
		}
		sb.WriteByte(')')
	}
	sb.WriteString(tail)
	return sb.String()
}

// InsertPoints is the upsert of rows points (Dialect.Insert, Row, Upsert).
func (d *Dialect) InsertPoints(rows int) string { return d.Values(d.Insert, d.Row, rows, d.Upsert) }

// Inserter writes points through prepared multi-row INSERT statements of a
// database/sql connection: PerStmt rows a statement, and a shorter one for
// the rest of a batch. A target appends each point's Row parameters to Args
// and calls Flush when Full.
type Inserter struct {
	D       *Dialect
	PerStmt int
	Args    []any

	full  *sql.Stmt         // PerStmt rows
	rem   map[int]*sql.Stmt // shorter statements by row count
	tx    *sql.Tx
	txFul *sql.Stmt // full bound to tx, made on first use
}

// maxRemainderStmts bounds the cache of statements for the last, shorter
// chunk of a batch. Workloads use one batch size, so one or two entries are
// the rule.
const maxRemainderStmts = 8

// Begin prepares the statements a batch of total points needs and starts
// its transaction. Preparing comes first: a pool of one connection, which
// the transaction holds until it ends, could not prepare inside it.
func (w *Inserter) Begin(ctx context.Context, db *sql.DB, total int) error {
	if w.full == nil && total >= w.PerStmt {
		st, err := db.PrepareContext(ctx, w.D.InsertPoints(w.PerStmt))
		if err != nil {
			return err
		}
		w.full = st
	}
	if r := total % w.PerStmt; r > 0 && w.rem[r] == nil {
		if w.rem == nil {
			w.rem = map[int]*sql.Stmt{}
		}
		if len(w.rem) >= maxRemainderStmts {
			w.closeRem()
		}
		st, err := db.PrepareContext(ctx, w.D.InsertPoints(r))
		if err != nil {
			return err
		}
		w.rem[r] = st
	}
	if cap(w.Args) < len(w.D.Row)*w.PerStmt {
		w.Args = make([]any, 0, len(w.D.Row)*w.PerStmt)
	}
	w.Args = w.Args[:0]
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	w.tx, w.txFul = tx, nil
	return nil
}

// Full tells whether Args holds a full statement's rows.
func (w *Inserter) Full() bool { return len(w.Args) == len(w.D.Row)*w.PerStmt }

// Flush executes the rows in Args.
func (w *Inserter) Flush(ctx context.Context) error {
	n := len(w.Args) / len(w.D.Row)
	if n == 0 {
		return nil
	}
	var st *sql.Stmt
	if n == w.PerStmt {
		if w.txFul == nil {
			w.txFul = w.tx.StmtContext(ctx, w.full)
		}
		st = w.txFul
	} else {
		rem := w.rem[n]
		if rem == nil { // Begin was told another number of points
			return fmt.Errorf("%s: %d rows left over, no statement prepared for them", w.D.Name, n)
		}
		st = w.tx.StmtContext(ctx, rem)
	}
	_, err := st.ExecContext(ctx, w.Args...)
	// Drop the references so that the boxed values can be collected.
	clear(w.Args)
	w.Args = w.Args[:0]
	return err
}

// Commit flushes the last rows and commits the batch.
func (w *Inserter) Commit(ctx context.Context) error {
	if err := w.Flush(ctx); err != nil {
		return err
	}
	err := w.tx.Commit()
	w.tx, w.txFul = nil, nil
	return err
}

// Rollback ends a batch that failed (a no-op after Commit).
func (w *Inserter) Rollback() {
	if w.tx != nil {
		w.tx.Rollback() //nolint:errcheck // the batch's error is the one to report
		w.tx, w.txFul = nil, nil
	}
	clear(w.Args)
	w.Args = w.Args[:0]
}

// Close releases the prepared statements.
func (w *Inserter) Close() {
	if w.full != nil {
		w.full.Close()
		w.full = nil
	}
	w.closeRem()
}

func (w *Inserter) closeRem() {
	for n, st := range w.rem {
		st.Close()
		delete(w.rem, n)
	}
}

// AppendTSV writes the tab-separated rows series, t, v, s of the points of
// b, whose first sensor is series base: v \N for TEXT, s \N for numbers,
// backslash, tab and newline escaped in text (the default format of MySQL's
// LOAD DATA and ClickHouse's TabSeparated). An empty cell is no point: no
// row.
func AppendTSV(buf *bytes.Buffer, base int64, b *ts.Batch) {
	var num, id [32]byte
	sparse := b.Nulls > 0
	for sn := range b.Columns {
		c := &b.Columns[sn]
		ids := strconv.AppendInt(id[:0], base+int64(sn), 10)
		for i, tm := range b.Times {
			if sparse && !c.Present(i) {
				continue
			}
			buf.Write(ids)
			buf.WriteByte('\t')
			buf.Write(strconv.AppendInt(num[:0], tm, 10))
			if c.Type == ts.Text {
				buf.WriteString("\t\\N\t")
				EscapeTSV(buf, c.Texts[i])
				buf.WriteByte('\n')
				continue
			}
			v, _ := c.Number(i)
			buf.WriteByte('\t')
			buf.Write(strconv.AppendFloat(num[:0], v, 'g', -1, 64))
			buf.WriteString("\t\\N\n")
		}
	}
}

// EscapeTSV writes s as a TabSeparated field: backslash, tab and newline
// escaped (the point rows here, ClickHouse's devices table).
func EscapeTSV(b *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			b.WriteString(`\\`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteByte(s[i])
		}
	}
}
