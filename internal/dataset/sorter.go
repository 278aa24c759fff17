package dataset

import (
	"bufio"
	"cmp"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// sortBytes bounds the memory the sort of an import's records takes: past
// it, the records gathered are sorted and written to a run file in the
// dataset's directory, and the runs are merged at the end. The memory is
// then sortBytes plus a read buffer (runBuffer) and one record per run;
// a file of F bytes makes about F/sortBytes runs (2 GB: about 60 runs,
// 4 MB of buffers).
//
// sortBytes is a variable so that tests can force the merge.
var sortBytes = 32 << 20

const (
	runBuffer = 64 << 10
	// recordOverhead is what a record costs in memory beyond its text.
	recordOverhead = 96
)

// sortRecord is a CSV record on its way to the table: its key (device,
// rank, time, then where it stands in the input, so that equal keys keep
// their input order) and its values.
type sortRecord struct {
	device string
	rank   int // 0, or how many earlier rows had the device and time
	time   int64
	cut    bool // the time had a part below a millisecond
	file   int
	line   int64
	sensor int      // a long file's point: the sensor's position; a row: -1
	values []string // a row: every sensor's value, in the dataset's order; a point: its value
}

func compareRecords(a, b *sortRecord) int {
	return cmp.Or(strings.Compare(a.device, b.device), cmp.Compare(a.rank, b.rank), cmp.Compare(a.time, b.time),
		cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line))
}

func (r *sortRecord) size() int {
	n := recordOverhead + len(r.device)
	for _, v := range r.values {
		n += 16 + len(v)
	}
	return n
}

// rowSorter sorts records by device, time and input position with
// bounded memory: an external merge sort.
type rowSorter struct {
	dir   string // where run files go ("" until the first)
	in    string // the directory the run directory is made in
	buf   []sortRecord
	bytes int
	runs  []string
}

func newRowSorter(in string) *rowSorter { return &rowSorter{in: in} }

func (s *rowSorter) add(r sortRecord) error {
	s.buf = append(s.buf, r)
	s.bytes += r.size()
	if s.bytes >= sortBytes {
		return s.spill()
	}
	return nil
}

// spill sorts the gathered records into a new run file.
func (s *rowSorter) spill() error {
	if s.dir == "" {
		dir, err := os.MkdirTemp(s.in, ".sort-")
		if err != nil {
			return fmt.Errorf("sort: %w", err)
		}
		s.dir = dir
	}
	slices.SortFunc(s.buf, func(a, b sortRecord) int { return compareRecords(&a, &b) })
	name := filepath.Join(s.dir, fmt.Sprintf("run-%d", len(s.runs)))
	if err := writeRun(name, s.buf); err != nil {
		return err
	}
	s.runs = append(s.runs, name)
	s.buf, s.bytes = s.buf[:0], 0
	return nil
}

func writeRun(name string, recs []sortRecord) error {
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("sort: %w", err)
	}
	w := bufio.NewWriterSize(f, runBuffer)
	var b []byte
	for i := range recs {
		b = encodeRecord(b[:0], &recs[i])
		if _, err := w.Write(b); err != nil {
			f.Close()
			return fmt.Errorf("sort: %s: %w", name, err)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("sort: %s: %w", name, err)
	}
	return f.Close()
}

// each calls fn with every record in order, then removes the run files.
func (s *rowSorter) each(fn func(*sortRecord) error) error {
	defer s.cleanup()
	if len(s.runs) == 0 {
		slices.SortFunc(s.buf, func(a, b sortRecord) int { return compareRecords(&a, &b) })
		for i := range s.buf {
			if err := fn(&s.buf[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if len(s.buf) > 0 {
		if err := s.spill(); err != nil {
			return err
		}
	}
	s.buf = nil
	return mergeRuns(s.runs, fn)
}

func (s *rowSorter) cleanup() {
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}

// runReader reads one run file's records in turn.
type runReader struct {
	f   *os.File
	r   *bufio.Reader
	cur sortRecord
}

// runHeap orders the runs by their current records.
type runHeap []*runReader

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return compareRecords(&h[i].cur, &h[j].cur) < 0 }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// mergeRuns merges sorted run files, holding one record of each.
func mergeRuns(runs []string, fn func(*sortRecord) error) error {
	h := runHeap{}
	defer func() {
		for _, r := range h {
			r.f.Close()
		}
	}()
	for _, name := range runs {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("sort: %w", err)
		}
		r := &runReader{f: f, r: bufio.NewReaderSize(f, runBuffer)}
		if err := decodeRecord(r.r, &r.cur); err != nil {
			f.Close()
			return fmt.Errorf("sort: %s: %w", name, err) // a run holds a record at least
		}
		h = append(h, r)
	}
	heap.Init(&h)
	for len(h) > 0 {
		r := h[0]
		if err := fn(&r.cur); err != nil {
			return err
		}
		r.cur = sortRecord{} // fn may keep nothing of it: decoding makes new strings
		err := decodeRecord(r.r, &r.cur)
		switch {
		case errors.Is(err, io.EOF):
			r.f.Close()
			heap.Pop(&h)
		case err != nil:
			return fmt.Errorf("sort: %s: %w", r.f.Name(), err)
		default:
			heap.Fix(&h, 0)
		}
	}
	return nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// encodeRecord appends r: device, rank, time, cut, file, line, sensor, values.
func encodeRecord(b []byte, r *sortRecord) []byte {
	b = appendString(b, r.device)
	b = binary.AppendUvarint(b, uint64(r.rank))
	b = binary.AppendVarint(b, r.time)
	cut := byte(0)
	if r.cut {
		cut = 1
	}
	b = append(b, cut)
	b = binary.AppendUvarint(b, uint64(r.file))
	b = binary.AppendVarint(b, r.line)
	b = binary.AppendVarint(b, int64(r.sensor))
	b = binary.AppendUvarint(b, uint64(len(r.values)))
	for _, v := range r.values {
		b = appendString(b, v)
	}
	return b
}

// decodeRecord reads a record; io.EOF when the run has no more.
func decodeRecord(rd *bufio.Reader, r *sortRecord) error {
	if _, err := rd.Peek(1); err != nil {
		return err
	}
	var err error
	num := func() uint64 {
		var v uint64
		if err == nil {
			v, err = binary.ReadUvarint(rd)
		}
		return v
	}
	snum := func() int64 {
		var v int64
		if err == nil {
			v, err = binary.ReadVarint(rd)
		}
		return v
	}
	str := func() string {
		n := num()
		if err != nil {
			return ""
		}
		b := make([]byte, n)
		_, err = io.ReadFull(rd, b)
		return string(b)
	}
	r.device = str()
	r.rank = int(num())
	r.time = snum()
	var cut byte
	if err == nil {
		cut, err = rd.ReadByte()
	}
	r.cut = cut == 1
	r.file, r.line, r.sensor = int(num()), snum(), int(snum())
	// The values are read into one buffer and made one string, sliced:
	// one allocation a record.
	n := num()
	if err == nil && n > 1<<24 {
		err = fmt.Errorf("a record of %d values", n)
	}
	var lens [16]int
	ls := lens[:0]
	var buf []byte
	for i := uint64(0); i < n && err == nil; i++ {
		l := num()
		if err != nil {
			break
		}
		start := len(buf)
		buf = append(buf, make([]byte, l)...)
		_, err = io.ReadFull(rd, buf[start:])
		ls = append(ls, int(l))
	}
	if err == nil {
		all := string(buf)
		r.values = make([]string, len(ls))
		for i, l := range ls {
			r.values[i], all = all[:l], all[l:]
		}
	}
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF // a record cut short
	}
	return err
}
