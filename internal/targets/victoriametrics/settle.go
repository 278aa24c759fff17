package victoriametrics

import (
	"bytes"
	"context"
	"fmt"
	"github.com/tsbench/tsbench/internal/targets/promql"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsbench/tsbench/internal/numfmt"
	"github.com/tsbench/tsbench/internal/targets/jsonenc"
)

// Why a flush is not enough (VictoriaMetrics 1.148; the index is one table
// per monthly partition there). Each partition's index keeps a cache from a
// query's series filters and days to the series they match, empty sets
// included. It is reset when the index takes new entries through a final
// flush (/internal/force_flush with entries pending), on a deletion, and
// otherwise every 10-11 s at most (mergeset's flush callback interval),
// while new entries become searchable after 1-2 s through the periodic
// flush, which does not reset it. The series of a run get their entries in
// the data's partition, and per day, with their first samples there (the
// registration at START_TIME - 1 ms lies in the day, often the month,
// before). So a query made in the second after the run wrote a series'
// first samples of a day caches "no series" for that day, and the periodic
// flush leaves the cache as it is: the query, asked again, answers no
// points for up to 11 s more, and a force_flush made after the periodic
// one finds nothing pending and resets nothing. That is why a 2 s mixed run
// answered every query with 0 points, and why the answer checks that
// follow it, made with the very parameters of the run's first client,
// found nothing for some ranges that verification (a rollup over the
// whole range, another cache key) counted in full.
//
// settle makes every written sample searchable and drops what the indexes
// cached before, for the answers that follow (Count settles first): it
// waits for the background settle (see written) to finish, then probes
// every month this process wrote data in (see probe), waiting up to
// settleWait for the server's own cache reset when the probes cannot prove
// one, and deletes the probes.
func (t *Target) settle(ctx context.Context) error {
	t.mu.Lock()
	s, err := t.binding.Schema()
	w := t.written
	t.mu.Unlock()
	if ferr := t.flush(ctx); ferr != nil || err != nil || w == nil {
		return ferr // Count says why it cannot count
	}
	if err := w.wait(ctx); err != nil {
		return err
	}
	defer t.deleteProbes(ctx)
	times := w.monthTimes()
	if len(times) == 0 {
		times = []int64{s.StartTime}
	}
	// Best effort: a server that takes no probe (a QUERY_URL that only
	// reads) is counted after the flush alone, and Count's own query
	// reports one that does not answer.
	t.probe(ctx, times, settleWait) //nolint:errcheck
	return nil
}

// probe flushes, and resets the series lookup cache of the partition of
// each of times (one per month) through a final flush: it writes a sample
// of a new probe series at each, after asking for the probe there (which
// caches "nothing" for it), then flushes: the probe's entries are pending,
// so the flush is final and resets that partition's cache. The probe
// answering proves the reset. When the periodic flush took the probe's
// entries first (no reset), it tries again with a new probe; after
// settleAttempts it polls the last probe until the server's own periodic
// reset, for up to wait (0: it stops there). The probes carry no gen
// label: no query or count of the data matches them.
func (t *Target) probe(ctx context.Context, times []int64, wait time.Duration) error {
	pending := slices.Clone(times)
	deadline := time.Now().Add(wait)
	sel := ""
	for attempt := 0; len(pending) > 0; attempt++ {
		if attempt < settleAttempts {
			probe := strconv.FormatInt(time.Now().UnixNano(), 10)
			sel = `tsbench_settle{db=` + promql.Quote(t.db) + `,probe="` + probe + `"}`
			for _, tm := range pending { // caches "no such series" for the probe's day
				if _, err := t.export(ctx, sel, tm, tm+1, nil); err != nil {
					return err
				}
			}
			body := jsonenc.AppendString([]byte(`{"metric":{"__name__":"tsbench_settle","db":`), t.db)
			body = append(body, `,"probe":"`+probe+`"},"values":[`...)
			body = append(body, strings.TrimSuffix(strings.Repeat("0,", len(pending)), ",")...)
			body = append(body, `],"timestamps":[`...)
			for i, tm := range pending {
				if i > 0 {
					body = append(body, ',')
				}
				body = numfmt.AppendInt(body, tm)
			}
			body = append(body, "]}\n"...)
			if _, err := t.do(ctx, http.MethodPost, "/api/v1/import", nil, bytes.NewReader(body)); err != nil {
				return fmt.Errorf("victoriametrics: settle: %w", err)
			}
			if err := t.flush(ctx); err != nil {
				return err
			}
		} else {
			if !time.Now().Before(deadline) {
				return nil // the answers may miss data; the query checks will say
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(settlePoll):
			}
		}
		left := pending[:0]
		for _, tm := range pending {
			got, err := t.export(ctx, sel, tm, tm+1, nil)
			if err != nil {
				return err
			}
			if len(got) == 0 || len(got[0]) == 0 {
				left = append(left, tm)
			}
		}
		pending = left
	}
	return nil
}

const (
	settleAttempts = 3
	settleWait     = 15 * time.Second // mergeset's flush callback interval (10 s), its jitter and a margin
	settlePoll     = 500 * time.Millisecond
	// settleEvery spaces the background settles: as often as the server's
	// own flushes (1-2 s), so that a run's queries see, as with series
	// known before, what was written more than about that long ago.
	settleEvery   = time.Second
	settleTimeout = 30 * time.Second // a background settle's
)

// deleteProbes deletes the probe series.
func (t *Target) deleteProbes(ctx context.Context) {
	q := url.Values{"match[]": {`tsbench_settle{db=` + promql.Quote(t.db) + `}`}}
	t.do(ctx, http.MethodPost, "/api/v1/admin/tsdb/delete_series", q, nil) //nolint:errcheck // best effort: the next reset deletes them too
}

// written is what this process wrote to one database's generation: every
// client's connection adds to it, and the connection that counts settles
// every month in it.
//
// It also settles during the run: a connection's Write reports each
// device's first samples of a day (newDay), whose new index entries a query
// made in the next second could hide for 11 s (see above), and a
// background worker probes those months (see probe) right away, then at
// most every settleEvery while new days come. The probe's final flush
// resets the caches after the entries were written, so the queries see
// them from then on. A run writing many devices' new days adds a forced
// flush a second at most; the probes stay until Count's settle deletes
// them.
type written struct {
	mu      sync.Mutex
	months  map[int64]int64 // month start (ms) -> a timestamp written in the month
	dirty   map[int64]int64 // the same, for the new days not yet settled
	running bool
	idle    chan struct{} // closed when the worker stops
	last    time.Time     // when the worker last probed
}

var (
	writtenMu sync.Mutex
	writtenBy = map[string]*written{}
)

// writtenTo returns the record of a database's generation. Generations are
// nanosecond clock readings: the key needs no server, which the connection
// that counts may name otherwise (QUERY_URL).
func writtenTo(db, gen string) *written {
	writtenMu.Lock()
	defer writtenMu.Unlock()
	k := db + "\x00" + gen
	w := writtenBy[k]
	if w == nil {
		w = &written{months: map[int64]int64{}, dirty: map[int64]int64{}}
		writtenBy[k] = w
	}
	return w
}

// dayOf returns the bounds [from, to) of the UTC day of tm.
func dayOf(tm int64) [2]int64 {
	const day = 24 * 60 * 60 * 1000
	from := tm - ((tm%day)+day)%day
	return [2]int64{from, from + day}
}

// monthOf returns the start of the UTC month (a VictoriaMetrics partition)
// of tm.
func monthOf(tm int64) int64 {
	d := time.UnixMilli(tm).UTC()
	return time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, time.UTC).UnixMilli()
}

// newDay notes a sample at tm, the first of a device's day on t, and has
// its month probed by the background worker.
func (w *written) newDay(t *Target, tm int64) {
	m := monthOf(tm)
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.months[m]; !ok {
		w.months[m] = tm
	}
	if _, ok := w.dirty[m]; !ok {
		w.dirty[m] = tm
	}
	if !w.running {
		w.running, w.idle = true, make(chan struct{})
		go w.work(t)
	}
}

func (w *written) work(t *Target) {
	for {
		w.mu.Lock()
		pause := time.Until(w.last.Add(settleEvery))
		w.mu.Unlock()
		if pause > 0 {
			time.Sleep(pause)
		}
		w.mu.Lock()
		if len(w.dirty) == 0 {
			w.running = false
			close(w.idle)
			w.mu.Unlock()
			return
		}
		var times []int64
		for _, tm := range w.dirty {
			times = append(times, tm)
		}
		clear(w.dirty)
		w.last = time.Now()
		w.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), settleTimeout)
		t.probe(ctx, times, 0) //nolint:errcheck // best effort: Count settles again
		cancel()
	}
}

// wait waits for the background worker to stop.
func (w *written) wait(ctx context.Context) error {
	w.mu.Lock()
	idle := w.idle
	w.mu.Unlock()
	if idle == nil {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// monthTimes returns one written timestamp per month, in time order.
func (w *written) monthTimes() []int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []int64
	for _, tm := range w.months {
		out = append(out, tm)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
