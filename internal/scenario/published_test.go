package scenario

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/testenv"
)

// seedDir holds the studies' text (the project's shared seeds): in
// TSBENCH_SHARED (set by .ci/run), else beside the checkout.
var seedDir = sharedSeeds()

func sharedSeeds() string {
	if dir := os.Getenv("TSBENCH_SHARED"); dir != "" {
		return filepath.Join(dir, "seeds")
	}
	return "../../../shared/seeds"
}

// published is every figure the scenarios carry, checked by hand against
// the studies: the value, and the study's words it comes from.
var published = []struct {
	where string  // scenario/variant/phase/system; "context" or a query name for the rest
	value float64 // the figure's Rate, else PerCore, else Seconds
	quote string
}{
	{"hakom-load//write/", 196_364, "Write (1.500 ZR x 30t x 24h x 2 = 2,16 M data points) | 11 | 196.364"},
	{"hakom-load//read/", 310_345, "Read (25.000 ZR x 30t x 24h x 2 = 36 M data points) | 116 | 310.345"},
	{"hakom-load//parallel-read/", 327_273, "Parallel-Reading(5 x 5.000 ZR x 30t x 24h x 2 = 5 x 7,2 M = 36 M data points) | 110 | 327.273"},
	{"hakom-load//parallel-write/", 180_000, "Parallel-Writing (5 x 1.500 ZR x 30t x 24h x 2 = 5 x 2,16 M = 10,8 M data points) | 60 | 180.000"},
	{"hakom-scaling//write-single/", 10.954, "Write Singe-Request | 1 | 00:27,649 | 00:10,954"},
	{"hakom-scaling//read-single/", 7.078, "Read Singe-Request | 1 | 00:08,625 | 00:07,078"},
	{"hakom-scaling//write-bulk/", 11.885, "Write Bulk-Request | 1 | 00:35,103 | 00:11,885"},
	{"hakom-scaling//read-bulk/", 5.344, "Read Bulk-Request | 1 | 00:07,127 | 00:05,344"},
	{"epics-archiver//insert/", 24_000, "1min 13.6 sec to insert\n- 1 777 600 samples\n- 24K samples/sec"},
	{"epics-archiver//insert/context", 19_500, "1min 31 sec to insert\n- 1 777 600 samples\n- 19.5K samples/sec"},
	{"epics-archiver//insert/context", 1000, "Oracle insertion time : 3.746.847 samples per hour (1Ksamples/sec)"},
	{"epics-archiver//extract/", 5_540_000, "0.024 sec to extract\n- 133K samples of 4 records\n- 5.54 Msamples/sec"},
	{"epics-archiver//extract/context", 3_170_000, "0.042 sec to extract\n- 133K samples of 4 records\n- 3.17M samples/sec"},
	{"epics-archiver//extract/context", 160_000, "Hypertable retrieve time: 57624 samples in 0.36 sec (160K vals/sec)"},
	{"epics-archiver//extract/context", 462, "Oracle retrieve time: 36.657 samples in 79.294 sec (~462 vals/sec)"},
	{"epics-archiver/week/insert/", 14_800, "11.2 hours to insert\n- 597M samples\n- 14.8K samples/sec"},
	{"epics-archiver/week/extract/", 4_300_000, "0.031 sec to extract\n- 133360 samples of 4 records\n- 4.3M samples/sec"},
	{"epics-archiver/month/insert/", 18_700, "37.86 hours to insert\n- 2557M samples"},
	{"epics-archiver/month/extract/", 4_300_000, "0.030 sec to extract\n- 133360 samples of 4 records\n- 4.3M samples/sec"},
	{"iotdb-crrc//write/", 5_125_600.86, "5,125,600.86 points/second"},
	{"iotdb-crrc//write/kairosdb", 224_819.01, "224,819.01 points/second"},
	{"das-events//ingest/", 5741, "Smart Home sample | 100000000 | 5741 events per second"},
	{"das-events//ingest/hbase", 96_230.01591, "Mean TPS | 96230.01591"},
	{"das-events//analytics/cityUsage", 26, "GROUP BY metro_area | 26 sec"},
	{"das-events//analytics/peakDeviceUsageRange", 22, `metro_area = "Seattle" GROUP BY house_id | 22 sec`},
	{"das-events//analytics/stateAvgUsage", 21, "FROM smartHomeData | 21 sec"},
	{"das-events//analytics/stateUsageDifference", 1, "as a1 join stateAvgUsage as a2 | 1 sec"},
	{"das-wikipedia//ingest/", 4438, "Wikipedia sample | 15901127 | 4438 events per second"},
	{"das-wikipedia//ingest/hbase", 8993.381291, "Mean TPS | 8993.381291"},
	{"mot-ingest//ingest/", 10_000, "Throughput - 10,000 Records/Core or 2 MB/Core."},
	{"mot-tpcc//disk-1/", 1_500_000, motQuote},
	{"mot-tpcc//disk-2/", 1_500_000, motQuote},
	{"mot-tpcc//disk-4/", 1_500_000, motQuote},
	{"mot-tpcc//disk-8/", 1_500_000, motQuote},
	{"mot-tpcc//disk-16/", 1_500_000, motQuote},
	{"mot-tpcc//memory-16/", 3_800_000, motQuote},
}

const motQuote = "For a Single Node - 3.8M tpmC for MOT tables versus 1.5M tpmC for disk-based tables"

// HAKOM's compression table: each row of the study, its four times at
// 25, 50, 75 and 100 % changed values.
func init() {
	rows := []struct {
		phase string
		times [4]float64
		quote string
	}{
		{"write-%d-on", [4]float64{1.469, 1.602, 1.519, 1.454}, "Write Bulk-Request | yes | 00:01,469 | 00:01,602 | 00:01,519 | 00:01,454"},
		{"write-%d-off", [4]float64{1.248, 1.421, 1.514, 1.632}, "Write Bulk-Request | no | 00:01,248 | 00:01,421 | 00:01,514 | 00:01,632"},
		{"read-%d-on", [4]float64{0.870, 0.932, 0.932, 0.947}, "Read Bulk-Request | yes | 00:00,870 | 00:00,932 | 00:00,932 | 00:00,947"},
		{"read-%d-off", [4]float64{0.870, 0.932, 0.932, 0.995}, "Read Bulk-Request | no | 00:00,870 | 00:00,932 | 00:00,932 | 00:00,995"},
	}
	for _, r := range rows {
		for i, level := range []int{25, 50, 75, 100} {
			where := "hakom-compression//" + fmt.Sprintf(r.phase, level) + "/"
			published = append(published, struct {
				where string
				value float64
				quote string
			}{where, r.times[i], r.quote})
		}
	}
}

// seeds reads the studies, by seed number ("003").
func seeds(t *testing.T) map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(seedDir, "*.txt"))
	if len(files) == 0 {
		testenv.Require(t, "no seed files in "+seedDir+" (the project's shared/seeds next to the checkout)")
	}
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)[:3]] = string(b)
	}
	return out
}

// everyFigure lists each figure a scenario holds, under the key the table
// above uses, with a value (0 = the figure carries no number).
func everyFigure() map[string][]Figure {
	out := map[string][]Figure{}
	add := func(key string, f Figure) { out[key] = append(out[key], f) }
	for _, s := range All() {
		for _, p := range s.Phases {
			base := s.Name + "//" + p.Name + "/"
			if !p.Prepare {
				add(base, p.Published)
			}
			for _, o := range p.Others {
				add(base+o.System, o)
			}
			for _, c := range p.Context {
				add(base+"context", c)
			}
			for q, f := range p.AnalyticsPublished {
				add(base+q, f)
			}
		}
		for name, v := range s.Variants {
			for phase, f := range v.Published {
				add(s.Name+"/"+name+"/"+phase+"/", f)
			}
			for phase, list := range v.Others {
				for _, o := range list {
					add(s.Name+"/"+name+"/"+phase+"/"+o.System, o)
				}
			}
		}
	}
	return out
}

func value(f Figure) float64 {
	switch {
	case f.Rate > 0:
		return f.Rate
	case f.PerCore > 0:
		return f.PerCore
	}
	return f.Seconds
}

// Every published figure is the study's: its quote is in the seed file, it
// names its system and source, and no figure is left out of the table.
func TestPublishedFiguresQuoteTheStudies(t *testing.T) {
	text := seeds(t)
	all := everyFigure()
	for _, want := range published {
		found := false
		for _, f := range all[want.where] {
			if value(f) == want.value && f.Quote == want.quote {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no figure %v quoting %q", want.where, want.value, want.quote)
		}
	}
	for where, figs := range all {
		for _, f := range figs {
			if f.Quote == "" && value(f) == 0 {
				continue // a remark, no figure (the analytics phase as a whole)
			}
			if !strings.Contains(text[f.Seed], f.Quote) {
				t.Errorf("%s: quote %q is not in seed %q", where, f.Quote, f.Seed)
			}
			if f.Studied == "" || !strings.Contains(f.Note, oneLine(f.Quote)) || !strings.Contains(f.Note, "seed "+f.Seed) {
				t.Errorf("%s: figure without its system or source: %+v", where, f)
			}
			if v := value(f); v > 0 && !listed(where, v) {
				t.Errorf("%s: figure %v is not in the test's table of published figures", where, v)
			}
		}
	}
}

func listed(where string, v float64) bool {
	for _, p := range published {
		if p.where == where && p.value == v {
			return true
		}
	}
	return false
}

// Words the studies do not say stay out of every description.
func TestNoInventedConditions(t *testing.T) {
	text := seeds(t)
	for _, s := range All() {
		var b strings.Builder
		fmt.Fprint(&b, s.Description, s.Hardware, s.Source)
		for _, figs := range everyFigure() {
			for _, f := range figs {
				b.WriteString(f.Note)
			}
		}
		for _, bad := range []string{"8 vCPU", "15 GB", "12 cores", "busiest", "Cassandra"} {
			if strings.Contains(b.String(), bad) && !strings.Contains(strings.Join(mapValues(text), ""), bad) {
				t.Errorf("%s: %q is not in the studies", s.Name, bad)
			}
		}
	}
	// Per-core figures only where the study's server did the work alone.
	for _, name := range []string{"hakom-load", "hakom-scaling", "hakom-compression", "das-events", "das-wikipedia", "epics-archiver"} {
		if s, _ := Lookup(name); s.ServerCores != 0 {
			t.Errorf("%s: ServerCores %d: the study gives no single server's cores for its figures", name, s.ServerCores)
		}
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// 17,000 Wikipedia events in 0.7339 s are 23,164 events/s: an event's
// values (the settings' SENSOR_NUMBER) are its PerUnit, in every scenario.
func TestWikipediaRate(t *testing.T) {
	s, _ := Lookup("das-wikipedia")
	settings, _ := s.PhaseSettings(0, "", 17.0/1590)
	perEvent, devices := setting(settings, "SENSOR_NUMBER"), setting(settings, "DEVICE_NUMBER")
	if devices != 17 {
		t.Fatalf("devices = %v", devices)
	}
	rows := s.Table("", "mysql", 17.0/1590, [][]Measurement{{{Seconds: 0.7339, Points: int64(17_000 * perEvent)}}}, 2)
	if got := rows[0].Rate.Mean; math.Abs(got-17_000/0.7339) > 0.1 {
		t.Errorf("rate = %.1f events/s, want %.1f", got, 17_000/0.7339)
	}
	for _, s := range All() {
		for _, v := range append([]string{""}, variantNames(s)...) {
			for i, p := range s.Phases {
				settings, _ := s.PhaseSettings(i, v, 1)
				if p.PerUnit >= 1 && setting(settings, "SENSOR_NUMBER") != p.PerUnit {
					t.Errorf("%s/%s/%s: PerUnit %v but %v values per row", s.Name, v, p.Name, p.PerUnit, setting(settings, "SENSOR_NUMBER"))
				}
			}
		}
	}
}

// --scale changes how many requests and how much data, never one request:
// series per request, rows per batch, the span one query reads.
func TestScaleKeepsRequestShapes(t *testing.T) {
	shape := []string{"SENSOR_NUMBER", "BATCH_SIZE_PER_WRITE", "QUERY_SENSOR_NUM", "QUERY_DEVICE_NUM", "QUERY_INTERVAL", "STRING_LENGTH", "POINT_STEP"}
	for _, s := range All() {
		for _, v := range append([]string{""}, variantNames(s)...) {
			for i, p := range s.Phases {
				full, _ := s.PhaseSettings(i, v, 1)
				for _, scale := range []float64{0.001, 0.01, 0.5, 10} {
					got, err := s.PhaseSettings(i, v, scale)
					if err != nil {
						t.Fatal(err)
					}
					for _, k := range shape {
						if a, b := setting(full, k), setting(got, k); a != b {
							t.Errorf("%s/%s/%s at scale %g: %s %v, at full size %v", s.Name, v, p.Name, scale, k, b, a)
						}
					}
				}
			}
		}
	}
	// One EPICS extraction reads the study's 133,360 samples in every variant.
	s, _ := Lookup("epics-archiver")
	for _, v := range []string{"", "week", "month"} {
		for _, scale := range []float64{0.01, 1} {
			ins, _ := s.PhaseSettings(0, v, scale)
			ext, _ := s.PhaseSettings(1, v, scale)
			if n := setting(ins, "LOOP") * setting(ins, "BATCH_SIZE_PER_WRITE"); n != 133_360 {
				t.Errorf("epics %s at %g: %v samples per PV", v, scale, n)
			}
			if n := setting(ext, "QUERY_INTERVAL") / setting(ext, "POINT_STEP"); n != 133_360 {
				t.Errorf("epics %s at %g: an extraction spans %v samples", v, scale, n)
			}
		}
	}
	// Where the shape cannot be kept at a scale, the table says so.
	h, _ := Lookup("hakom-scaling")
	if note := h.ScaleNote(2, "", 0.01); !strings.Contains(note, "DEVICE_NUMBER 10 x 0.01 rounds to 1") {
		t.Errorf("write-bulk at 0.01: scale note %q", note)
	}
	if note := h.ScaleNote(0, "", 0.01); note != "" {
		t.Errorf("write-single at 0.01: scale note %q, want none", note)
	}
}

// Ratios only between like and like; rates computed as the studies did.
func TestTableComparesLikeWithLike(t *testing.T) {
	h, _ := Lookup("hakom-scaling")
	runs := [][]Measurement{{{Seconds: 10, Points: 2_976_000}, {Seconds: 20, Points: 2_976_000}}}
	row := h.Table("", "postgres", 1, runs, 12)[0]
	if math.Abs(row.Rate.Mean-2_976_000/15.0) > 1e-6 {
		t.Errorf("rate %v, want points over mean seconds %v", row.Rate.Mean, 2_976_000/15.0)
	}
	if math.Abs(row.SecondsRatio-15/10.954) > 1e-9 || row.RateRatio != 0 || row.PublishedPerCore != 0 || row.Published.Rate != 0 {
		t.Errorf("hakom-scaling on postgres: %+v (a time, no derived rate, no per-core)", row)
	}
	if row := h.Table("", "sqlite", 1, runs, 12)[0]; row.SecondsRatio != 0 {
		t.Errorf("sqlite is compared with HAKOM on PostgreSQL: %+v", row)
	}
	// At another data size times do not compare; rates do, beside the size ratio.
	d, _ := Lookup("das-events")
	row = d.Table("", "mysql", 1, [][]Measurement{{{Seconds: 1000, Points: 20_000_000}}}, 2)[0]
	if row.SizeRatio != 0.1 || math.Abs(row.RateRatio-10_000/5741.0) > 1e-9 || row.SecondsRatio != 0 {
		t.Errorf("das-events ingest: %+v", row)
	}
	// MOT published per core only; its server rate is derived text.
	m, _ := Lookup("mot-ingest")
	row = m.Table("", "postgres", 1, [][]Measurement{{{Seconds: 100, Points: 4 * 1_000_000}}}, 2)[0]
	if row.Published.Rate != 0 || row.PublishedPerCore != 10_000 || math.Abs(row.PerCoreRatio-0.5) > 1e-9 {
		t.Errorf("mot-ingest: %+v", row)
	}
	// The CRRC query phase mixes Q1..Q10: no rate of Q2 over the whole phase.
	c, _ := Lookup("iotdb-crrc")
	if rows := c.Table("", "iotdb", 1, [][]Measurement{{{Seconds: 1, Points: 1}}, {{Seconds: 0.2301, Points: 10_800}}}, 2); len(rows) != 1 {
		t.Errorf("iotdb-crrc rows %+v, want the write row only", rows)
	}
	var buf bytes.Buffer
	c.PrintTable(&buf, nil, 1, 2, "test")
	if !strings.Contains(buf.String(), "query: no row") {
		t.Errorf("the query phase's absence is not explained:\n%s", buf.String())
	}
}

// The study's own compression break-even is printed; a measured one only
// where the target can switch compression.
func TestBreakEven(t *testing.T) {
	s, _ := Lookup("hakom-compression")
	measured := make([][]Measurement, len(s.Phases))
	for i := range measured {
		measured[i] = []Measurement{{Seconds: 1, Points: 1}}
	}
	bes := BreakEvens(s.Table("", "sqlite", 1, measured, 2))
	if len(bes) != 2 || bes[0].PublishedFrom != 1 || bes[1].PublishedFrom != 1 {
		t.Fatalf("published break-evens %+v, want write and read from 100%%", bes)
	}
	var buf bytes.Buffer
	PrintBreakEvens(&buf, bes, false)
	out := buf.String()
	if !strings.Contains(out, "write published (HAKOM TSM, seed 000): compression pays from 100%") ||
		strings.Contains(out, "write measured") || !strings.Contains(out, "no compression switch") {
		t.Errorf("break-even without a switch:\n%s", out)
	}
}

func setting(ss []Setting, key string) float64 {
	for _, s := range ss {
		if s.Key == key {
			v, _ := strconv.ParseFloat(s.Value, 64)
			return v
		}
	}
	return 0
}

func variantNames(s *Scenario) []string {
	var out []string
	for n := range s.Variants {
		out = append(out, n)
	}
	return out
}
