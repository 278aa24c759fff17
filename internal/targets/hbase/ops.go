package hbase

import (
	"bytes"
	"context"
	"fmt"
)

// cell is one stored cell as a scan returns it.
type cell struct {
	qualifier, value []byte
	ts               int64
}

// putCell is one cell of a Put: qualifier, value and cell timestamp.
type putCell struct {
	qualifier, value []byte
	ts               int64
}

// scanSpec is what a scan reads: rows [start, stop) (for reversed scans
// start is the inclusive upper bound and stop the exclusive lower one) of one
// family, an optional serialized Filter and an optional time range of cell
// timestamps [from, to) (none when to is 0).
type scanSpec struct {
	start, stop []byte
	reversed    bool
	family      string
	filter      pb
	from, to    int64
}

const rowsPerCall = 1024

// encode renders the Scan message, starting at start (nil: region edge).
func (s *scanSpec) encode(start []byte) pb {
	m := pb{}.bytes(1, pb{}.str(1, s.family))
	if len(start) > 0 {
		m = m.bytes(3, start)
	}
	if len(s.stop) > 0 {
		m = m.bytes(4, s.stop)
	}
	if s.filter != nil {
		m = m.bytes(5, s.filter)
	}
	if s.to > 0 {
		m = m.bytes(6, pb{}.uint(1, uint64(s.from)).uint(2, uint64(s.to)))
	}
	m = m.uint(7, 1)
	if s.reversed {
		m = m.bool(15, true)
	}
	return m.uint(17, rowsPerCall)
}

func openScan(r *region, s *scanSpec, start []byte) pb {
	return pb{}.bytes(1, regionSpec(r.name)).bytes(2, s.encode(start)).uint(4, rowsPerCall)
}

// scan reads the rows of s region by region and calls fn for each row
// until fn returns false.
func (c *client) scan(ctx context.Context, table string, s scanSpec, fn func(row []byte, cells []cell) bool) error {
	key, start, before := s.start, s.start, false
	for {
		msg, r, err := c.callRegion(ctx, table, key, before, "Scan", func(r *region) pb { return openScan(r, &s, start) })
		if err != nil {
			return err
		}
		rc, err := c.conn(ctx, r.addr, clientService)
		if err != nil {
			return err
		}
		stopped, err := c.drain(ctx, rc, msg, fn)
		if err != nil || stopped {
			return err
		}
		if !s.reversed {
			if len(r.end) == 0 || len(s.stop) > 0 && bytes.Compare(r.end, s.stop) >= 0 {
				return nil
			}
			key, start = r.end, r.end
			continue
		}
		if len(r.start) == 0 || len(s.stop) > 0 && bytes.Compare(r.start, s.stop) <= 0 {
			return nil
		}
		key, start, before = r.start, nil, true
	}
}

// scanRegion scans one known region without retries (hbase:meta).
func (c *client) scanRegion(ctx context.Context, r *region, s scanSpec, fn func(row []byte, cells []cell) bool) error {
	rc, err := c.conn(ctx, r.addr, clientService)
	if err != nil {
		return err
	}
	msg, err := rc.call(ctx, "Scan", openScan(r, &s, s.start))
	if err != nil {
		return err
	}
	_, err = c.drain(ctx, rc, msg, fn)
	return err
}

// drain hands the rows of a scanner's answers to fn and asks for more until
// the region has no more rows; stopped says fn ended the scan.
func (c *client) drain(ctx context.Context, rc *rpcConn, msg []byte, fn func([]byte, []cell) bool) (stopped bool, err error) {
	for seq := uint64(0); ; seq++ {
		resp, err := parseScan(msg)
		if err != nil {
			return false, err
		}
		for _, res := range resp.rows {
			if !fn(res.row, res.cells) {
				if resp.more {
					_, err := rc.call(ctx, "Scan", pb{}.uint(3, resp.id).uint(4, 0).bool(5, true))
					return true, err
				}
				return true, nil
			}
		}
		if !resp.more {
			return false, nil
		}
		msg, err = rc.call(ctx, "Scan", pb{}.uint(3, resp.id).uint(4, rowsPerCall).uint(6, seq))
		if err != nil {
			return false, err
		}
	}
}

type scanRow struct {
	row   []byte
	cells []cell
}

type scanResponse struct {
	id   uint64
	rows []scanRow
	more bool // the scanner has more rows in this region
}

// parseScan decodes a ScanResponse with its cells inline (no cell blocks).
func parseScan(msg []byte) (scanResponse, error) {
	var r scanResponse
	moreResults, inRegion, hasInRegion := true, false, false
	err := eachField(msg, func(f pbField) error {
		switch f.num {
		case 2:
			r.id = f.u
		case 3:
			moreResults = f.u != 0
		case 5:
			row, err := parseResult(f.data)
			if err == nil && len(row.cells) > 0 {
				r.rows = append(r.rows, row)
			}
			return err
		case 8:
			inRegion, hasInRegion = f.u != 0, true
		}
		return nil
	})
	r.more = moreResults && (inRegion || !hasInRegion && len(r.rows) > 0)
	return r, err
}

func parseResult(msg []byte) (scanRow, error) {
	var r scanRow
	err := eachField(msg, func(f pbField) error {
		if f.num != 1 {
			return nil
		}
		var c cell
		err := eachField(f.data, func(g pbField) error {
			switch g.num {
			case 1:
				if r.row == nil {
					r.row = g.data
				}
			case 3:
				c.qualifier = g.data
			case 4:
				c.ts = int64(g.u)
			case 6:
				c.value = g.data
			}
			return nil
		})
		r.cells = append(r.cells, c)
		return err
	})
	return r, err
}

// put writes one row's cells with a Mutate call.
func (c *client) put(ctx context.Context, table, family string, row []byte, cells []putCell) error {
	cv := pb{}.str(1, family)
	for _, pc := range cells {
		cv = cv.bytes(2, pb{}.bytes(1, pc.qualifier).bytes(2, pc.value).uint(3, uint64(pc.ts)))
	}
	mut := pb{}.bytes(1, row).uint(2, 2).bytes(3, cv) // mutate_type PUT
	_, _, err := c.callRegion(ctx, table, row, false, "Mutate", func(r *region) pb {
		return pb{}.bytes(1, regionSpec(r.name)).bytes(2, mut)
	})
	return err
}

func tableName(table string) pb { return pb{}.str(1, "default").str(2, table) }

// createTable creates table with one column family keeping one version.
func (c *client) createTable(ctx context.Context, table, family string) error {
	versions := pb{}.str(1, "VERSIONS").str(2, "1")
	schema := pb{}.bytes(1, tableName(table)).bytes(3, pb{}.str(1, family).bytes(2, versions))
	return c.procedure(ctx, "CreateTable", pb{}.bytes(1, schema))
}

func (c *client) disableTable(ctx context.Context, table string) error {
	return c.procedure(ctx, "DisableTable", pb{}.bytes(1, tableName(table)))
}

func (c *client) deleteTable(ctx context.Context, table string) error {
	return c.procedure(ctx, "DeleteTable", pb{}.bytes(1, tableName(table)))
}

// procedure runs a master call that starts a procedure and waits until the
// procedure finished, returning its failure as a *RemoteError.
func (c *client) procedure(ctx context.Context, method string, req pb) error {
	msg, err := c.masterCall(ctx, method, req)
	if err != nil {
		return err
	}
	var id uint64
	eachField(msg, func(f pbField) error {
		if f.num == 1 {
			id = f.u
		}
		return nil
	})
	for {
		msg, err := c.masterCall(ctx, "getProcedureResult", pb{}.uint(1, id))
		if err != nil {
			return err
		}
		done, err := procedureResult(msg)
		if done || err != nil {
			return err
		}
		if err := sleep(ctx, 1); err != nil {
			return fmt.Errorf("wait for %s: %w", method, err)
		}
	}
}

// procedureResult reads a GetProcedureResultResponse: done unless RUNNING,
// and the procedure's exception.
func procedureResult(msg []byte) (done bool, err error) {
	state := uint64(0)
	var exc *RemoteError
	perr := eachField(msg, func(f pbField) error {
		switch f.num {
		case 1:
			state = f.u
		case 5: // ForeignExceptionMessage{source, generic_exception{class_name, message}}
			exc = &RemoteError{Class: "ProcedureException"}
			return eachField(f.data, func(g pbField) error {
				if g.num == 2 {
					return exc.decode(g.data)
				}
				return nil
			})
		}
		return nil
	})
	if perr != nil {
		return true, perr
	}
	if state == 1 { // RUNNING
		return false, nil
	}
	if exc != nil {
		return true, exc
	}
	return true, nil
}

// masterCall calls the master, retrying while it is starting up.
func (c *client) masterCall(ctx context.Context, method string, req pb) ([]byte, error) {
	var last error
	for attempt := 0; attempt < retries; attempt++ {
		if attempt > 0 {
			c.forgetMaster()
			if err := sleep(ctx, attempt); err != nil {
				return nil, fmt.Errorf("%w (last error: %v)", err, last)
			}
		}
		rc, err := c.master(ctx)
		if err != nil {
			last = err
			continue
		}
		msg, err := rc.call(ctx, method, req)
		if err == nil || !(retriable(err) || rc.broken()) {
			return msg, err
		}
		last = err
	}
	return nil, last
}

// waitAssigned waits until hbase:meta lists a served region of table.
func (c *client) waitAssigned(ctx context.Context, table string) error {
	for attempt := 1; ; attempt++ {
		c.forgetRegions(table)
		_, err := c.locate(ctx, table, nil, false)
		if err == nil || !retriable(err) {
			return err
		}
		if err := sleep(ctx, min(attempt, 5)); err != nil {
			return fmt.Errorf("wait for regions of %s: %w", table, err)
		}
	}
}
