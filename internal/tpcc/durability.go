package tpcc

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"sync"

	"github.com/tsbench/tsbench/internal/summary"
)

// A district's orders only grow, and only by New-Order: each committed one
// adds one row to tpcc_orders. So after a run, every district holds the
// orders it held before plus the New-Orders the run saw committed there;
// fewer means the server lost acknowledged transactions (a crash, an
// in-memory engine), more is allowed only for New-Orders whose commit's
// answer was lost (in doubt).

// district is a (warehouse, district) pair.
type district [2]int

// orderBook counts New-Orders by district as the terminals see them end.
type orderBook struct {
	mu          sync.Mutex
	before      map[district]int64
	done, doubt map[district]int64
}

func newOrderBook() *orderBook {
	return &orderBook{done: map[district]int64{}, doubt: map[district]int64{}}
}

func (b *orderBook) committed(w, d int) {
	b.mu.Lock()
	b.done[district{w, d}]++
	b.mu.Unlock()
}

func (b *orderBook) inDoubt(w, d int) {
	b.mu.Lock()
	b.doubt[district{w, d}]++
	b.mu.Unlock()
}

// ordersPerDistrict counts tpcc_orders by district.
func ordersPerDistrict(ctx context.Context, db *sql.DB) (map[district]int64, error) {
	rows, err := db.QueryContext(ctx, `SELECT o_w_id, o_d_id, COUNT(*) FROM tpcc_orders GROUP BY o_w_id, o_d_id`)
	if err != nil {
		return nil, fmt.Errorf("tpcc: count orders by district: %w", err)
	}
	defer rows.Close()
	out := map[district]int64{}
	for rows.Next() {
		var w, d int
		var n int64
		if err := rows.Scan(&w, &d, &n); err != nil {
			return nil, fmt.Errorf("tpcc: count orders by district: %w", err)
		}
		out[district{w, d}] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("tpcc: count orders by district: %w", err)
	}
	return out, nil
}

// maxListedDistricts bounds the districts a durability check lists.
const maxListedDistricts = 10

// CheckNewOrders counts every district's orders after the run and holds
// them against the New-Orders the terminals saw committed: each committed
// one must be there.
func (r *Run) CheckNewOrders(ctx context.Context) (*summary.TPCCNewOrders, error) {
	after, err := ordersPerDistrict(ctx, r.db)
	if err != nil {
		return nil, err
	}
	b := r.orders
	b.mu.Lock()
	defer b.mu.Unlock()
	res := &summary.TPCCNewOrders{}
	keys := map[district]bool{}
	for k := range b.done {
		keys[k] = true
	}
	for k := range b.doubt {
		keys[k] = true
	}
	sorted := make([]district, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Slice(sorted, func(i, j int) bool {
		return sorted[i][0] < sorted[j][0] || sorted[i][0] == sorted[j][0] && sorted[i][1] < sorted[j][1]
	})
	for _, k := range sorted {
		done, doubt, grew := b.done[k], b.doubt[k], after[k]-b.before[k]
		res.Committed += done
		res.InDoubt += doubt
		res.Found += min(grew, done)
		short := done - grew
		extra := grew - done - doubt
		if short <= 0 && extra <= 0 {
			continue
		}
		if short > 0 {
			res.Lost += short
		}
		if extra > 0 {
			res.Unexplained += extra
		}
		if len(res.Districts) < maxListedDistricts {
			res.Districts = append(res.Districts, summary.TPCCDistrictOrders{Warehouse: k[0], District: k[1],
				Committed: done, InDoubt: doubt, Grew: grew})
		}
	}
	return res, nil
}
