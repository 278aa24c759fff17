package results

// Filling in and filing a run's summary: what is known
// before it measures (Partial), what only the command knows once it ended
// (Complete), its thresholds (Evaluate), and the files it is kept in: the
// run directory, --json and --hdr-log (SaveFiles).

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/sysinfo"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/threshold"
)

// Partial is what is known of a run before it starts: what the results
// store keeps until the run finishes. It is made before the run, so that
// reading the environment never delays the measured phase. version is
// tsbench's.
func Partial(cfg *config.Config, runID, label string, d *targets.Driver, version string) *summary.Summary {
	return &summary.Summary{SchemaVersion: summary.SchemaVersion, RunID: runID, Target: d.Name, Scenario: label,
		Started: time.Now().UTC(), StopReason: "running", OpenModel: cfg.Rate > 0,
		RatePerSecond: cfg.Rate, Config: config.Map(cfg), Environment: sysinfo.Environment(context.Background()),
		Tool: summary.Tool{Version: version}, Worker: WorkerShare(cfg)}
}

// WorkerShare is a scaled-out run's share as known before it starts; nil when
// the process runs alone.
func WorkerShare(cfg *config.Config) *summary.Worker {
	if !cfg.Scaled() {
		return nil
	}
	lo, hi := cfg.ClientRange()
	return &summary.Worker{Group: cfg.RunGroup, Index: cfg.WorkerIndex, Workers: cfg.Workers, Clients: [2]int{lo, hi}}
}

// Complete adds what only the command knows: identity, configuration,
// environment (keeping the server version the run found) and the tool's
// own cost.
func Complete(s *summary.Summary, cfg *config.Config, runID string, d *targets.Driver, dataPath, version string) {
	s.RunID = runID
	s.Target = d.Name
	s.Config = config.Map(cfg)
	s.DataPath = dataPath
	serverVersion := s.Environment.ServerVersion
	s.Environment = sysinfo.Environment(context.Background())
	s.Environment.ServerVersion = serverVersion
	u := sysinfo.SelfUsage()
	s.Tool = summary.Tool{Version: version, CPUSeconds: u.CPUSeconds, PeakRSSBytes: u.PeakRSSBytes,
		MeasuredCPUSeconds: s.Tool.MeasuredCPUSeconds} // the runner's
	if d.Server == "embedded" {
		s.Tool.EmbeddedEngine = d.Name
	}
	s.Tool.CPUSecondsPerMillionPoints = sysinfo.CPUPerMillionPoints(s.Tool.OperationsCPU(), s.OKPoints())
}

// Evaluate adds the verdict of each of cfg's thresholds. A run's were
// checked when its configuration was read; one a stored configuration
// holds that this tsbench no longer reads (a merge of older runs) is left
// out rather than judged.
func Evaluate(s *summary.Summary, cfg *config.Config) {
	for _, e := range cfg.Thresholds {
		if th, err := threshold.Syntax(e); err == nil {
			s.Thresholds = append(s.Thresholds, th.Evaluate(s))
		}
	}
}

// SaveFiles writes the run directory s.ResultsDir (summary.json, and the CSV
// files with CSV_OUTPUT), --json and, when hdrLogDir is set, the HDR log
// there. It returns the lines that say where the run went; a failure to
// save is reported on stderr but does not hide the printed result.
func SaveFiles(s *summary.Summary, cfg *config.Config, hdrLogDir string, stderr io.Writer) []string {
	if err := report.WriteJSON(filepath.Join(s.ResultsDir, "summary.json"), s); err != nil {
		fmt.Fprintf(stderr, "tsbench: could not save the run in %s: %v\n", s.ResultsDir, err)
	}
	if cfg.CSVOutput {
		if err := report.WriteCSV(s.ResultsDir, s); err != nil {
			fmt.Fprintf(stderr, "tsbench: could not write CSV files in %s: %v\n", s.ResultsDir, err)
		}
	}
	if cfg.JSONPath != "" {
		if err := report.WriteJSON(cfg.JSONPath, s); err != nil {
			fmt.Fprintf(stderr, "tsbench: could not write %s: %v\n", cfg.JSONPath, err)
		}
	}
	var lines []string
	if hdrLogDir != "" {
		if path, err := WriteHDRLogFile(hdrLogDir, s); err != nil {
			fmt.Fprintf(stderr, "tsbench: could not write the HDR log in %s: %v\n", hdrLogDir, err)
		} else {
			lines = append(lines, "HDR log: "+path)
		}
	}
	return append(lines, "Data: "+s.DataPath, "Results: "+s.ResultsDir)
}
