package null

import (
	"sync"
	"time"

	"github.com/tsbench/tsbench/internal/ts"
)

// newest keeps, for the option visible_after, the points of each series
// that are not yet visible and the newest one that is. It is shared by
// every connection to one database of the process, as a server's data is
// shared by its clients.
type newest struct {
	mu     sync.Mutex
	series map[seriesKey]*pending
}

type seriesKey struct {
	device string
	sensor int
}

// pending is one series: its newest visible point, and later ones
// waiting for their time, oldest first.
type pending struct {
	shown   keptPoint
	waiting []keptPoint
}

type keptPoint struct {
	at    time.Time // when it becomes visible
	time  int64
	value float64
	set   bool
}

var (
	databasesMu sync.Mutex
	databases   = map[string]*newest{}
)

// newestOf is the store of database db.
func newestOf(db string) *newest {
	databasesMu.Lock()
	defer databasesMu.Unlock()
	n := databases[db]
	if n == nil {
		n = &newest{series: map[seriesKey]*pending{}}
		databases[db] = n
	}
	return n
}

// reset forgets every point (Setup with reset).
func (n *newest) reset() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.series = map[seriesKey]*pending{}
}

// keep records b's points, each visible from at.
func (n *newest) keep(b *ts.Batch, at time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for sn := range b.Columns {
		k := seriesKey{b.Device.Name, sn}
		p := n.series[k]
		if p == nil {
			p = &pending{}
			n.series[k] = p
		}
		for i, t := range b.Times {
			if v, ok := b.Columns[sn].Number(i); ok && b.Columns[sn].Present(i) {
				p.waiting = append(p.waiting, keptPoint{at: at, time: t, value: v, set: true})
			}
		}
	}
}

// latest answers a latest-point query at now: per series the point with
// the greatest time among those visible.
func (n *newest) latest(q *ts.Query, now time.Time) ts.Result {
	n.mu.Lock()
	defer n.mu.Unlock()
	var r ts.Result
	for _, d := range q.Devices {
		for _, sn := range q.Sensors {
			p := n.series[seriesKey{d.Name, sn}]
			if p == nil {
				continue
			}
			p.show(now)
			if p.shown.set {
				r.Add(p.shown.time, p.shown.value)
			}
		}
	}
	return r
}

// show moves the points whose time has come to the visible side.
func (p *pending) show(now time.Time) {
	i := 0
	for ; i < len(p.waiting) && !p.waiting[i].at.After(now); i++ {
		if !p.shown.set || p.waiting[i].time >= p.shown.time {
			p.shown = p.waiting[i]
		}
	}
	p.waiting = p.waiting[i:]
}
