//go:build unix

package dataset

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// importBytesEnv sets the size of BenchmarkImportLarge's file in MB: CI
// runs it once at the default; the 1 GB figure is measured by hand with
// TSBENCH_IMPORT_MB=1024.
const importBytesEnv = "TSBENCH_IMPORT_MB"

// maxImportRSS is the peak resident memory an import may reach, whatever
// the file's size: the file is streamed, the sort spills to disk.
const maxImportRSS = 300 << 20

// writeLargeCSV writes a wide CSV file of about size bytes: 100 devices,
// 8 DOUBLE sensors, a text time ("2006-01-02 15:04:05") each second, the
// devices' rows interleaved as a time-sorted export's are. It returns the
// rows written.
func writeLargeCSV(tb testing.TB, path string, size int64) int64 {
	var rows int64
	writeCSVFile(tb, path, "timestamp,device,s0,s1,s2,s3,s4,s5,s6,s7", func(w *bufio.Writer, start time.Time) {
		var written int64
		line := make([]byte, 0, 256)
		for t := 0; written < size; t++ {
			ts := start.Add(time.Duration(t) * time.Second).Format(time.DateTime)
			for d := 0; d < 100 && written < size; d++ {
				line = append(line[:0], ts...)
				line = append(line, ",dev_"...)
				line = strconv.AppendInt(line, int64(d), 10)
				for s := 0; s < 8; s++ {
					line = append(line, ',')
					line = strconv.AppendFloat(line, float64((t*7+d*13+s*101)%100000)/100, 'f', 2, 64)
				}
				line = append(line, '\n')
				w.Write(line)
				written += int64(len(line))
				rows++
			}
		}
	})
	return rows
}

// writeCSVFile writes a large CSV file at path, buffered: its header line,
// then the lines body writes, whose times start at 2024-01-01 00:00:00.
func writeCSVFile(tb testing.TB, path, header string, body func(w *bufio.Writer, start time.Time)) {
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(header + "\n")
	body(w, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

// peakRSS reads the process's peak resident memory (VmHWM), in bytes; -1
// where /proc does not say.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return -1
}

// cpuSeconds is the CPU time the process has used, user and system.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// resetPeakRSS starts VmHWM again from the current RSS (Linux: writing 5
// to clear_refs), so that the peak measured is the import's.
func resetPeakRSS() {
	debug.FreeOSMemory()
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// writeLongBySeries writes a long CSV file of about size bytes, sorted by
// series as most exports are (every point of one device and sensor, then
// the next): 100 devices, 8 sensors, a point each second. The import must
// reorder all of it, through the sort's runs on disk. It returns the rows
// the points make.
func writeLongBySeries(tb testing.TB, path string, size int64) int64 {
	const lineBytes = 39 // "2024-01-01 00:00:00,dev_42,s3,123.45\n", about
	times := max(1, size/(100*8*lineBytes))
	writeCSVFile(tb, path, "time,device,sensor,value", func(w *bufio.Writer, start time.Time) {
		line := make([]byte, 0, 64)
		for d := 0; d < 100; d++ {
			for s := 0; s < 8; s++ {
				for t := int64(0); t < times; t++ {
					line = start.Add(time.Duration(t)*time.Second).AppendFormat(line[:0], time.DateTime)
					line = append(line, ",dev_"...)
					line = strconv.AppendInt(line, int64(d), 10)
					line = append(line, ",s"...)
					line = strconv.AppendInt(line, int64(s), 10)
					line = append(line, ',')
					line = strconv.AppendFloat(line, float64((t*7+int64(d)*13+int64(s)*101)%100000)/100, 'f', 2, 64)
					line = append(line, '\n')
					w.Write(line)
				}
			}
		}
	})
	return 100 * times
}

// BenchmarkImportLarge imports generated CSV files (16 MB, or
// TSBENCH_IMPORT_MB) and reports rows/s and the peak RSS of the import,
// which must stay under 300 MB whatever the size: a wide file in time
// order, and a long file sorted by series.
func BenchmarkImportLarge(b *testing.B) {
	mb := int64(16)
	if v := os.Getenv(importBytesEnv); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			b.Fatalf("%s=%q: want a size in MB", importBytesEnv, v)
		}
		mb = n
	}
	for _, layout := range []struct {
		name  string
		write func(testing.TB, string, int64) int64
	}{{"wide", writeLargeCSV}, {"long-by-series", writeLongBySeries}} {
		b.Run(layout.name, func(b *testing.B) {
			dir := b.TempDir()
			src := filepath.Join(dir, "large.csv")
			rows := layout.write(b, src, mb<<20)
			st, err := os.Stat(src)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				importLarge(b, src, filepath.Join(dir, fmt.Sprint("ds", i)), rows, st.Size())
			}
		})
	}
}

// importLarge imports src, checks the rows and the peak RSS, and reports
// the rates.
func importLarge(b *testing.B, src, out string, rows, size int64) {
	defer os.RemoveAll(out)
	runtime.GC()
	resetPeakRSS()
	t0, cpu0 := time.Now(), cpuSeconds()
	m, err := Import(src, out, ImportOptions{})
	if err != nil {
		b.Fatal(err)
	}
	secs, cpu := time.Since(t0).Seconds(), cpuSeconds()-cpu0
	peak := peakRSS()
	if m.Rows != rows || len(m.Devices) != 100 || len(m.Sensors) != 8 || m.DuplicateRows != 0 {
		b.Fatalf("imported %d rows of %d devices x %d sensors (%d duplicates), want %d rows of 100 x 8",
			m.Rows, len(m.Devices), len(m.Sensors), m.DuplicateRows, rows)
	}
	b.ReportMetric(float64(rows)/secs, "rows/s")
	b.ReportMetric(float64(size)/secs/1e6, "MB/s")
	if cpu > 0 {
		// On a shared machine the wall rate says little: the rate per
		// second of CPU is the importer's own.
		b.ReportMetric(float64(rows)/cpu, "rows/cpu-s")
	}
	if peak > 0 {
		b.ReportMetric(float64(peak)/(1<<20), "peakRSS_MB")
		if peak > maxImportRSS {
			b.Fatalf("peak RSS %d MB importing %d MB: over %d MB", peak>>20, size>>20, maxImportRSS>>20)
		}
	}
}
