// Package replay prepares the data a run replays (DATA): a dataset
// directory as it is, anything else imported once into the dataset cache,
// and the configuration fitted to it; and it writes a configuration's
// generated data as a dataset to replay ('tsbench generate'). Data that
// cannot be read or does not fit the run is bad input (badinput); other
// errors are failures.
package replay

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/dataset"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/workload"
)

// Open opens the data a run replays (DATA): a dataset directory as
// it is, anything else imported once into <data-dir>/datasets (kept, and
// reused while the files are unchanged). It fits the configuration to
// the data (devices, sensors, groups, and LOOP for one pass unless LOOP or
// a duration is given) and says whether the rows repeat.
func Open(cfg *config.Config, dataDir string, stderr io.Writer) (*dataset.Dataset, *summary.Replay, error) {
	rep := &summary.Replay{Source: cfg.Data}
	dir := cfg.Data
	if !dataset.IsDataset(dir) {
		var err error
		if dir, err = importData(cfg, dataDir, rep, stderr); err != nil {
			return nil, nil, err
		}
	}
	ds, err := dataset.Open(dir)
	if err != nil {
		return nil, nil, badinput.Errorf("DATA = %q: %v", cfg.Data, err)
	}
	rep.Dataset, rep.Format, rep.Devices, rep.Sensors = dir, ds.Format, len(ds.Devices), len(ds.Sensors)
	rep.Rows, rep.DuplicateRows, rep.MissingValues = ds.Rows, ds.DuplicateRows+ds.DroppedDuplicates, ds.Missing
	if ds.Rows > 0 {
		rep.FirstTime = time.UnixMilli(ds.MinTime).UTC().Format(time.RFC3339Nano)
		rep.LastTime = time.UnixMilli(ds.MaxTime).UTC().Format(time.RFC3339Nano)
	}
	if err := checkDuplicates(cfg, ds); err != nil {
		ds.Close()
		return nil, nil, err
	}
	if err := fitConfig(cfg, ds, stderr); err != nil {
		ds.Close()
		return nil, nil, err
	}
	// The rows start again when LOOP or a duration asks for more batches
	// than a device has; the summary says so only when they will.
	steps := workload.NewPlan(cfg.Weights(), cfg.Loop).Counts()[workload.Write]
	rep.Repeat = Repeats(cfg) && (cfg.LoopUnbounded || steps*int64(cfg.BatchSize) > ds.MaxRows())
	return ds, rep, nil
}

// maxDuplicateShare is the share of a file's rows that may repeat an
// earlier device and time before a replay refuses it: past it, the file
// is most likely read wrong (a time spanning two columns, a device column
// not found), and most of its points would vanish as repeats.
const maxDuplicateShare = 0.01

// checkDuplicates refuses data whose rows collide on (device, time) past
// maxDuplicateShare, unless DATA_DUPLICATES says what to do with them.
func checkDuplicates(cfg *config.Config, ds *dataset.Dataset) error {
	return CheckDuplicates(cfg, ds.DuplicateRows+ds.DroppedDuplicates, ds.Rows+ds.DroppedDuplicates, ds.DuplicateExample)
}

// CheckDuplicates is checkDuplicates of dup repeating rows among all, one
// pair of them named by example.
func CheckDuplicates(cfg *config.Config, dup, all int64, example string) error {
	if dup == 0 || cfg.DataDuplicates == "last" || cfg.DataDuplicates == "first" || float64(dup) <= maxDuplicateShare*float64(all) {
		return nil
	}
	return badinput.Errorf("DATA = %q: %d of its %d rows (%.1f %%) repeat an earlier device and time, e.g. %s: "+
		"their points would be stored once. Likely the time spans two columns (set DATA_TIME_COLUMN=year,quarter, say) "+
		"or a device column was not found (set DATA_DEVICE_COLUMNS); to replay it as it is, set DATA_DUPLICATES=last or first",
		cfg.Data, dup, all, 100*float64(dup)/float64(all), example)
}

// Clients is the CLIENT_NUMBER a replay of devices devices runs with.
func Clients(cfg *config.Config, devices int) int {
	if cfg.Origin("CLIENT_NUMBER") != "" || cfg.WriteWeight() == 0 {
		return cfg.Clients
	}
	return max(1, min(cfg.Clients, devices))
}

// CheckSparse refuses sparse data (empty cells) on a target that does not
// write it exactly: its missing values would be written as zeros, or
// counted wrong, and the run would measure and verify something else.
func CheckSparse(cfg *config.Config, d *targets.Driver, ds *dataset.Dataset) error {
	if !ds.Sparse() || d.Caps.Sparse {
		return nil
	}
	return badinput.Errorf("DATA = %q is sparse data (%d of its %d values missing: cells without a value), which the %s target does not write yet; "+
		"targets that take sparse data: %s", cfg.Data, ds.Missing, ds.Rows*int64(len(ds.Sensors)), d.Name, strings.Join(SparseTargets(), ", "))
}

// SparseTargets names the targets that write sparse data.
func SparseTargets() []string {
	var out []string
	for _, d := range targets.Drivers() {
		if d.Caps.Sparse {
			out = append(out, d.Name)
		}
	}
	return out
}

// Repeats reports whether a replay may start a device's rows again.
func Repeats(cfg *config.Config) bool { return cfg.Origin("LOOP") != "" || cfg.LoopUnbounded }

// importData imports cfg.Data into the dataset cache and returns the
// dataset's directory.
func importData(cfg *config.Config, dataDir string, rep *summary.Replay, stderr io.Writer) (string, error) {
	key, err := importKey(cfg)
	if err != nil {
		return "", badinput.Errorf("DATA = %q: %v", cfg.Data, err)
	}
	dir := filepath.Join(dataDir, "datasets", key)
	if dataset.IsDataset(dir) {
		return dir, nil
	}
	fmt.Fprintf(stderr, "tsbench: importing %s (once: kept in %s)\n", cfg.Data, dir)
	t0 := time.Now()
	m, err := dataset.Import(cfg.Data, dir, ImportOptions(cfg))
	if err != nil {
		os.RemoveAll(dir)
		if dataset.IsInputError(err) {
			return "", badinput.Errorf("DATA: %w", err)
		}
		return "", fmt.Errorf("DATA: %w", err)
	}
	rep.ImportSeconds = time.Since(t0).Seconds()
	fmt.Fprintf(stderr, "tsbench: imported %d rows of %d devices x %d sensors (%d duplicate rows) in %.2f s (%.0f rows/s)\n",
		m.Rows, len(m.Devices), len(m.Sensors), m.DuplicateRows, rep.ImportSeconds, float64(m.Rows)/max(rep.ImportSeconds, 1e-9))
	if m.Missing > 0 {
		fmt.Fprintf(stderr, "tsbench: note: sparse data: %d of %d values missing (no points; %d present)\n", m.Missing, m.Rows*int64(len(m.Sensors)), m.Points())
	}
	for _, n := range m.Notes {
		fmt.Fprintln(stderr, "tsbench: note:", n)
	}
	return dir, nil
}

// ImportOptions are the import settings of cfg's DATA_* keys.
func ImportOptions(cfg *config.Config) dataset.ImportOptions {
	return dataset.ImportOptions{Format: cfg.DataFormat, TimeUnit: cfg.DataTimeUnit,
		TimeFormat: cfg.DataTimeFormat, TimeZone: cfg.DataTimezone, Time: cfg.DataTime, TimeColumn: cfg.DataTimeColumn,
		TimeStart: cfg.DataTimeStart, TimeStep: cfg.DataTimeStep,
		DeviceColumns: dataset.SplitColumns(cfg.DataDeviceColumns), SensorColumns: dataset.SplitColumns(cfg.DataSensorColumns),
		Types: cfg.DataTypes, Groups: cfg.Groups, GroupPrefix: cfg.GroupPrefix,
		Missing: cfg.DataMissing, Duplicates: cfg.DataDuplicates, Delimiter: cfg.DataDelimiter, HeaderRows: cfg.DataHeaderRows}
}

// importVersion changes whenever the import turns the same file into
// another dataset (rows now sorted, devices and sensors ordered by name):
// a dataset cached by an older tsbench is then imported again.
const importVersion = 6 // 3: sparse data (empty cells) imported, not refused; 4: times, markers and row numbers read as written; 5: no time in 1970 by inference (YYYYMM months, years in a time column), zoned text times; 6: separators detected, units rows, --/NM/- markers, no device of markers

// importKey names an import by what decides its content: the importer's
// version, the files (path, size, modification time) and the import
// settings.
func importKey(cfg *config.Config) (string, error) {
	abs, err := filepath.Abs(cfg.Data)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "v%d\n%s\n%+v\n", importVersion, abs, ImportOptions(cfg))
	err = filepath.Walk(abs, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d %d\n", path, info.Size(), info.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// fitConfig makes the configuration describe the data: its devices,
// sensors and groups; and, unless LOOP or a duration says otherwise, LOOP
// such that every row is written once.
func fitConfig(cfg *config.Config, ds *dataset.Dataset, stderr io.Writer) error {
	if err := spreadReplay(cfg); err != nil {
		return err
	}
	cfg.Devices, cfg.Sensors, cfg.Groups = len(ds.Devices), len(ds.Sensors), len(ds.Groups)
	if err := fitClients(cfg, stderr); err != nil {
		return err
	}
	var counts [6]int64
	for _, s := range ds.Sensors {
		counts[s.Type]++
	}
	cfg.TypeProportion = counts
	if cfg.Origin("LOOP") == "" && !cfg.LoopUnbounded && cfg.WriteWeight() > 0 {
		cfg.Loop = onePass(cfg, ds.MaxRows())
	}
	if err := config.Resolve(cfg); err != nil {
		return badinput.Errorf("with DATA = %q (%d devices, %d sensors): %v", cfg.Data, cfg.Devices, cfg.Sensors, err)
	}
	return nil
}

// fitClients lowers CLIENT_NUMBER to the data's devices when the user did
// not set it: each writing client owns a device, and a file of one
// weather station has one. A CLIENT_NUMBER the user set is kept (and
// refused by Resolve if it cannot work).
func fitClients(cfg *config.Config, stderr io.Writer) error {
	if cfg.Origin("CLIENT_NUMBER") != "" || cfg.WriteWeight() == 0 || cfg.Clients <= cfg.Devices {
		return nil
	}
	why := fmt.Sprintf("the data has %d device(s), and each writing client owns at least one (the default is %d)", cfg.Devices, cfg.Clients)
	if err := config.Derive(cfg, "CLIENT_NUMBER", fmt.Sprint(cfg.Devices), why); err != nil {
		return badinput.Wrap(err)
	}
	fmt.Fprintf(stderr, "tsbench: CLIENT_NUMBER = %d: %s\n", cfg.Devices, why)
	return nil
}

// spreadReplay makes a replay run in the spread operation order: a replay
// writes each row of its file once, which IoT-benchmark's random draws
// (different write counts per client) would not. Only an explicit
// OPERATION_ORDER=random is refused; a .properties file's default gives
// way.
func spreadReplay(cfg *config.Config) error {
	if cfg.OperationOrder != workload.OrderRandom {
		return nil
	}
	if o := cfg.Origin("OPERATION_ORDER"); o != config.IoTBenchmarkOrigin {
		return badinput.Errorf("OPERATION_ORDER = random (%s): a replay (DATA = %q) writes every row of the file once, "+
			"which needs OPERATION_ORDER = spread; leave it out or set spread", o, cfg.Data)
	}
	if err := config.Derive(cfg, "OPERATION_ORDER", workload.OrderSpread, "a replay writes every row once"); err != nil {
		return badinput.Wrap(err)
	}
	return nil
}

// onePass is the LOOP whose write steps write every device's rows once:
// ceil(rows / BATCH_SIZE) write steps, the plan's write share of LOOP.
func onePass(cfg *config.Config, rows int64) int64 {
	steps := (rows + int64(cfg.BatchSize) - 1) / int64(cfg.BatchSize)
	var total int64
	for _, w := range cfg.Weights() {
		total += w
	}
	loop := (steps*total + cfg.WriteWeight() - 1) / cfg.WriteWeight()
	for workload.NewPlan(cfg.Weights(), loop).Counts()[workload.Write] < steps {
		loop++ // apportioning may round the write share down
	}
	return max(1, loop)
}

// WriteGenerated writes the generated workload of cfg as a dataset: every
// device's batches 0..W-1 (W the write steps of LOOP), exactly what a run
// of cfg writes, for 'tsbench run --data' to replay.
func WriteGenerated(cfg *config.Config, dir string, gen Generated) (*dataset.Manifest, error) {
	s := gen.Schema
	m := dataset.Manifest{Source: "generated", Format: "generated", Database: s.Database, Groups: s.Groups, Sensors: s.Sensors,
		Decimals: gen.Batch.Decimals, Generated: config.Map(cfg)}
	for _, d := range s.Devices {
		m.Devices = append(m.Devices, dataset.Device{Name: d.Name, Index: d.Index, Group: d.Group, Tags: d.Tags})
	}
	w, err := dataset.Create(dir, m)
	if err != nil {
		return nil, err
	}
	writes := workload.DeviceWriteSteps(cfg)
	for p := range s.Devices {
		for n := int64(0); n < writes[p]; n++ {
			gen.Fill(gen.Batch, &s.Devices[p], n)
			if err := w.Write(p, gen.Batch); err != nil {
				return nil, err
			}
		}
	}
	return w.Close()
}

// Generated is the generator of a configuration: its schema, one batch
// buffer, and Fill, which fills the buffer with a device's batch n.
type Generated struct {
	Schema *ts.Schema
	Batch  *ts.Batch
	Fill   func(b *ts.Batch, dev *ts.Device, n int64)
}
