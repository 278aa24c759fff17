package victoriametrics

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsbench/tsbench/internal/numfmt"
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
// cached before: after the flush it writes, for every month this process
// wrote data in, a sample of a new probe series there, asks for the probe
// first (caching "nothing" for it), then flushes: the probe's entries are
// pending, so the flush is final and resets that partition's cache. The
// probe answering proves the reset. When the periodic flush took the
// probe's entries first (no reset), it tries again with a new probe, and
// after settleAttempts waits for the periodic reset, up to settleWait. The
// probes are deleted at the end; they carry no gen label, so no query or
// count of the data matches them in the meantime.
func (t *Target) settle(ctx context.Context) error {
	if err := t.flush(ctx); err != nil {
		return err
	}
	t.mu.Lock()
	s, err := t.binding.Schema()
	months := t.months
	t.mu.Unlock()
	if err != nil || months == nil {
		return nil // Count says why
	}
	pending := months.times()
	if len(pending) == 0 {
		pending = []int64{s.StartTime}
	}
	defer t.deleteProbes(ctx)
	deadline := time.Now().Add(settleWait)
	sel := ""
	for attempt := 0; len(pending) > 0; attempt++ {
		if attempt < settleAttempts {
			probe := strconv.FormatInt(time.Now().UnixNano(), 10)
			sel = `tsbench_settle{db="` + t.db + `",probe="` + probe + `"}`
			for _, tm := range pending { // caches "no such series" on the probe's day
				if _, err := t.export(ctx, sel, tm, tm+1, nil); err != nil {
					return err
				}
			}
			body := fmt.Appendf(nil, `{"metric":{"__name__":"tsbench_settle","db":%q,"probe":%q},"values":[`, t.db, probe)
			body = append(body, strings.TrimSuffix(strings.Repeat("0,", len(pending)), ",")...)
			body = append(body, `],"timestamps":[`...)
			for i, tm := range pending {
				if i > 0 {
					body = append(body, ',')
				}
				body = numfmt.AppendInt(body, tm)
			}
			body = append(body, "]}\n"...)
			if _, err := t.do(ctx, http.MethodPost, "/api/v1/import", nil, strings.NewReader(string(body))); err != nil {
				return fmt.Errorf("victoriametrics: settle: %w", err)
			}
			if err := t.flush(ctx); err != nil {
				return err
			}
		} else {
			if time.Now().After(deadline) {
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
)

// deleteProbes deletes settle's probe series.
func (t *Target) deleteProbes(ctx context.Context) {
	q := url.Values{"match[]": {`tsbench_settle{db="` + t.db + `"}`}}
	t.do(ctx, http.MethodPost, "/api/v1/admin/tsdb/delete_series", q, nil) //nolint:errcheck // best effort: the next reset deletes them too
}

// monthSet records the months (UTC, VictoriaMetrics' partitions) that this
// process wrote data in, for one server, database and generation: every
// client's connection adds to the same set, which the connection that
// counts settles.
type monthSet struct {
	mu sync.Mutex
	at map[int64]int64 // month start (ms) -> a timestamp written in the month
}

var (
	monthsMu sync.Mutex
	months   = map[string]*monthSet{}
)

func writtenMonths(root, db, gen string) *monthSet {
	monthsMu.Lock()
	defer monthsMu.Unlock()
	k := root + "\x00" + db + "\x00" + gen
	m := months[k]
	if m == nil {
		m = &monthSet{at: map[int64]int64{}}
		months[k] = m
	}
	return m
}

// add notes a timestamp's month and returns the month's bounds [from, to).
func (m *monthSet) add(tm int64) [2]int64 {
	d := time.UnixMilli(tm).UTC()
	from := time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, time.UTC)
	b := [2]int64{from.UnixMilli(), from.AddDate(0, 1, 0).UnixMilli()}
	m.mu.Lock()
	if _, ok := m.at[b[0]]; !ok {
		m.at[b[0]] = tm
	}
	m.mu.Unlock()
	return b
}

// times returns one written timestamp per month, in time order.
func (m *monthSet) times() []int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []int64
	for _, tm := range m.at {
		out = append(out, tm)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
