package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// spans are the acknowledged batches of one device, as runs [from, to) of
// batch numbers: a failed write leaves a gap, and in-order writes make
// one run otherwise.
type spans [][2]int64

func (s *spans) add(n int64) {
	if k := len(*s); k > 0 && (*s)[k-1][1] == n {
		(*s)[k-1][1] = n + 1
		return
	}
	*s = append(*s, [2]int64{n, n + 1})
}

// maxLossCounts bounds the counts a loss map asks of the server.
const maxLossCounts = 2000

// lossMapper finds where acknowledged points are missing: it counts each
// run of acknowledged rows of each device and halves the runs that come
// short, down to single rows.
type lossMapper struct {
	admin   targets.Target
	sensors int64
	time    func(row int64) int64
	counts  int
	loss    *summary.Loss
}

// mapLoss fills v.Lost when the count came short of what was acknowledged
// and the rows' times are known: generated data written in time order,
// with nothing written before the run (PriorRows) and every device on one
// host.
func (r *Runner) mapLoss(ctx context.Context, admin targets.Target, clients []*client, v *summary.Verify) {
	g, ok := r.src.(genSource)
	if v.Error != "" || v.Skipped != "" || v.StoredPoints >= v.ExpectedPoints {
		return
	}
	if !ok || r.cfg.OutOfOrder || r.PriorRows > 0 || r.separateHosts() {
		return // times not known row by row here: the count says how many, not where
	}
	m := &lossMapper{admin: admin, sensors: int64(len(r.schema.Sensors)), time: g.g.Time, loss: &summary.Loss{}}
	batch := int64(r.cfg.BatchSize)
	for _, c := range clients {
		for i := range c.devices {
			for _, sp := range c.acked[i] {
				if err := m.search(ctx, &c.devices[i], sp[0]*batch, sp[1]*batch); err != nil {
					m.loss.Note = err.Error()
				}
			}
		}
	}
	if short := v.ExpectedPoints - v.StoredPoints; short > m.loss.Points {
		m.loss.Unresolved = short - m.loss.Points
	}
	v.Lost = m.loss
}

// search places the points missing from rows [lo, hi) of d.
func (m *lossMapper) search(ctx context.Context, d *ts.Device, lo, hi int64) error {
	if m.counts >= maxLossCounts {
		return fmt.Errorf("the map stopped after %d counts", maxLossCounts)
	}
	m.counts++
	n, err := m.admin.Count(ctx, ts.CountRange{Devices: []*ts.Device{d}, Start: m.time(lo), End: m.time(hi)})
	if err != nil {
		return fmt.Errorf("count %s rows %d..%d: %w", d.Name, lo, hi, err)
	}
	missing := (hi-lo)*m.sensors - n
	switch {
	case missing <= 0:
		return nil
	case n == 0 || hi-lo == 1:
		m.lost(d, lo, hi, missing)
		return nil
	}
	mid := lo + (hi-lo)/2
	return errors.Join(m.search(ctx, d, lo, mid), m.search(ctx, d, mid, hi))
}

// lost records missing points of rows [lo, hi), joined to the range
// before when it ends where this one starts.
func (m *lossMapper) lost(d *ts.Device, lo, hi, points int64) {
	m.loss.Points += points
	if k := len(m.loss.Ranges); k > 0 {
		last := &m.loss.Ranges[k-1]
		if last.Device == d.Name && last.ToRow == lo {
			last.ToRow, last.To, last.Points = hi, m.time(hi), last.Points+points
			return
		}
	}
	m.loss.Ranges = append(m.loss.Ranges, summary.LostRange{Device: d.Name, FromRow: lo, ToRow: hi,
		From: m.time(lo), To: m.time(hi), Points: points})
}
