package sqlfamily

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// Metadata is what the metadata tables hold: devices(name, idx, grp, tags)
// and series(id, device, device_index, sensor, type, grp), column by column
// (the order of the tables' columns), so that a target may pass them as rows
// or as arrays.
type Metadata struct {
	DevName, DevGroup, DevTags []string
	DevIndex                   []int32

	ID, SerIndex                      []int32
	SerDevice, Sensor, Type, SerGroup []string
}

// MetadataOf lists the devices and series of s. Tags are a JSON object in
// the devices' own order, e.g. {"tag_0":"a","tag_1":"b"}.
func MetadataOf(s *ts.Schema) Metadata {
	var m Metadata
	for pos, d := range s.Devices {
		grp := ""
		if d.Group >= 0 && d.Group < len(s.Groups) {
			grp = s.Groups[d.Group]
		}
		m.DevName, m.DevIndex = append(m.DevName, d.Name), append(m.DevIndex, int32(d.Index))
		m.DevGroup, m.DevTags = append(m.DevGroup, grp), append(m.DevTags, tagsJSON(d.Tags))
		for i, sn := range s.Sensors {
			m.ID, m.SerDevice = append(m.ID, int32(s.SeriesID(pos, i))), append(m.SerDevice, d.Name)
			m.SerIndex, m.Sensor = append(m.SerIndex, int32(d.Index)), append(m.Sensor, sn.Name)
			m.Type, m.SerGroup = append(m.Type, sn.Type.String()), append(m.SerGroup, grp)
		}
	}
	return m
}

func tagsJSON(tags []ts.Tag) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, tg := range tags {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(tg.Key) // a string always marshals
		v, _ := json.Marshal(tg.Value)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.String()
}

// Execer runs a statement: *sql.DB, *sql.Conn and *sql.Tx are.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// metadataRows is the rows of one statement: well under every engine's
// parameter limit (6 x 500 = 3,000 parameters).
const metadataRows = 500

// InsertMetadata records the devices and series of s with the dialect's
// Replace: a Setup without reset refreshes rows with the same key.
func (d *Dialect) InsertMetadata(ctx context.Context, db Execer, s *ts.Schema) error {
	m := MetadataOf(s)
	dev := func(i int, a []any) []any { return append(a, m.DevName[i], m.DevIndex[i], m.DevGroup[i], m.DevTags[i]) }
	ser := func(i int, a []any) []any {
		return append(a, m.ID[i], m.SerDevice[i], m.SerIndex[i], m.Sensor[i], m.Type[i], m.SerGroup[i])
	}
	for _, tbl := range []struct {
		name, cols string
		n          int
		row        func(int, []any) []any
	}{
		{"devices", "name, idx, grp, tags", len(m.DevName), dev},
		{"series", "id, device, device_index, sensor, type, grp", len(m.ID), ser},
	} {
		cols := make([]string, strings.Count(tbl.cols, ",")+1)
		head := d.Replace + " " + tbl.name + " (" + tbl.cols + ") VALUES "
		var args []any
		for i := 0; i < tbl.n; i += metadataRows {
			end := min(i+metadataRows, tbl.n)
			args = args[:0]
			for j := i; j < end; j++ {
				args = tbl.row(j, args)
			}
			if _, err := db.ExecContext(ctx, d.Values(head, cols, end-i, ""), args...); err != nil {
				return fmt.Errorf("record %s: %w", tbl.name, err)
			}
		}
	}
	return nil
}
