// Package dataset is a user's own data, replayed through any target: a
// directory in tsbench's compact format that 'tsbench generate --out'
// writes and that CSV, Parquet, IoT-benchmark, InfluxDB line-protocol and
// Prometheus export files (text ones also gzip-compressed) are imported
// into (import.go), read back batch by batch by the clients at full speed.
//
// # Format
//
// A dataset is a directory holding manifest.json (the schema, and per
// device its rows, chunks and duplicate rows) and data.bin, the rows in
// chunks of one device each:
//
//	row   = time int64 (ms since the epoch, little-endian), then per sensor
//	        BOOLEAN 1 byte | INT32 4 | INT64 8 | FLOAT 4 | DOUBLE 8 (IEEE 754,
//	        little-endian) | TEXT uvarint length + UTF-8 bytes
//	chunk = consecutive rows of one device, in the order they came
//
// Rows of Parquet and IoT-benchmark files keep their file order
// (out-of-order data stays out of order); CSV, line-protocol and
// Prometheus imports sort each device's rows by time, rows repeating a
// device and time after its first ones (csvconvert.go). A device's chunks, read in turn, give its rows in that
// order.
//
// Sparse data (a row without a value of some sensor: an empty cell, a
// null, a series lacking a time its device's others have) keeps a zero in
// the empty cell and marks it in a null bitmap that follows the chunk's
// rows (bit row*sensors+sensor, row within the chunk), only in chunks
// with empty cells: a dense dataset is byte for byte what it was, format
// version 1; a sparse one is version 2 and its manifest counts the empty
// cells. The reader marks them in each batch (ts.Column.Null).
//
// Batch n of a device holds its rows [n*B, (n+1)*B) (B = BATCH_SIZE_PER_WRITE),
// as the generator's batch n does; past the last row a repeating replay
// starts again from the first, its times shifted by the dataset's span, so
// a small file can drive a long run and every repeated point is new.
package dataset

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/tsbench/tsbench/internal/ts"
)

// FormatVersion is the version of the directory format; a dataset with
// empty cells is SparseFormatVersion (its chunks may carry null bitmaps,
// which an older tsbench would not read), any other stays FormatVersion.
const (
	FormatVersion       = 1
	SparseFormatVersion = 2
)

const (
	manifestName = "manifest.json"
	dataName     = "data.bin"
)

// Manifest describes a dataset directory.
type Manifest struct {
	Version int    `json:"version"`
	Source  string `json:"source"` // the file it was made from, or "generated"
	Format  string `json:"format"` // csv-long, csv-wide, parquet, iot-benchmark, influx, prometheus, generated
	// Database and Groups are the schema's; Sensors every device's.
	Database string      `json:"database,omitempty"`
	Groups   []string    `json:"groups"`
	Sensors  []ts.Sensor `json:"sensors"`
	Devices  []Device    `json:"devices"`
	// Rows counts every row; DuplicateRows those that repeat an earlier
	// (device, time) of the dataset.
	Rows          int64 `json:"rows"`
	DuplicateRows int64 `json:"duplicate_rows"`
	// Missing counts the empty cells (sparse data: a (device, time) row
	// without a value of some sensor); DuplicatePoints, when there are
	// some, the values of the duplicate rows.
	Missing         int64 `json:"missing_cells,omitempty"`
	DuplicatePoints int64 `json:"duplicate_points,omitempty"`
	MinTime         int64 `json:"min_time_ms"`
	MaxTime         int64 `json:"max_time_ms"`
	// Step is the typical time between a device's rows (the median), the
	// schema's POINT_STEP for query windows and partitions.
	Step int64 `json:"step_ms"`
	// Decimals is the number of places DOUBLE values were rounded to, or
	// -1 (unknown): a hint for text wire formats.
	Decimals int `json:"decimals"`
	// Generated records the generator settings of 'tsbench generate'.
	Generated map[string]any `json:"generated,omitempty"`
	// DuplicateExample names two lines of the file that fall on one
	// device and time, when some do; DroppedDuplicates counts the rows
	// DATA_DUPLICATES=first left out (not in Rows).
	DuplicateExample  string `json:"duplicate_example,omitempty"`
	DroppedDuplicates int64  `json:"dropped_duplicates,omitempty"`
	// Notes say what the import changed or noticed (timestamps cut to
	// milliseconds, say).
	Notes []string `json:"notes,omitempty"`
}

// Device is one device of a dataset and where its rows are.
type Device struct {
	Name  string   `json:"name"`
	Index int      `json:"index"`
	Group int      `json:"group"`
	Tags  []ts.Tag `json:"tags,omitempty"`
	Rows  int64    `json:"rows"`
	// Chunks are the device's parts of data.bin, in row order.
	Chunks []Chunk `json:"chunks"`
	// Duplicates are the positions (0-based, in row order) of rows whose
	// time an earlier row of the device already had.
	Duplicates []int64 `json:"duplicates,omitempty"`
	// DuplicateValues, in a sparse dataset, are each duplicate row's
	// values that repeat a point (its sensor had a value at that time in
	// an earlier row); else every value of a duplicate row does.
	DuplicateValues []int32 `json:"duplicate_values,omitempty"`
}

// Chunk is a run of one device's rows in data.bin: Bytes of rows, then,
// when Missing > 0, their null bitmap.
type Chunk struct {
	Offset  int64 `json:"offset"`
	Bytes   int64 `json:"bytes"`
	Rows    int64 `json:"rows"`
	Missing int64 `json:"missing,omitempty"`
}

// Points is the number of points in the dataset, duplicates included:
// the cells with a value.
func (m *Manifest) Points() int64 { return m.Rows*int64(len(m.Sensors)) - m.Missing }

// DistinctPoints is the number of distinct (series, time) points.
func (m *Manifest) DistinctPoints() int64 {
	if m.Missing > 0 {
		return m.Points() - m.DuplicatePoints
	}
	return (m.Rows - m.DuplicateRows) * int64(len(m.Sensors))
}

// Sparse reports whether some cells of the dataset are empty.
func (m *Manifest) Sparse() bool { return m.Missing > 0 }

// Span is how far a repetition shifts the times: the dataset's time range
// plus one step, so that no repeated row meets an earlier one.
func (m *Manifest) Span() int64 { return m.MaxTime - m.MinTime + max(1, m.Step) }

// Dataset is an open dataset directory.
type Dataset struct {
	Manifest
	Dir  string
	data *os.File
	mem  []byte // data.bin mapped, when it could be
	// rowSize is the size of a row without TEXT values (fixed-width
	// datasets are read without parsing lengths).
	rowSize int
	fixed   bool
}

// IsDataset reports whether dir holds a dataset.
func IsDataset(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, manifestName))
	return err == nil
}

// Open opens a dataset directory.
func Open(dir string) (*Dataset, error) {
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	}
	ds := &Dataset{Dir: dir}
	if err := json.Unmarshal(b, &ds.Manifest); err != nil {
		return nil, fmt.Errorf("dataset %s: %s: %w", dir, manifestName, err)
	}
	if ds.Version != FormatVersion && ds.Version != SparseFormatVersion {
		return nil, fmt.Errorf("dataset %s: format version %d, this tsbench reads %d and %d", dir, ds.Version, FormatVersion, SparseFormatVersion)
	}
	if err := ds.check(); err != nil {
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	}
	if ds.data, err = os.Open(filepath.Join(dir, dataName)); err != nil {
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	}
	ds.rowSize, ds.fixed = rowSize(ds.Sensors)
	ds.mem = mapFile(ds.data)
	return ds, nil
}

// check refuses a manifest that does not describe a readable dataset.
func (ds *Dataset) check() error {
	if len(ds.Sensors) == 0 || len(ds.Devices) == 0 {
		return fmt.Errorf("no sensors or no devices")
	}
	var missing int64
	for i, d := range ds.Devices {
		var rows int64
		for _, c := range d.Chunks {
			rows += c.Rows
			missing += c.Missing
		}
		if rows != d.Rows {
			return fmt.Errorf("device %s: chunks hold %d rows, the manifest says %d", d.Name, rows, d.Rows)
		}
		if d.Group < 0 || d.Group >= len(ds.Groups) {
			return fmt.Errorf("device %s: group %d of %d", d.Name, d.Group, len(ds.Groups))
		}
		if i > 0 && d.Index != ds.Devices[i-1].Index+1 {
			return fmt.Errorf("device %s: index %d after %d; indexes are contiguous", d.Name, d.Index, ds.Devices[i-1].Index)
		}
	}
	if missing != ds.Missing {
		return fmt.Errorf("chunks miss %d values, the manifest says %d", missing, ds.Missing)
	}
	return nil
}

// Close closes the data file.
func (ds *Dataset) Close() error {
	unmap(ds.mem)
	ds.mem = nil
	return ds.data.Close()
}

// Schema is the dataset's schema for a run writing to database.
func (ds *Dataset) Schema(database string) *ts.Schema {
	s := &ts.Schema{Database: database, Groups: ds.Groups, Sensors: ds.Sensors, StartTime: ds.MinTime, PointStep: max(1, ds.Step)}
	s.Devices = make([]ts.Device, len(ds.Devices))
	for i, d := range ds.Devices {
		s.Devices[i] = ts.Device{Index: d.Index, Name: d.Name, Group: d.Group, Tags: d.Tags}
	}
	return s
}

// MaxRows is the most rows any device has.
func (ds *Dataset) MaxRows() int64 {
	var n int64
	for _, d := range ds.Devices {
		n = max(n, d.Rows)
	}
	return n
}

// device returns the dataset device of a schema device.
func (ds *Dataset) device(dev *ts.Device) *Device {
	p := dev.Index - ds.Devices[0].Index
	if p < 0 || p >= len(ds.Devices) {
		return nil
	}
	return &ds.Devices[p]
}

// duplicatesIn counts a device's duplicate rows among positions [lo, hi).
func (d *Device) duplicatesIn(lo, hi int64) int64 {
	i := sort.Search(len(d.Duplicates), func(i int) bool { return d.Duplicates[i] >= lo })
	j := sort.Search(len(d.Duplicates), func(i int) bool { return d.Duplicates[i] >= hi })
	return int64(j - i)
}

// rowSize is the encoded size of a row without TEXT, and whether every row
// has that size.
func rowSize(sensors []ts.Sensor) (int, bool) {
	n, fixed := 8, true
	for _, s := range sensors {
		switch s.Type {
		case ts.Boolean:
			n++
		case ts.Int32, ts.Float:
			n += 4
		case ts.Int64, ts.Double:
			n += 8
		default:
			fixed = false
		}
	}
	return n, fixed
}
