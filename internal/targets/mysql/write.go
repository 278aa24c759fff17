package mysql

import (
	"bytes"
	"context"
	"database/sql"
	"io"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// Write stores a batch through the configured write path.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, pos, err := t.binding.DevicePos(b.Device)
	if err != nil {
		return err
	}
	base := s.SeriesID(pos, 0)
	if t.writePath == "load" {
		err = t.loadData(ctx, b, base)
	} else {
		err = t.insert(ctx, b, base)
	}
	if err != nil {
		return t.wrap("write batch", err)
	}
	return nil
}

// maxInsertRows keeps a statement well under the 65,535 placeholders and the
// default max_allowed_packet.
const maxInsertRows = 4000

func (t *Target) insert(ctx context.Context, b *ts.Batch, base int64) error {
	// Prepare before the transaction: the pool has one connection, and
	// preparing outside a transaction that holds it would wait forever.
	total := int(b.Points())
	for _, n := range []int{min(total, maxInsertRows), total % maxInsertRows} {
		if n > 0 {
			if _, err := t.stmt(ctx, n); err != nil {
				return err
			}
		}
	}
	tx, err := t.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck
	t.args = t.args[:0]
	flush := func() error {
		n := len(t.args) / 4
		if n == 0 {
			return nil
		}
		st, err := t.stmt(ctx, n)
		if err != nil {
			return err
		}
		_, err = tx.StmtContext(ctx, st).ExecContext(ctx, t.args...)
		t.args = t.args[:0]
		return err
	}
	sparse := b.Nulls > 0
	for sn := range b.Columns {
		c := &b.Columns[sn]
		id := base + int64(sn)
		for i, tm := range b.Times {
			if sparse && !c.Present(i) {
				continue // an empty cell is no point: no row
			}
			var v, s any
			if c.Type == ts.Text {
				s = c.Texts[i]
			} else {
				v, _ = c.Number(i)
			}
			t.args = append(t.args, id, tm, v, s)
			if len(t.args) == 4*maxInsertRows {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	return tx.Commit()
}

// stmt returns the prepared INSERT for n rows, preparing it on first use.
func (t *Target) stmt(ctx context.Context, n int) (*sql.Stmt, error) {
	if st, ok := t.stmts[n]; ok {
		return st, nil
	}
	st, err := t.db.PrepareContext(ctx, insertSQL(n))
	if err != nil {
		return nil, err
	}
	t.stmts[n] = st
	return st, nil
}

func insertSQL(n int) string {
	var sb strings.Builder
	sb.WriteString("INSERT INTO points (series, t, v, s) VALUES ")
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString("(?,?,?,?)")
	}
	sb.WriteString(" ON DUPLICATE KEY UPDATE v = VALUES(v), s = VALUES(s)")
	return sb.String()
}

// loadBuffer is the in-memory file LOAD DATA LOCAL INFILE reads.
type loadBuffer struct {
	buf bytes.Buffer
}

func (l *loadBuffer) reader() io.Reader { return bytes.NewReader(l.buf.Bytes()) }

// loadData streams the batch as tab-separated lines (\N for NULL); REPLACE
// makes a rewritten point replace the stored one.
func (t *Target) loadData(ctx context.Context, b *ts.Batch, base int64) error {
	l := &t.load.buf
	l.Reset()
	var num, idBuf [32]byte
	sparse := b.Nulls > 0
	for sn := range b.Columns {
		c := &b.Columns[sn]
		id := strconv.AppendInt(idBuf[:0], base+int64(sn), 10)
		for i, tm := range b.Times {
			if sparse && !c.Present(i) {
				continue // an empty cell is no point: no line
			}
			l.Write(id)
			l.WriteByte('\t')
			l.Write(strconv.AppendInt(num[:0], tm, 10))
			if c.Type == ts.Text {
				l.WriteString("\t\\N\t")
				writeEscaped(l, c.Texts[i])
			} else {
				v, _ := c.Number(i)
				l.WriteByte('\t')
				l.Write(strconv.AppendFloat(num[:0], v, 'g', -1, 64))
				l.WriteString("\t\\N")
			}
			l.WriteByte('\n')
		}
	}
	_, err := t.db.ExecContext(ctx, "LOAD DATA LOCAL INFILE 'Reader::"+t.reader+"' REPLACE INTO TABLE points (series, t, v, s)")
	return err
}

// writeEscaped escapes the characters LOAD DATA's default format treats
// specially: backslash, tab and newline.
func writeEscaped(b *bytes.Buffer, s string) {
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
