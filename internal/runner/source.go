package runner

import (
	"github.com/tsbench/tsbench/internal/dataset"
	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/ts"
)

// source makes the batches the clients write: the generator's, or the rows
// of a replayed dataset. Each client gets its own filler (its cursor).
type source interface {
	newBatch() *ts.Batch
	newFiller() filler
}

// filler fills batch n of a device.
type filler interface {
	fill(b *ts.Batch, dev *ts.Device, n int64) error
}

type genSource struct{ g *gen.Generator }

func (s genSource) newBatch() *ts.Batch { return s.g.NewBatch() }
func (s genSource) newFiller() filler   { return &genFiller{g: s.g, cur: gen.NewCursor()} }

type genFiller struct {
	g   *gen.Generator
	cur *gen.Cursor
}

func (f *genFiller) fill(b *ts.Batch, dev *ts.Device, n int64) error {
	f.g.Fill(b, dev, n, f.cur)
	return nil
}

// dataSource replays a dataset in batches of rows rows; with repeat, a
// device past its last row starts again (dataset.Reader).
type dataSource struct {
	ds     *dataset.Dataset
	rows   int
	repeat bool
}

func (s dataSource) newBatch() *ts.Batch { return s.ds.NewBatch(s.rows) }
func (s dataSource) newFiller() filler   { return readerFiller{s.ds.NewReader(s.rows, s.repeat)} }

type readerFiller struct{ r *dataset.Reader }

func (f readerFiller) fill(b *ts.Batch, dev *ts.Device, n int64) error { return f.r.Fill(b, dev, n) }
