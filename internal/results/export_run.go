package results

// Exporting one stored run in the format 'tsbench runs export' is asked
// for: its summary JSON, CSV files, or an HdrHistogram
// log.

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/summary"
)

// ExportFormats are the formats Export takes.
var ExportFormats = []string{"csv", "json", "hdr"}

// KnownExportFormat reports whether format is one of ExportFormats.
func KnownExportFormat(format string) bool { return slices.Contains(ExportFormats, format) }

// Export exports s as format to out: a file (json, hdr; "" is stdout) or a
// directory (csv; "" is ./tsbench-<run id>). What it wrote is said on
// stdout.
func Export(stdout io.Writer, s *summary.Summary, format, out string) error {
	switch format {
	case "json":
		if out == "" {
			return ExportJSON(stdout, s)
		}
		if err := report.WriteJSON(out, s); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Wrote %s\n", out)
	case "csv":
		dir := out
		if dir == "" {
			dir = "tsbench-" + s.RunID
		}
		files, err := WriteCSV(dir, s)
		if err != nil {
			return err
		}
		for _, f := range files {
			fmt.Fprintf(stdout, "Wrote %s\n", f)
		}
	case "hdr":
		if out == "" {
			_, err := WriteHDRLog(stdout, s)
			return err
		}
		return writeHDRFile(stdout, s, out)
	default:
		return fmt.Errorf("--format %q: allowed: csv, json, hdr", format)
	}
	return nil
}

// ExportJSON prints s as indented JSON, as summary.json holds it.
func ExportJSON(w io.Writer, s *summary.Summary) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func writeHDRFile(stdout io.Writer, s *summary.Summary, path string) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	n, err := WriteHDRLog(fh, s)
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Wrote %s (%d histograms)\n", path, n)
	return nil
}
