package promrun

import (
	"encoding/binary"
	"fmt"
	"hash"
	"hash/fnv"
	"math"

	"github.com/tsbench/tsbench/internal/promshape"
)

// An answer's digest is the same for the same answer on any store and in
// any run of the same shape, whenever it ran: its series' labels with the
// run's own job label blanked, its values bit for bit, and its times
// counted from the workload's start. Two runs on two stores agree when
// their queries' digests do (tsbench run --target a,b), independently of
// the model both are checked against.

// digestWriter hashes labels, times and values into one FNV-1a hash.
type digestWriter struct {
	h   hash.Hash64
	job string
	buf [8]byte
}

func newDigest(job string) *digestWriter { return &digestWriter{h: fnv.New64a(), job: job} }

func (d *digestWriter) word(v uint64) {
	binary.LittleEndian.PutUint64(d.buf[:], v)
	d.h.Write(d.buf[:]) //nolint:errcheck // a hash's Write never fails
}

func (d *digestWriter) str(s string) {
	d.word(uint64(len(s)))
	d.h.Write([]byte(s)) //nolint:errcheck
}

// series hashes a series' labels, the run's job label's value blanked.
func (d *digestWriter) series(s promshape.Series) {
	d.word(uint64(len(s.Labels)))
	for _, l := range s.Labels {
		v := l.Value
		if l.Name == "job" && v == d.job {
			v = ""
		}
		d.str(l.Name)
		d.str(v)
	}
	d.word(uint64(len(s.Points)))
	for _, p := range s.Points {
		d.word(uint64(p.T))
		d.word(math.Float64bits(p.V))
	}
}

// digestVector is an instant answer's digest at t, ms from the start.
func digestVector(v promshape.Vector, t int64, job string) uint64 {
	d := newDigest(job)
	d.word(uint64(len(v)))
	for _, s := range v {
		d.series(promshape.Series{Labels: s.Labels, Points: []promshape.Point{{T: t, V: s.Value}}})
	}
	return d.h.Sum64()
}

// digestMatrix is a range answer's digest, its times from start.
func digestMatrix(m promshape.Matrix, start int64, job string) uint64 {
	d := newDigest(job)
	d.word(uint64(len(m)))
	for _, s := range m {
		pts := make([]promshape.Point, len(s.Points))
		for i, p := range s.Points {
			pts[i] = promshape.Point{T: p.T - start, V: p.V}
		}
		d.series(promshape.Series{Labels: s.Labels, Points: pts})
	}
	return d.h.Sum64()
}

// combine is the digest of a query's answers in the plan's order.
func combine(digests []uint64) string {
	d := newDigest("")
	for _, x := range digests {
		d.word(x)
	}
	return fmt.Sprintf("%016x", d.h.Sum64())
}
