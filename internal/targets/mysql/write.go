package mysql

import (
	"bytes"
	"context"
	"io"

	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
	"github.com/tsbench/tsbench/internal/ts"
)

// Write stores a batch through the configured write path.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	t.Mu.Lock()
	defer t.Mu.Unlock()
	base, err := t.SeriesBase(b)
	switch {
	case err != nil:
		return err
	case t.writePath == "load":
		err = t.loadData(ctx, b, base)
	default:
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

// insert writes the batch with the multi-row upsert of Dialect, prepared
// once per statement size.
func (t *Target) insert(ctx context.Context, b *ts.Batch, base int64) error {
	in := &t.ins
	if err := in.Begin(ctx, t.db, int(b.Points())); err != nil {
		return err
	}
	defer in.Rollback()
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
			in.Args = append(in.Args, id, tm, v, s)
			if in.Full() {
				if err := in.Flush(ctx); err != nil {
					return err
				}
			}
		}
	}
	return in.Commit(ctx)
}

// loadBuffer is the in-memory file LOAD DATA LOCAL INFILE reads.
type loadBuffer struct {
	buf bytes.Buffer
}

func (l *loadBuffer) reader() io.Reader { return bytes.NewReader(l.buf.Bytes()) }

// loadData streams the batch as tab-separated lines (\N for NULL); REPLACE
// makes a rewritten point replace the stored one.
func (t *Target) loadData(ctx context.Context, b *ts.Batch, base int64) error {
	t.load.buf.Reset()
	sqlfamily.AppendTSV(&t.load.buf, base, b)
	_, err := t.db.ExecContext(ctx, "LOAD DATA LOCAL INFILE 'Reader::"+t.reader+"' REPLACE INTO TABLE points (series, t, v, s)")
	return err
}
