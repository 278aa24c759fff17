// Package scenario holds named workloads, including re-runs of published
// studies (the seeds): a scenario is ordered phases, each a set of
// configuration values (IoT-benchmark's config.properties keys) on top of the
// scenario's own, with the figure the study published for it and the hardware
// it ran on. A new scenario is one new file that calls Register.
package scenario

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/ts"
)

// Figure is what a study published for one phase, with where it comes from
// and what it covered, so that it is only ever compared with a like figure.
type Figure struct {
	Seconds float64 // time the phase took, 0 = not published
	Rate    float64 // units per second, 0 = not published
	Unit    string  // what Rate counts: "points/s", "samples/s", "records/s", "events/s"
	// PerCore is a rate per database-server core when that is what the
	// study published (MOT's 10,000 records per core); Rate is then 0.
	PerCore float64
	// System is the tsbench target that stands for the system the study
	// measured ("iotdb", "hbase"); empty means the scenario's System.
	System string
	// Studied is the system as the study names it ("MySQL event store").
	Studied string
	// Size is how many units (events, points, samples, records) the figure
	// covers; 0 when the study does not say.
	Size float64
	// Conditions are the study's: nodes, receivers, analyzers, threads, batch.
	Conditions string
	// Seed and Quote are the source: the seed file's number ("003") and the
	// study's own words, shortened, found verbatim in that file.
	Seed, Quote string
	// Derived, when set, is a figure tsbench computed from the study's, with
	// its formula (HAKOM's rates from its times). It is text only: Seconds,
	// Rate and PerCore hold what the study published, nothing derived.
	Derived string
	// Context, when set, says why the figure is shown only as context and
	// never as a ratio (another data set, another kind of figure).
	Context string
	Remark  string // anything else worth knowing
	// Note is composed by Register from the fields above: what the listing,
	// the tables and the report print.
	Note string
}

// text composes a figure's description: system, size, conditions, what is
// derived or context only, and the source.
func (f Figure) text() string {
	var parts []string
	add := func(format, v string) {
		if v != "" {
			parts = append(parts, fmt.Sprintf(format, v))
		}
	}
	add("%s", f.Studied)
	if f.Size > 0 {
		add("%s", fmt.Sprintf("%s %s", count(f.Size), strings.TrimSuffix(f.Unit, "/s")))
	}
	add("%s", f.Conditions)
	add("%s", f.Remark)
	add("derived: %s", f.Derived)
	add("context only: %s", f.Context)
	if f.Seed != "" {
		parts = append(parts, fmt.Sprintf("seed %s: \"%s\"", f.Seed, oneLine(f.Quote)))
	}
	return strings.Join(parts, "; ")
}

// oneLine joins a quote's lines (the seeds keep slides' bullets on lines).
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// count writes a size the way the studies do: 10 M, 1.78 M, 133,360.
func count(n float64) string {
	switch {
	case n >= 1e9 && math.Mod(n, 1e6) == 0:
		return strconv.FormatFloat(n/1e9, 'f', -1, 64) + " B"
	case n >= 1e6 && math.Mod(n, 1e4) == 0:
		return strconv.FormatFloat(n/1e6, 'f', -1, 64) + " M"
	}
	s := strconv.FormatInt(int64(n), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Phase is one step of a scenario.
type Phase struct {
	Name     string
	Settings map[string]string // on top of the scenario's settings
	// Scale lists the keys --scale multiplies (rounded, at least 1).
	Scale []string
	// Operation is the matrix row that measures the phase: INGESTION or a
	// query row such as TIME_RANGE.
	Operation string
	// PerUnit is how many points make one published unit (a 4-field sample
	// of which 3 fields are values is 3 points); 0 means 1.
	PerUnit float64
	// Prepare marks a phase that only loads data for later phases: it runs
	// once and is not compared.
	Prepare   bool
	Published Figure
	// Others are the figures the study published for other systems in the
	// same phase, each with its System set (IoTDB's CRRC case also ran
	// KairosDB): a run against that target is compared with its own figure.
	Others []Figure
	// Context are figures the study published near this phase's that no
	// run compares with (Oracle's, or another data size): printed as context.
	Context []Figure
	// Pair, Level and Compressed place the phase in a compressed-vs-
	// uncompressed comparison (hakom-compression): phases with the same Pair
	// and Level differ only in compression.
	Pair       string
	Level      float64
	Compressed bool
	// Analytics, when set, makes the phase run these analytics queries
	// (AnalyticsRuns times each) on the data written so far instead of a
	// benchmark run; each answer is checked against the generator.
	Analytics          []ts.Analytic
	AnalyticsRuns      int
	AnalyticsPublished map[string]Figure // by query name
	// BreakPoint asks for the search of a sustained throughput drop in the
	// phase's per-second series (DAS saw one near 30 M events on MySQL).
	BreakPoint bool
	// Unsupported, when set, says why the phase cannot run (a TSBS query
	// type no tsbench query kind expresses): the run prints it and goes on.
	Unsupported string
}

// Scenario is a named workload.
type Scenario struct {
	Name        string
	Description string
	Source      string // the study it reproduces
	Hardware    string // the study's server hardware
	ServerCores int    // cores of the study's database server, 0 = unknown
	// System is the tsbench target standing for the system whose figures
	// are the phases' Published ones; empty when none does.
	System   string
	Settings map[string]string
	Phases   []Phase
	// Variants are named alternatives (--variant) that replace settings of
	// every phase, e.g. a week instead of half an hour.
	Variants map[string]Variant
	// SeeAlso names related scenarios (das-events: das-wikipedia).
	SeeAlso string
	// Repeat is the study's number of repetitions (HAKOM: n=10); --repeat
	// overrides it.
	Repeat int
	// Extra, when set, prints what the scenario compares beyond the
	// published-vs-measured table (mot-tpcc: its connections sweep and
	// in-memory against disk tables) and returns the sweep the report
	// charts, if any.
	Extra func(w io.Writer, runs []PhaseRun) []summary.SweepPoint
}

// PhaseRun is one finished run of a phase.
type PhaseRun struct {
	Phase   Phase
	Summary *summary.Summary
}

// Variant changes a scenario's settings and published figures.
type Variant struct {
	Description string
	Settings    map[string]string
	Published   map[string]Figure   // by phase name
	Others      map[string][]Figure // by phase name; replace the phase's Others
}

var registry = map[string]*Scenario{}

// Register makes a scenario known; scenario files call it from init.
func Register(s *Scenario) {
	if _, dup := registry[s.Name]; dup {
		panic("scenario: registered twice: " + s.Name) // programming error
	}
	s.compose()
	registry[s.Name] = s
}

// compose fills every figure's Note from its parts, so that every printer,
// including ones outside this package, shows the source and conditions.
func (s *Scenario) compose() {
	note := func(f *Figure) { f.Note = f.text() }
	for i := range s.Phases {
		p := &s.Phases[i]
		note(&p.Published)
		for _, list := range [][]Figure{p.Others, p.Context} {
			for j := range list {
				note(&list[j])
			}
		}
		for k, f := range p.AnalyticsPublished {
			note(&f)
			p.AnalyticsPublished[k] = f
		}
	}
	for _, v := range s.Variants {
		for k, f := range v.Published {
			note(&f)
			v.Published[k] = f
		}
		for _, list := range v.Others {
			for j := range list {
				note(&list[j])
			}
		}
	}
}

// All returns every scenario sorted by name.
func All() []*Scenario {
	out := make([]*Scenario, 0, len(registry))
	for _, s := range registry {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup finds a scenario by name.
func Lookup(name string) (*Scenario, error) {
	if s, ok := registry[name]; ok {
		return s, nil
	}
	var names []string
	for _, s := range All() {
		names = append(names, s.Name)
	}
	return nil, fmt.Errorf("unknown scenario %q (available: %s)", name, strings.Join(names, ", "))
}

// Setting is one configuration key and value, in application order.
type Setting struct{ Key, Value string }

// PhaseSettings returns the settings of phase i in the order to apply them:
// the scenario's, the variant's, the phase's, then the scaled keys. Phases
// after the first keep the data of earlier phases unless they say otherwise.
// --scale multiplies only keys that count requests or data (devices, loops),
// never one request's shape (series per request, rows per batch).
func (s *Scenario) PhaseSettings(i int, variant string, scale float64) ([]Setting, error) {
	merged := s.merged(i, variant)
	for _, k := range s.Phases[i].Scale {
		n, err := s.scaleKey(i, merged, k)
		if err != nil {
			return nil, err
		}
		merged[k] = strconv.FormatInt(scaled(n, scale), 10)
	}
	keys := slices.Sorted(maps.Keys(merged))
	out := make([]Setting, len(keys))
	for j, k := range keys {
		out[j] = Setting{k, merged[k]}
	}
	return out, nil
}

// ScaleNote says where rounding made phase i run at another size than
// --scale asks (a key cannot go below one request of the study's shape);
// empty when the phase ran at the scale asked for.
func (s *Scenario) ScaleNote(i int, variant string, scale float64) string {
	merged := s.merged(i, variant)
	var notes []string
	for _, k := range s.Phases[i].Scale {
		n, err := s.scaleKey(i, merged, k)
		if err != nil || n == 0 {
			continue
		}
		got := float64(scaled(n, scale)) / n
		if math.Abs(got-scale) > 0.05*scale {
			notes = append(notes, fmt.Sprintf("%s %g x %g rounds to %d (%.3g of full size, not %g)", k, n, scale, scaled(n, scale), got, scale))
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return strings.Join(notes, ", ") + ": the study's request shape is kept, the size is not"
}

func scaled(n, scale float64) int64 { return int64(math.Max(1, math.Round(n*scale))) }

// merged is phase i's settings before scaling.
func (s *Scenario) merged(i int, variant string) map[string]string {
	merged := map[string]string{}
	if i > 0 {
		merged["IS_DELETE_DATA"] = "false"
	}
	for _, layer := range []map[string]string{s.Settings, s.variant(variant).Settings, s.Phases[i].Settings} {
		for k, v := range layer {
			merged[k] = v
		}
	}
	return merged
}

func (s *Scenario) scaleKey(i int, merged map[string]string, k string) (float64, error) {
	p := s.Phases[i]
	v, ok := merged[k]
	if !ok {
		return 0, fmt.Errorf("scenario %s phase %s scales %s, which it does not set", s.Name, p.Name, k)
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("scenario %s phase %s: %s=%q is not a number to scale", s.Name, p.Name, k, v)
	}
	return n, nil
}

func (s *Scenario) variant(name string) Variant {
	if name == "" {
		return Variant{}
	}
	return s.Variants[name]
}

// CheckVariant reports an unknown variant name.
func (s *Scenario) CheckVariant(name string) error {
	if name == "" {
		return nil
	}
	if _, ok := s.Variants[name]; ok {
		return nil
	}
	var names []string
	for n := range s.Variants {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		err := fmt.Errorf("scenario %s has no variants", s.Name)
		if s.SeeAlso != "" {
			err = fmt.Errorf("%w (see also scenario %s)", err, s.SeeAlso)
		}
		return err
	}
	return fmt.Errorf("scenario %s has no variant %q (available: %s)", s.Name, name, strings.Join(names, ", "))
}

// PublishedFor returns the published figure of a phase under a variant.
func (s *Scenario) PublishedFor(phase int, variant string) Figure {
	if f, ok := s.variant(variant).Published[s.Phases[phase].Name]; ok {
		return f
	}
	return s.Phases[phase].Published
}

// PublishedBy returns the published figure a run of phase i against target
// should be compared with: the study's figure for that system when it
// published one, else the phase's main figure. ok says whether the figure is
// the target's own.
func (s *Scenario) PublishedBy(phase int, variant, target string) (f Figure, ok bool) {
	main := s.PublishedFor(phase, variant)
	if s.systemOf(main) == target {
		return main, true
	}
	others := s.Phases[phase].Others
	if v, found := s.variant(variant).Others[s.Phases[phase].Name]; found {
		others = v
	}
	for _, o := range others {
		if o.System == target {
			return o, true
		}
	}
	return main, false
}

func (s *Scenario) systemOf(f Figure) string {
	if f.System != "" {
		return f.System
	}
	return s.System
}

// Systems lists the targets the study published figures for, the main
// system first.
func (s *Scenario) Systems() []string {
	var out []string
	seen := map[string]bool{"": true}
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	add(s.System)
	for _, p := range s.Phases {
		add(p.Published.System)
		for _, o := range p.Others {
			add(o.System)
		}
	}
	return out
}
