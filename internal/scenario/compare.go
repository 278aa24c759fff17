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
	Seconds float64 // the measured phase's elapsed time
	Points  int64   // okPoint of the phase's operation row
	// Operations is okOperation of that row: the units of a phase whose
	// figure counts queries, whose points are only their answers'.
	Operations    int64
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
	// figure is shown as context).
	System    string `json:"system,omitempty"`
	OwnFigure bool   `json:"own_figure"`
	Seconds   Stats  `json:"seconds"`
	// Rate is the measured units per second: Mean is the mean units over the
	// mean seconds, as the studies compute their rates (HAKOM: mean time of
	// n=10); Std, Min and Max are those of the runs' own rates.
	Rate  Stats   `json:"rate"`
	Units float64 `json:"units"` // mean units (events, samples, points) a run moved
	// SizeRatio is Units over the published figure's size, 0 when the study
	// does not give one.
	SizeRatio float64 `json:"size_ratio,omitempty"`
	// RateRatio is measured / published rate, only between like and like:
	// the target's own system family, a figure the study published (derived
	// ones live only in Figure.Derived's text), not context. 0 = not comparable.
	RateRatio float64 `json:"rate_ratio"`
	// SecondsRatio compares times, only at the published data size.
	SecondsRatio float64 `json:"seconds_ratio,omitempty"`
	// Per-core rates: the study's (its own per-core figure, or its rate over
	// its server's cores, then PerCoreDerived), and the measured rate over the
	// cores given for the measured server (this machine's, or --server-cores).
	PublishedPerCore float64 `json:"published_per_core,omitempty"`
	PerCoreDerived   bool    `json:"per_core_derived,omitempty"`
	MeasuredPerCore  float64 `json:"measured_per_core,omitempty"`
	PerCoreRatio     float64 `json:"per_core_ratio,omitempty"`
	BytesPerPoint    Stats   `json:"bytes_per_point"`
	// ScaleNote says where --scale could not be met without changing the
	// study's request shape; Context are the study's figures shown beside.
	ScaleNote string   `json:"scale_note,omitempty"`
	Context   []Figure `json:"context,omitempty"`

	pair       string
	level      float64
	compressed bool
}

// Table compares measurements of target (indexed by phase, then repetition)
// with the published figures, the target's own where the study has them.
// Preparation, analytics and mixed-operation phases are left out.
func (s *Scenario) Table(variant, target string, scale float64, measured [][]Measurement, serverCores int) []Row {
	var rows []Row
	for i, p := range s.Phases {
		if p.Prepare || p.Analytics != nil || mixed(p) || i >= len(measured) || len(measured[i]) == 0 {
			continue
		}
		pub, own := s.PublishedBy(i, variant, target)
		r := Row{Phase: p.Name, Unit: pub.Unit, Published: pub, System: s.systemOf(pub), OwnFigure: own,
			ScaleNote: s.ScaleNote(i, variant, scale), Context: p.Context, pair: p.Pair, level: p.Level, compressed: p.Compressed}
		if r.Unit == "" {
			r.Unit = "points/s"
		}
		r.measure(measured[i], perUnit(p), r.Unit == summary.UnitQueries)
		r.compare(pub, own)
		if pub.PerCore > 0 {
			r.PublishedPerCore = pub.PerCore
		} else if s.ServerCores > 0 && pub.Rate > 0 {
			r.PublishedPerCore, r.PerCoreDerived = pub.Rate/float64(s.ServerCores), true
		}
		if serverCores > 0 {
			r.MeasuredPerCore = r.Rate.Mean / float64(serverCores)
		}
		if comparable(pub, own) && pub.PerCore > 0 {
			r.PerCoreRatio = r.MeasuredPerCore / pub.PerCore
		}
		rows = append(rows, r)
	}
	return rows
}

func perUnit(p Phase) float64 {
	if p.PerUnit == 0 {
		return 1
	}
	return p.PerUnit
}

// mixed reports a phase that runs several operations (Q1..Q10): its
// operation's points over the whole phase's time are no rate of anything.
func mixed(p Phase) bool {
	n := 0
	for _, w := range strings.Split(p.Settings["OPERATION_PROPORTION"], ":") {
		if w != "" && w != "0" {
			n++
		}
	}
	return n > 1
}

// measure summarises the runs; the mean rate is mean units over mean
// seconds, the way the studies computed theirs. The units are points, or
// the operations themselves when the figure counts queries.
func (r *Row) measure(ms []Measurement, per float64, queries bool) {
	var secs, rates, units, bpp []float64
	for _, m := range ms {
		n := m.Points
		if queries {
			n = m.Operations
		}
		secs = append(secs, m.Seconds)
		units = append(units, float64(n)/per)
		if m.BytesPerPoint > 0 {
			bpp = append(bpp, m.BytesPerPoint)
		}
		if m.Seconds > 0 {
			rates = append(rates, float64(n)/per/m.Seconds)
		}
	}
	r.Seconds, r.Rate, r.BytesPerPoint = Summarise(secs), Summarise(rates), Summarise(bpp)
	r.Units = Summarise(units).Mean
	if r.Seconds.Mean > 0 && r.Rate.N > 0 {
		r.Rate.Mean = r.Units / r.Seconds.Mean
	}
}

// comparable says whether a published figure may be set against a
// measurement of the target as a ratio.
func comparable(pub Figure, own bool) bool {
	return own && pub.Context == ""
}

func (r *Row) compare(pub Figure, own bool) {
	if pub.Size > 0 {
		r.SizeRatio = r.Units / pub.Size
	}
	if !comparable(pub, own) || r.Rate.N == 0 {
		return
	}
	if pub.Rate > 0 {
		r.RateRatio = r.Rate.Mean / pub.Rate
	}
	if pub.Seconds > 0 && pub.Size > 0 && math.Abs(r.SizeRatio-1) < 0.01 {
		r.SecondsRatio = r.Seconds.Mean / pub.Seconds
	}
}

// PrintTable writes the published-vs-measured table and, under it, each
// figure's source and conditions and what was not compared and why.
func (s *Scenario) PrintTable(w io.Writer, rows []Row, scale float64, serverCores int, where string) error {
	fmt.Fprintf(w, "-----------------------------------------Published vs measured: %s-----------------------------------------\n", s.Name)
	fmt.Fprintf(w, "Study: %s\nStudy hardware: %s\n", s.Source, s.Hardware)
	fmt.Fprintf(w, "Measured: %s, scale %g, per-core figures over %d server cores\n", where, scale, serverCores)
	fmt.Fprintln(w, "RATIO: measured/published, only against the target's own system family and a figure the study published; SIZE: measured units/published units")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PHASE\tUNIT\tPUBLISHED\tMEASURED\tSTD\tMIN\tMAX\tN\tRATIO\tSIZE\tPUB/CORE\tMEAS/CORE\tSECONDS (mean)\tPUB SECONDS\tS RATIO\tBYTES/POINT")
	for _, r := range rows {
		pubCore := num(r.PublishedPerCore)
		if r.PerCoreDerived {
			pubCore += " (derived)"
		}
		rat := ratio(r.RateRatio)
		if r.PerCoreRatio > 0 {
			rat = ratio(r.PerCoreRatio) + " per core"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f\t%.1f\t%.1f\t%.1f\t%d\t%s\t%s\t%s\t%.1f\t%.4g\t%s\t%s\t%s\n",
			r.Phase, r.Unit, num(r.Published.Rate), r.Rate.Mean, r.Rate.Std, r.Rate.Min, r.Rate.Max, r.Rate.N,
			rat, sizeRatio(r.SizeRatio), pubCore, r.MeasuredPerCore, r.Seconds.Mean, secs(r.Published.Seconds),
			ratio(r.SecondsRatio), num(r.BytesPerPoint.Mean))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rows {
		s.printNotes(w, r)
	}
	for _, p := range s.Phases {
		if mixed(p) && !p.Prepare {
			fmt.Fprintf(w, "  %s: no row: %s is one of several operations in this phase, so its points over the phase's time are no rate of it (see the phase's own matrices)\n", p.Name, p.Operation)
			if p.Published.Note != "" {
				fmt.Fprintf(w, "    published: %s\n", p.Published.Note)
			}
		}
	}
	return nil
}

func (s *Scenario) printNotes(w io.Writer, r Row) {
	if r.Published.Note != "" {
		fmt.Fprintf(w, "  %s: %s\n", r.Phase, r.Published.Note)
	}
	if !r.OwnFigure && r.Published.Rate+r.Published.Seconds+r.Published.PerCore > 0 {
		fmt.Fprintf(w, "    not compared: the figure is %s's (target %s stands for it), not the measured target's\n", r.Published.Studied, r.System)
	}
	if r.PerCoreDerived {
		fmt.Fprintf(w, "    PUB/CORE derived: published rate / %d server cores\n", s.ServerCores)
	}
	if r.ScaleNote != "" {
		fmt.Fprintf(w, "    scale: %s\n", r.ScaleNote)
	}
	for _, c := range r.Context {
		fmt.Fprintf(w, "    context: %s\n", contextLine(c))
	}
}

func contextLine(f Figure) string {
	var v []string
	if f.Rate > 0 {
		v = append(v, fmt.Sprintf("%s %s", num(f.Rate), f.Unit))
	}
	if f.Seconds > 0 {
		v = append(v, secs(f.Seconds)+" s")
	}
	return strings.Join(append(v, f.Note), "; ")
}

// The comparison's number formats: a zero is a figure not known (not in
// the study, or not measured) and shows as "-".
func num(v float64) string       { return formatKnown("%.1f", v) }
func ratio(v float64) string     { return formatKnown("%.3f", v) }
func sizeRatio(v float64) string { return formatKnown("%.3g", v) }
func secs(v float64) string      { return formatKnown("%.4g", v) }

func formatKnown(format string, v float64) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprintf(format, v)
}

// BreakEven is where compression starts to pay for one kind of request,
// as the study found it and as measured.
type BreakEven struct {
	Pair string `json:"pair"`
	// Levels lists, per change ratio, the compressed and uncompressed mean
	// seconds, measured and published.
	Levels []BreakEvenLevel `json:"levels"`
	// From is the lowest level from which compressed is faster at every
	// higher level; 0 when it never is. PublishedFrom is the same over the
	// study's times.
	From          float64 `json:"from"`
	PublishedFrom float64 `json:"published_from"`
}

// BreakEvenLevel compares one level.
type BreakEvenLevel struct {
	Level                  float64 `json:"level"`
	Compressed             float64 `json:"compressed_s"`
	Uncompressed           float64 `json:"uncompressed_s"`
	PublishedCompressed    float64 `json:"published_compressed_s,omitempty"`
	PublishedUncompressed  float64 `json:"published_uncompressed_s,omitempty"`
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
			l.Compressed, l.CompressedBytesPerPt, l.PublishedCompressed = r.Seconds.Mean, r.BytesPerPoint.Mean, r.Published.Seconds
		} else {
			l.Uncompressed, l.UncompressedBytesPerPt, l.PublishedUncompressed = r.Seconds.Mean, r.BytesPerPoint.Mean, r.Published.Seconds
		}
	}
	var out []BreakEven
	for _, p := range pairs {
		be := BreakEven{Pair: p}
		for _, l := range byPair[p] {
			be.Levels = append(be.Levels, *l)
		}
		sort.Slice(be.Levels, func(i, j int) bool { return be.Levels[i].Level < be.Levels[j].Level })
		be.From = breakEven(be.Levels, func(l BreakEvenLevel) (float64, float64) { return l.Compressed, l.Uncompressed })
		be.PublishedFrom = breakEven(be.Levels, func(l BreakEvenLevel) (float64, float64) {
			return l.PublishedCompressed, l.PublishedUncompressed
		})
		out = append(out, be)
	}
	return out
}

// breakEven is the lowest level from which compressed is faster
// (strictly: the study asks where performance "becomes better") at every
// higher level; 0 when it never is.
func breakEven(levels []BreakEvenLevel, times func(BreakEvenLevel) (on, off float64)) float64 {
	from := 0.0
	for i := len(levels) - 1; i >= 0; i-- {
		on, off := times(levels[i])
		if on == 0 || off == 0 || on >= off {
			break
		}
		from = levels[i].Level
	}
	return from
}

// PrintBreakEvens writes the compression comparison: the study's break-even
// always, the measured one only when the target can switch compression.
func PrintBreakEvens(w io.Writer, bes []BreakEven, targetCompresses bool) {
	if len(bes) == 0 {
		return
	}
	fmt.Fprintln(w, "Compression break-even (mean seconds, compressed vs uncompressed):")
	for _, be := range bes {
		fmt.Fprintf(w, "  %s published (HAKOM TSM, seed 000): %s\n", be.Pair, paysFrom(be.PublishedFrom))
		if !targetCompresses {
			continue
		}
		for _, l := range be.Levels {
			fmt.Fprintf(w, "  %-6s %3.0f%% changed: %.3f s vs %.3f s", be.Pair, l.Level*100, l.Compressed, l.Uncompressed)
			if l.CompressedBytesPerPt > 0 || l.UncompressedBytesPerPt > 0 {
				fmt.Fprintf(w, ", %.2f vs %.2f bytes/point", l.CompressedBytesPerPt, l.UncompressedBytesPerPt)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "  %s measured: %s\n", be.Pair, paysFrom(be.From))
	}
	if !targetCompresses {
		fmt.Fprintln(w, "  measured: none: this target has no compression switch, so its compressed and uncompressed runs store alike")
	}
}

func paysFrom(level float64) string {
	if level == 0 {
		return "compression never pays in this range"
	}
	return fmt.Sprintf("compression pays from %.0f%% changed values", level*100)
}

// Figures turns the table into the published-vs-measured lines a run's
// summary carries (and the HTML report shows): the rate where the study
// published one, else its per-core rate, else the time. Ratio is 0 where
// the figures do not compare.
func (s *Scenario) Figures(rows []Row) []summary.PublishedFigure {
	var out []summary.PublishedFigure
	for _, r := range rows {
		f := summary.PublishedFigure{Label: r.Phase, Source: s.Source, Note: r.Published.Note}
		switch {
		case r.Published.Rate > 0:
			f.Unit, f.Published, f.Measured, f.Ratio = r.Unit, r.Published.Rate, r.Rate.Mean, r.RateRatio
		case r.Published.PerCore > 0:
			f.Unit, f.Published, f.Measured, f.Ratio = r.Unit+" per core", r.Published.PerCore, r.MeasuredPerCore, r.PerCoreRatio
		case r.Published.Seconds > 0:
			f.Unit, f.Published, f.Measured, f.Ratio = "s", r.Published.Seconds, r.Seconds.Mean, r.SecondsRatio
		default:
			continue
		}
		out = append(out, f)
	}
	return out
}
