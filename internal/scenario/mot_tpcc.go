package scenario

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/summary"
)

// mot-tpcc is MogDB MOT's TPC-C study (seed 004): BenchmarkSQL's interactive
// SQL, tpmC by number of connections, and in-memory (MOT) against disk
// tables.
//
// Mapping: the disk phases sweep the connections (1 to 16 terminals, the
// study's figure 3 went to 768+ on 256 cores) over logged tables; the
// memory phase is an analogue of MOT, not MOT: PostgreSQL UNLOGGED tables
// (no write-ahead log) in a tablespace on tmpfs (scripts/services/postgres.sh
// creates tsbench_tmpfs), at the sweep's largest connection count. The
// published figures are the single-node ones of the 2-socket, 128-core ARM
// server, where MOT reached 3.8M tpmC and disk tables 1.5M, so per core
// 30,000 and 11,700. --scale multiplies the warehouses (10 at scale 1).
func init() {
	// The study gives neither warehouses nor connections for these peaks, so
	// they are context: the sweep and the memory/disk ratio compare.
	tpcc := func(rate float64, studied string) Figure {
		return Figure{Rate: rate, Unit: "tpmC", Studied: studied, Seed: "004",
			Conditions: "single node, 2-socket ARM Kunpeng 920, 128 cores, BenchmarkSQL interactive SQL, synchronous logging",
			Context:    "the study gives no warehouse count or connections for this peak",
			Quote:      "For a Single Node - 3.8M tpmC for MOT tables versus 1.5M tpmC for disk-based tables"}
	}
	disk := tpcc(1_500_000, "MogDB disk tables")
	memory := tpcc(3_800_000, "MogDB MOT tables (here: PostgreSQL UNLOGGED tables on tmpfs, an analogue of MOT, not MOT)")
	var phases []Phase
	for _, n := range motConnections {
		phases = append(phases, Phase{Name: "disk-" + strconv.Itoa(n), Operation: "NEW_ORDER", PerUnit: perMinute,
			Scale: []string{"TPCC_WAREHOUSES"}, Settings: map[string]string{"CLIENT_NUMBER": strconv.Itoa(n)}, Published: disk})
	}
	last := motConnections[len(motConnections)-1]
	phases = append(phases, Phase{Name: "memory-" + strconv.Itoa(last), Operation: "NEW_ORDER", PerUnit: perMinute,
		Scale: []string{"TPCC_WAREHOUSES"}, Published: memory, Settings: map[string]string{"CLIENT_NUMBER": strconv.Itoa(last),
			"TPCC_TABLES": "unlogged", "TPCC_TABLESPACE": "tsbench_tmpfs"}})
	Register(&Scenario{
		Name:        "mot-tpcc",
		Description: "MOT TPC-C: tpmC by connections on disk tables, then an in-memory analogue (PostgreSQL UNLOGGED on tmpfs)",
		Source:      "seed 004: MogDB MOT performance benchmarks (BenchmarkSQL, interactive SQL)",
		Hardware:    "ARM Kunpeng 920, 2 sockets, 128 cores, 800 GB RAM, NVMe; client on another machine, 10 GbE",
		ServerCores: 128,
		System:      "postgres",
		Settings: map[string]string{"WORKLOAD": "tpcc", "TPCC_WAREHOUSES": "10", "DURATION": "60s",
			"TPCC_LOAD": "auto", "TPCC_TABLES": "logged", "TPCC_TABLESPACE": ""},
		Phases: phases,
		Extra:  motExtra,
	})
}

// motConnections are the disk phases' terminal counts.
var motConnections = []int{1, 2, 4, 8, 16}

// perMinute makes a phase's rate per minute: with PerUnit 1/60 a
// New-Order count over seconds reads as New-Orders per minute (tpmC).
const perMinute = 1.0 / 60

// Published latency and speed-up of MOT over disk tables (seed 004).
const (
	motP90MS          = 10.5
	diskP90LowMS      = 23
	diskP90HighMS     = 25
	motSpeedupLow     = 2.5
	motSpeedupHigh    = 4.1
	motPeakTpmC256    = 4_800_000
	motPeakConnection = 768
)

// motExtra prints the connections sweep and the in-memory analogue against
// disk tables at the same connections, published beside measured.
func motExtra(w io.Writer, runs []PhaseRun) []summary.SweepPoint {
	var sweep []summary.SweepPoint
	var mem, diskSame *summary.SweepPoint
	mode := ""
	for _, r := range runs {
		s := r.Summary
		if s == nil || s.TPCC == nil || s.Interrupted {
			continue
		}
		mode = s.TPCC.Mode
		p := summary.SweepPoint{Label: r.Phase.Name, Connections: s.TPCC.Terminals, TpmC: s.TPCC.TpmC, P90MS: p90All(s)}
		if s.TPCC.Tables == "unlogged" {
			mem = &p
			continue
		}
		sweep = append(sweep, p)
	}
	if len(sweep) == 0 {
		return nil
	}
	fmt.Fprintln(w, "-----------------------------------------TPC-C by connections (disk tables)-----------------------------------------")
	fmt.Fprintf(w, "  TPCC_MODE %s: %s\n", mode, modeNote(mode))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PHASE\tCONNECTIONS\ttpmC\tP90 MS (all transactions)")
	for i := range sweep {
		p := &sweep[i]
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%.2f\n", p.Label, p.Connections, p.TpmC, p.P90MS)
		if mem != nil && p.Connections == mem.Connections {
			diskSame = p
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "  published (figure 3, MOT on 256 ARM cores): peak %d tpmC at %d connections\n", motPeakTpmC256, motPeakConnection)
	if mem == nil || diskSame == nil {
		return sweep
	}
	fmt.Fprintln(w, "-----------------------------------------In-memory analogue vs disk tables-----------------------------------------")
	fmt.Fprintln(w, "  (PostgreSQL UNLOGGED tables on tmpfs stand in for MOT: no write-ahead log, no disk; MOT is a different engine)")
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FIGURE\tPUBLISHED\tMEASURED")
	ratio := 0.0
	if diskSame.TpmC > 0 {
		ratio = mem.TpmC / diskSame.TpmC
	}
	fmt.Fprintf(tw, "tpmC in memory / on disk\t%.1f-%.1fx\t%.2fx (%d connections)\n", motSpeedupLow, motSpeedupHigh, ratio, mem.Connections)
	fmt.Fprintf(tw, "p90 latency in memory (ms)\t%.1f\t%.2f\n", motP90MS, mem.P90MS)
	fmt.Fprintf(tw, "p90 latency on disk (ms)\t%d-%d\t%.2f\n", diskP90LowMS, diskP90HighMS, diskSame.P90MS)
	tw.Flush()
	return sweep
}

// modeNote says how a mode compares with the study's BenchmarkSQL, which
// sends interactive SQL with the stock updates and order lines batched.
func modeNote(mode string) string {
	switch mode {
	case "interactive":
		return "one statement per round trip"
	case "procedures":
		return "each transaction one call of a server-side function (as HammerDB runs TPC-C), not the study's interactive SQL"
	}
	return "statements that do not need each other's answers share a round trip, as BenchmarkSQL's batches do"
}

// p90All is the 90th-percentile latency over all transaction types, from
// the merged histograms of the run's rows (the study's "transaction
// average" figure is over the whole mix).
func p90All(s *summary.Summary) float64 {
	h := mergedHistogram(s.Operations)
	if h == nil {
		return 0
	}
	return float64(h.ValueAtQuantile(90)) / 1000
}

// mergedHistogram merges the rows' HDR histograms; nil when none decodes.
func mergedHistogram(ops []summary.Operation) *hdrhistogram.Histogram {
	var all *hdrhistogram.Histogram
	for _, o := range ops {
		h, err := metrics.Decode(o.Histogram)
		if err != nil || h == nil {
			continue
		}
		if all == nil {
			all = metrics.NewHistogram()
		}
		all.Merge(h)
	}
	return all
}
