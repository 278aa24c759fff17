package scenario

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/tsbench/tsbench/internal/summary"
)

// Measurement is what one repetition of a phase measured.
type Measurement struct {
	Seconds       float64 // the measured phase's elapsed time
	Points        int64   // okPoint of the phase's operation row
	BytesPerPoint float64 // storage after the phase, when the target tells
}

// Stats summarises repeated measurements.
type Stats struct {
	N                   int
	Mean, Std, Min, Max float64
}

// Summarise computes mean, sample standard deviation, minimum and maximum.
func Summarise(xs []float64) Stats {
	st := Stats{N: len(xs), Min: math.Inf(1), Max: math.Inf(-1)}
	if len(xs) == 0 {
		return Stats{}
	}
	for _, x := range xs {
		st.Mean += x
		st.Min, st.Max = math.Min(st.Min, x), math.Max(st.Max, x)
	}
	st.Mean /= float64(len(xs))
	if len(xs) > 1 {
		for _, x := range xs {
			st.Std += (x - st.Mean) * (x - st.Mean)
		}
		st.Std = math.Sqrt(st.Std / float64(len(xs)-1))
	}
	return st
}

// Row is one line of the published-vs-measured table.
type Row struct {
	Phase     string `json:"phase"`
	Unit      string `json:"unit"`
	Published Figure `json:"published"`
	// System is the target the published figure belongs to; OwnFigure says
	// whether that is the measured target (else the study's main system's
	// figure is shown for reference).
	System    string  `json:"system,omitempty"`
	OwnFigure bool    `json:"own_figure"`
	Seconds   Stats   `json:"seconds"`
	Rate      Stats   `json:"rate"`       // measured units per second
	RateRatio float64 `json:"rate_ratio"` // measured mean rate / published rate; 0 = not comparable
	// SecondsRatio compares times; only at full size (scale 1).
	SecondsRatio float64 `json:"seconds_ratio,omitempty"`
	// Per-core rates: the study's server cores, and the cores given for the
	// measured server (this machine's, or --server-cores).
	PublishedPerCore float64 `json:"published_per_core,omitempty"`
	MeasuredPerCore  float64 `json:"measured_per_core,omitempty"`
	BytesPerPoint    Stats   `json:"bytes_per_point"`

	pair       string
	level      float64
	compressed bool
}

// Table compares measurements of target (indexed by phase, then repetition)
// with the published figures, the target's own where the study has them.
// Preparation phases are left out.
func (s *Scenario) Table(variant, target string, scale float64, measured [][]Measurement, serverCores int) []Row {
	var rows []Row
	for i, p := range s.Phases {
		if p.Prepare || p.Analytics != nil || i >= len(measured) || len(measured[i]) == 0 {
			continue
		}
		pub, own := s.PublishedBy(i, variant, target)
		per := p.PerUnit
		if per == 0 {
			per = 1
		}
		var secs, rates, bpp []float64
		for _, m := range measured[i] {
			secs = append(secs, m.Seconds)
			if m.BytesPerPoint > 0 {
				bpp = append(bpp, m.BytesPerPoint)
			}
			if m.Seconds > 0 {
				rates = append(rates, float64(m.Points)/per/m.Seconds)
			}
		}
		r := Row{Phase: p.Name, Unit: pub.Unit, Published: pub, System: s.systemOf(pub), OwnFigure: own, Seconds: Summarise(secs), Rate: Summarise(rates),
			BytesPerPoint: Summarise(bpp), pair: p.Pair, level: p.Level, compressed: p.Compressed}
		if r.Unit == "" {
			r.Unit = "points/s"
		}
		if pub.Rate > 0 && r.Rate.N > 0 {
			r.RateRatio = r.Rate.Mean / pub.Rate
		}
		if pub.Seconds > 0 && scale == 1 && r.Seconds.N > 0 {
			r.SecondsRatio = r.Seconds.Mean / pub.Seconds
		}
		if s.ServerCores > 0 && pub.Rate > 0 {
			r.PublishedPerCore = pub.Rate / float64(s.ServerCores)
		}
		if serverCores > 0 {
			r.MeasuredPerCore = r.Rate.Mean / float64(serverCores)
		}
		rows = append(rows, r)
	}
	return rows
}

// PrintTable writes the published-vs-measured table.
func (s *Scenario) PrintTable(w io.Writer, rows []Row, scale float64, serverCores int, where string) error {
	fmt.Fprintf(w, "-----------------------------------------Published vs measured: %s-----------------------------------------\n", s.Name)
	fmt.Fprintf(w, "Study: %s\nStudy hardware: %s\n", s.Source, s.Hardware)
	fmt.Fprintf(w, "Measured: %s, scale %g, per-core figures over %d server cores\n", where, scale, serverCores)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PHASE\tUNIT\tPUBLISHED\tMEASURED (mean)\tSTD\tMIN\tMAX\tN\tRATIO\tPUB/CORE\tMEAS/CORE\tSECONDS (mean)\tPUB SECONDS\tBYTES/POINT")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f\t%.1f\t%.1f\t%.1f\t%d\t%s\t%s\t%.1f\t%.4g\t%s\t%s\n",
			r.Phase, r.Unit, num(r.Published.Rate), r.Rate.Mean, r.Rate.Std, r.Rate.Min, r.Rate.Max, r.Rate.N,
			ratio(r.RateRatio), num(r.PublishedPerCore), r.MeasuredPerCore, r.Seconds.Mean, secs(r.Published.Seconds),
			num(r.BytesPerPoint.Mean))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rows {
		note := r.Published.Note
		if !r.OwnFigure && r.System != "" && r.Published.Rate+r.Published.Seconds > 0 {
			note = strings.TrimPrefix(note+"; ", "; ") + "published for " + r.System + ", not for the measured target"
		}
		if note != "" {
			fmt.Fprintf(w, "  %s: %s\n", r.Phase, note)
		}
	}
	return nil
}

func num(v float64) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", v)
}

func ratio(v float64) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", v)
}

func secs(v float64) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprintf("%.4g", v)
}

// BreakEven is where compression starts to pay for one kind of request.
type BreakEven struct {
	Pair string `json:"pair"`
	// Levels lists, per change ratio, the compressed and uncompressed mean
	// seconds.
	Levels []BreakEvenLevel `json:"levels"`
	// From is the lowest level from which compressed is at least as fast at
	// every higher level; 0 when it never is.
	From float64 `json:"from"`
}

// BreakEvenLevel compares one level.
type BreakEvenLevel struct {
	Level                  float64 `json:"level"`
	Compressed             float64 `json:"compressed_s"`
	Uncompressed           float64 `json:"uncompressed_s"`
	CompressedBytesPerPt   float64 `json:"compressed_bytes_per_point,omitempty"`
	UncompressedBytesPerPt float64 `json:"uncompressed_bytes_per_point,omitempty"`
}

// BreakEvens pairs compressed and uncompressed rows by Pair and level.
func BreakEvens(rows []Row) []BreakEven {
	byPair := map[string]map[float64]*BreakEvenLevel{}
	var pairs []string
	for _, r := range rows {
		if r.pair == "" {
			continue
		}
		if byPair[r.pair] == nil {
			byPair[r.pair] = map[float64]*BreakEvenLevel{}
			pairs = append(pairs, r.pair)
		}
		l := byPair[r.pair][r.level]
		if l == nil {
			l = &BreakEvenLevel{Level: r.level}
			byPair[r.pair][r.level] = l
		}
		if r.compressed {
			l.Compressed, l.CompressedBytesPerPt = r.Seconds.Mean, r.BytesPerPoint.Mean
		} else {
			l.Uncompressed, l.UncompressedBytesPerPt = r.Seconds.Mean, r.BytesPerPoint.Mean
		}
	}
	var out []BreakEven
	for _, p := range pairs {
		be := BreakEven{Pair: p}
		for _, l := range byPair[p] {
			be.Levels = append(be.Levels, *l)
		}
		sort.Slice(be.Levels, func(i, j int) bool { return be.Levels[i].Level < be.Levels[j].Level })
		for i := len(be.Levels) - 1; i >= 0 && be.Levels[i].Compressed <= be.Levels[i].Uncompressed; i-- {
			be.From = be.Levels[i].Level
		}
		out = append(out, be)
	}
	return out
}

// PrintBreakEvens writes the compression comparison.
func PrintBreakEvens(w io.Writer, bes []BreakEven, targetCompresses bool) {
	if len(bes) == 0 {
		return
	}
	fmt.Fprintln(w, "Compression break-even (mean seconds, compressed vs uncompressed):")
	if !targetCompresses {
		fmt.Fprintln(w, "  note: this target has no compression switch, so both columns measure the same storage")
	}
	for _, be := range bes {
		for _, l := range be.Levels {
			fmt.Fprintf(w, "  %-6s %3.0f%% changed: %.3f s vs %.3f s", be.Pair, l.Level*100, l.Compressed, l.Uncompressed)
			if l.CompressedBytesPerPt > 0 || l.UncompressedBytesPerPt > 0 {
				fmt.Fprintf(w, ", %.2f vs %.2f bytes/point", l.CompressedBytesPerPt, l.UncompressedBytesPerPt)
			}
			fmt.Fprintln(w)
		}
		if be.From > 0 {
			fmt.Fprintf(w, "  %s: compression pays from %.0f%% changed values\n", be.Pair, be.From*100)
		} else {
			fmt.Fprintf(w, "  %s: compression never pays in this range\n", be.Pair)
		}
	}
}

// Figures turns the table into the published-vs-measured lines a run's
// summary carries (and the HTML report shows): the rate where the study
// published one, else the time.
func (s *Scenario) Figures(rows []Row) []summary.PublishedFigure {
	var out []summary.PublishedFigure
	for _, r := range rows {
		f := summary.PublishedFigure{Label: r.Phase, Source: s.Source, Note: r.Published.Note}
		switch {
		case r.Published.Rate > 0:
			f.Unit, f.Published, f.Measured, f.Ratio = r.Unit, r.Published.Rate, r.Rate.Mean, r.RateRatio
		case r.Published.Seconds > 0:
			f.Unit, f.Published, f.Measured, f.Ratio = "s", r.Published.Seconds, r.Seconds.Mean, r.SecondsRatio
		default:
			continue
		}
		out = append(out, f)
	}
	return out
}
