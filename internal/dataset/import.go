package dataset

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// ImportOptions say how to read a user's file.
type ImportOptions struct {
	// Format is auto (by extension and content), csv, parquet,
	// iot-benchmark, influx (line protocol) or prometheus (JSON lines of
	// /api/v1/export).
	Format string
	// TimeUnit is the unit of integer timestamps: auto (by magnitude), s,
	// ms, us or ns.
	TimeUnit string
	// TimeFormat is the layout of text times in strftime style (%Y-%m-%d);
	// empty: detected from the first rows (CSV). TimeZone is the zone of
	// times without one: an IANA name or an offset; empty is UTC.
	TimeFormat, TimeZone string
	// Time (DATA_TIME) is when samples without a timestamp were taken (a
	// Prometheus scrape): RFC 3339, or a text layout in TimeZone; empty:
	// the file's modification time.
	Time string
	// TimeColumn, DeviceColumns and SensorColumns name the CSV columns of
	// the time, the device (several are joined into its name and kept as
	// its tags) and the sensors (the others are left out); empty: found
	// by name and content.
	TimeColumn string
	// TimeStart and TimeStep (DATA_TIME_START, DATA_TIME_STEP) give the
	// rows of a file with only a row order their times: a series' k-th
	// row is at TimeStart + k TimeStep. Empty: times come from a column.
	TimeStart, TimeStep string
	DeviceColumns       []string
	SensorColumns       []string
	// Missing is DATA_MISSING: the texts that are missing cells besides
	// empty ones (markers.go). Empty: null and NaN in every column, and
	// R's, Python's, spreadsheets' and statistics agencies' markers
	// (missingMarkers) in columns of numbers and booleans; none: null and
	// NaN alone; a list (NA,-999) replaces the markers, missing in every
	// column; signed items edit them (+-999 adds, -NM removes).
	Missing string
	// Delimiter is DATA_DELIMITER, the separator of a CSV file's fields:
	// auto or empty (detected from the header and the first rows), comma,
	// semicolon, tab, pipe or space.
	Delimiter string
	// HeaderRows is DATA_HEADER_ROWS, the lines of a CSV file's header:
	// 0 detects rows of units under the names; 1 is the names alone; N
	// the names and N-1 rows more, the first of them the units.
	HeaderRows int
	// Duplicates is what becomes of rows that repeat an earlier row's
	// device and time (DATA_DUPLICATES): "first" drops them; anything else
	// keeps them after the device's first rows, so that the later value is
	// written last (the caller refuses a file where too many collide).
	Duplicates string
	// Types declares sensor types by name; others are inferred (CSV) or
	// taken from the file's schema (Parquet).
	Types map[string]ts.DataType
	// Groups spreads the devices over this many storage groups, by device
	// number modulo (GROUP_NUMBER), named GroupPrefix + number.
	Groups      int
	GroupPrefix string
	// inspect, when set, makes the import describe how it read the files
	// (Inspect).
	inspect *Inspection
	// missing is Missing read (Import).
	missing *markerSet
}

// typedSensor is sensor name, of the type DATA_TYPES declares for it or
// else of inferred (what the file's values or schema say).
func (o ImportOptions) typedSensor(name string, inferred ts.DataType) ts.Sensor {
	if ty, declared := o.Types[name]; declared {
		return ts.Sensor{Name: name, Type: ty}
	}
	return ts.Sensor{Name: name, Type: inferred}
}

// checkTypesNamed returns an InputError of file when DATA_TYPES names a
// sensor the data does not have (none in index, the found sensors'
// positions by name); has lists what the data has, for the message.
func (o ImportOptions) checkTypesNamed(file string, index map[string]int, has []string) error {
	for name := range o.Types {
		if _, ok := index[name]; !ok {
			return &InputError{File: file, Msg: fmt.Sprintf("DATA_TYPES names sensor %q, which the data does not have; it has %s", name, strings.Join(has, ", "))}
		}
	}
	return nil
}

// eachItem calls fn with each item next reads (a record, a line) and its
// line number, until next says io.EOF or either returns an error, which
// eachItem returns as it is.
func eachItem[T any](next func() (T, int64, error), fn func(item T, line int64) error) error {
	for {
		item, line, err := next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(item, line); err != nil {
			return err
		}
	}
}

// namesOf is the names of sensors, in order.
func namesOf(sensors []ts.Sensor) []string {
	names := make([]string, len(sensors))
	for i, s := range sensors {
		names[i] = s.Name
	}
	return names
}

// InputError is a fault of the user's file, where it is: exit status 2.
type InputError struct {
	File   string
	Line   int64  // 1-based; 0 when not about one line
	Unit   string // what Line counts: "line" (text files, the default) or "row" (Parquet)
	Column string // the column's name or number, when about one
	Msg    string
}

func (e *InputError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	switch {
	case e.Line > 0 && e.Unit == "row":
		fmt.Fprintf(&b, ": row %d", e.Line)
	case e.Line > 0:
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Column != "" {
		fmt.Fprintf(&b, ": column %s", e.Column)
	}
	return b.String() + ": " + e.Msg
}

// IsInputError reports whether err is a fault of the input file.
func IsInputError(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}

// Import reads src (a file, or a directory of files of one format) into a
// new dataset in dir. Nothing is half-written: on an error the dataset in
// dir has no manifest and cannot be opened.
func Import(src, dir string, o ImportOptions) (*Manifest, error) {
	files, err := inputFiles(src)
	if err != nil {
		return nil, err
	}
	if o.missing, err = parseMissing(o.Missing); err != nil {
		return nil, &InputError{File: src, Msg: err.Error()}
	}
	format := o.Format
	if format == "" || format == "auto" {
		if format, err = detect(files); err != nil {
			return nil, err
		}
	}
	switch format {
	case "csv":
		return importCSV(files, dir, o)
	case "parquet":
		return importParquet(files, dir, o)
	case "iot-benchmark":
		return importIoTBenchmark(src, files, dir, o)
	case "influx":
		return importInflux(files, dir, o)
	case "prometheus":
		return importPrometheus(files, dir, o)
	case "timescaledb":
		return importTSBSTimescale(files, dir, o)
	}
	return nil, &InputError{File: src, Msg: fmt.Sprintf("format %q: allowed: %s", format, strings.Join(Formats, ", "))}
}

// inputFiles lists the files to import: src itself, or the regular files
// of the directory src in name order (hidden ones left out).
func inputFiles(src string) ([]string, error) {
	st, err := os.Stat(src)
	if err != nil {
		return nil, &InputError{File: src, Msg: "cannot read it: " + strings.TrimPrefix(err.Error(), "stat "+src+": ")}
	}
	if !st.IsDir() {
		return []string{src}, nil
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return nil, &InputError{File: src, Msg: err.Error()}
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, filepath.Join(src, e.Name()))
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		return nil, &InputError{File: src, Msg: "the directory holds no files to replay"}
	}
	return out, nil
}

// ParquetTag is the build tag that links the Parquet reader in
// (parquet.go); a build without it refuses Parquet files
// (parquet_leftout.go).
const ParquetTag = "parquet"

// Formats are the values of ImportOptions.Format (DATA_FORMAT).
var Formats = []string{"auto", "csv", "parquet", "iot-benchmark", "influx", "prometheus", "timescaledb"}

// detect names the format of the files by their extensions (inside a
// .gz: x.csv.gz is CSV): .csv and .tsv are csv, .parquet parquet, .lp
// (.line, .influx) influx, .jsonl (.ndjson) and .prom prometheus; a .txt
// file or one of another extension by its first line (sniff).
// IoT-benchmark's data directories are named by iot-benchmark's own
// layout (iotbench.go).
func detect(files []string) (string, error) {
	if isIoTBenchmark(files) {
		return "iot-benchmark", nil
	}
	format := ""
	for _, f := range files {
		var this string
		switch innerExt(f) {
		case ".csv", ".tsv":
			this = "csv"
		case ".parquet", ".parq":
			this = "parquet"
		case ".lp", ".line", ".influx":
			this = "influx"
		case ".jsonl", ".ndjson", ".prom":
			this = "prometheus"
		default:
			this = sniff(f)
			if this == "" && innerExt(f) == ".txt" {
				this = "csv"
			}
			if this == "" {
				return "", &InputError{File: f, Msg: "unknown format: name it .csv, .parquet, .lp (line protocol), .jsonl (Prometheus export) or .prom (Prometheus exposition), " +
					"or give DATA_FORMAT (--data-format " + strings.Join(Formats[1:], "|") + ")"}
			}
		}
		if this == "parquet" && isGzip(f) {
			return "", &InputError{File: f, Msg: "a gzip-compressed Parquet file: Parquet compresses its own pages; give the .parquet file"}
		}
		if format != "" && this != format {
			return "", &InputError{File: f, Msg: fmt.Sprintf("a %s file among %s files: replay one format at a time", this, format)}
		}
		format = this
	}
	return format, nil
}

// sniff names a file's format by its first data line: a JSON object with
// a "metric" is a Prometheus export, and # HELP, # TYPE or a sample
// (metric{label="v"} 1.5) Prometheus text exposition; an InfluxDB
// export's header, or a line that parses as line protocol with a
// timestamp, is line protocol. "" when none.
func sniff(name string) string {
	in, err := openInput(name)
	if err != nil {
		return ""
	}
	defer in.Close()
	br := bufio.NewReader(io.LimitReader(in, 1<<20))
	for {
		line, err := br.ReadString('\n')
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "# INFLUXDB EXPORT"), t == "# DDL", t == "# DML":
			return "influx"
		case expositionComment(t):
			return "prometheus" // text exposition, OpenMetrics (expfmt.go)
		case t == "" || strings.HasPrefix(t, "#"):
		case isTSBSTimescale(t):
			return "timescaledb" // TSBS's timescaledb data file (tsbs_timescaledb.go)
		case strings.HasPrefix(t, "{") && strings.Contains(t, `"metric"`), isExpositionSample(t):
			return "prometheus"
		default:
			var p lpLine
			if parseLP([]byte(t), &p) == nil && p.hasTime {
				return "influx"
			}
			return ""
		}
		if err != nil {
			return ""
		}
	}
}

// groupOf is the storage group of device number p.
func (o ImportOptions) groupOf(p int) int {
	if o.Groups <= 1 {
		return 0
	}
	return p % o.Groups
}

// groups names the storage groups of n devices.
func (o ImportOptions) groups(n int) []string {
	k := max(1, min(o.Groups, n))
	prefix := o.GroupPrefix
	if prefix == "" {
		prefix = "g_"
	}
	out := make([]string, k)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}

// SplitColumns reads a comma-separated list of column names
// (DATA_DEVICE_COLUMNS, DATA_SENSOR_COLUMNS); empty gives none.
func SplitColumns(text string) []string {
	var out []string
	for _, c := range strings.Split(text, ",") {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	return out
}
