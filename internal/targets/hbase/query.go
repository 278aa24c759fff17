package hbase

import (
	"context"
	"fmt"
	"sort"

	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/ts"
)

// Query runs one of Q1..Q10: scans fetch the points of each queried series
// in the query's time window, and tsbench computes the rest (see the package
// doc).
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	s, err := t.binding.SchemaUnder(&t.mu)
	if err != nil {
		return ts.Result{}, err
	}
	all, err := t.fetch(ctx, s, q)
	if err != nil {
		return ts.Result{}, fmt.Errorf("hbase: %s: %w", q.Kind, err)
	}
	return clientside.Answer(q, all), nil
}

// fetch scans the query's devices and returns one series per device and
// sensor, devices first, in the order of q.Sensors.
func (t *Target) fetch(ctx context.Context, s *ts.Schema, q *ts.Query) ([]clientside.Series, error) {
	filter := sensorFilter(s, q.Sensors)
	pos := make(map[int]int, len(q.Sensors)) // sensor index -> position in q.Sensors
	for i, sn := range q.Sensors {
		pos[sn] = i
	}
	out := make([]clientside.Series, len(q.Devices)*len(q.Sensors))
	for di, d := range q.Devices {
		sc := t.querySpec(s, q, d.Name, filter)
		cur := out[di*len(q.Sensors) : (di+1)*len(q.Sensors)]
		var derr error
		err := t.cl.scan(ctx, t.table, sc, func(row []byte, cells []cell) bool {
			derr = addCells(s, row, cells, pos, cur)
			return derr == nil && (q.Kind != ts.LatestPoint || !allFound(cur))
		})
		if err == nil {
			err = derr
		}
		if err != nil {
			return nil, fmt.Errorf("scan %s: %w", d.Name, err)
		}
	}
	return out, nil
}

// querySpec is the scan of one device for q: the time window's rows and
// cells (Q1: the one millisecond), the whole device for Q5, and the whole
// device newest row first for Q8.
func (t *Target) querySpec(s *ts.Schema, q *ts.Query, device string, filter pb) scanSpec {
	switch {
	case q.Kind == ts.PrecisePoint:
		return t.spec(device, q.Start, q.Start+1, filter)
	case q.Kind == ts.LatestPoint:
		sc := t.spec(device, 0, 0, filter)
		sc.start, sc.stop, sc.reversed = sc.stop, sc.start, true
		return sc
	case q.Kind.HasTimeRange():
		return t.spec(device, q.Start, q.End, filter)
	}
	return t.spec(device, 0, 0, filter)
}

// sensorFilter restricts a scan to the sensors' qualifier prefixes; nil
// when every sensor is asked for.
func sensorFilter(s *ts.Schema, sensors []int) pb {
	seen := map[int]bool{}
	for _, sn := range sensors {
		seen[sn] = true
	}
	if len(seen) == len(s.Sensors) {
		return nil
	}
	sorted := make([]int, 0, len(seen))
	for sn := range seen {
		sorted = append(sorted, sn)
	}
	sort.Ints(sorted)
	var m pb
	for _, sn := range sorted {
		m = m.bytes(1, qualifier(nil, sn, 0)[:2])
	}
	return pb{}.str(1, "org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter").bytes(2, m)
}

// addCells decodes a row's cells into the series of the queried sensors.
// Within a row cells come by sensor then time; a reversed scan returns rows
// newest first, so Q8 keeps only the newest point of each series.
func addCells(s *ts.Schema, row []byte, cells []cell, pos map[int]int, cur []clientside.Series) error {
	_, bucket, err := parseRowKey(row)
	if err != nil {
		return err
	}
	for _, c := range cells {
		sn, off, err := parseQualifier(c.qualifier)
		if err != nil {
			return err
		}
		i, ok := pos[sn]
		if !ok || sn >= len(s.Sensors) {
			continue
		}
		v, numeric, err := decodeValue(s.Sensors[sn].Type, c.value)
		if err != nil {
			return err
		}
		cur[i] = append(cur[i], clientside.Point{T: bucket + off, V: v, Numeric: numeric})
	}
	return nil
}

// allFound reports whether every series has a point (Q8 can stop).
func allFound(cur []clientside.Series) bool {
	for _, sr := range cur {
		if len(sr) == 0 {
			return false
		}
	}
	return true
}
