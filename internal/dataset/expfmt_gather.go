package dataset

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"time"
)

// scrapeClock is when each file's samples without a timestamp were
// scraped: DATA_TIME, else the file's modification time.
type scrapeClock struct {
	base  []int64 // ms, by file
	given bool    // DATA_TIME
}

func newScrapeClock(files []string, o ImportOptions) (*scrapeClock, error) {
	c := &scrapeClock{base: make([]int64, len(files))}
	if o.Time != "" {
		at, err := parseDataTime(o.Time, o.TimeZone)
		if err != nil {
			return nil, &InputError{File: files[0], Msg: err.Error()}
		}
		for i := range c.base {
			c.base[i] = at.UnixMilli()
		}
		c.given = true
		return c, nil
	}
	for i, name := range files {
		st, err := os.Stat(name)
		if err != nil {
			return nil, &InputError{File: name, Msg: "cannot read it: " + err.Error()}
		}
		c.base[i] = st.ModTime().UnixMilli()
	}
	return c, nil
}

// parseDataTime reads DATA_TIME: RFC 3339, or a layout CSV times may have
// (2024-05-01 12:00:00, 2024-05-01...) in DATA_TIMEZONE.
func parseDataTime(text, zone string) (time.Time, error) {
	return parseKeyTime("DATA_TIME", text, zone)
}

// notes say where samples without a timestamp were placed, and what was
// left out.
func (es *expScan) notes(c *scrapeClock) []string {
	var out []string
	if es.untimed > 0 {
		from := "the file's modification time"
		if c.given {
			from = "DATA_TIME"
		}
		out = append(out, fmt.Sprintf("%d samples without a timestamp: placed at %s, %s (a later scrape of the same series %v after the one before)",
			es.untimed, from, time.UnixMilli(c.base[0]).UTC().Format(time.RFC3339Nano), scrapeStep))
	}
	if es.infinite > 0 {
		out = append(out, fmt.Sprintf("%d samples of ±Inf left out (no point), as NaN ones are", es.infinite))
	}
	return out
}

// expGather reads the files' samples into the sort.
type expGather struct {
	im    *sortImport
	es    *expScan
	tp    timeParser
	clock *scrapeClock
	ep    expParser
	s     expSample
	// The scrape being read: the series it has shown, and its number
	// in the file. A series shown again, or # EOF, starts the next one.
	seen   map[string]bool
	scrape int64
	key    []byte
}

// file reads one file's samples into the sort, a point per sample.
func (g *expGather) file(file int, name string) error {
	g.seen, g.scrape = map[string]bool{}, 0
	return eachRawLine(name, func(text []byte, line int64) error {
		if e := g.ep.parse(text, &g.s); e != nil {
			return expErr(name, line, e)
		}
		if !g.s.exposed {
			if bytes.Equal(bytes.TrimSpace(text), []byte("# EOF")) {
				g.nextScrape()
			}
			return nil
		}
		return g.sample(file, name, line)
	})
}

func (g *expGather) nextScrape() {
	if len(g.seen) > 0 {
		g.scrape++
		clear(g.seen)
	}
}

// sample puts the parsed sample into the sort.
func (g *expGather) sample(file int, name string, line int64) error {
	s := &g.s
	if g.seenAgain(s) {
		g.nextScrape()
		g.seenAgain(s)
	}
	k, ok := g.es.index[s.name]
	if !ok {
		return nil // left out by DATA_SENSOR_COLUMNS
	}
	im := g.im
	device, tags := promDevice(s.labels, im.o.DeviceColumns, stem(name))
	device = im.intern(device)
	if _, ok := im.tags[device]; !ok {
		im.tags[device] = tags
	}
	v := s.text
	if math.IsNaN(s.value) || math.IsInf(s.value, 0) {
		v = absent // no point: the row's cell is empty
	} else if err := im.checkValue(k, v); err != nil {
		return lpErr(name, line, 1, fmt.Sprintf("%s: %v", s.name, err))
	}
	tm, cut, err := g.time(file)
	if err != nil {
		return lpErr(name, line, 1, err.Error())
	}
	return im.sorter.add(sortRecord{device: device, time: tm, cut: cut, file: file, line: line, sensor: k, values: []string{v}})
}

// seenAgain reports whether the current scrape has shown the sample's
// series already, and marks it shown.
func (g *expGather) seenAgain(s *expSample) bool {
	g.key = append(g.key[:0], s.name...)
	keys := make([]string, 0, len(s.labels))
	for k := range s.labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		g.key = append(append(append(append(g.key, 0xff), k...), 0xfe), s.labels[k]...)
	}
	if g.seen[string(g.key)] {
		return true
	}
	g.seen[string(g.key)] = true
	return false
}

// time is the sample's time in ms: its timestamp, or its scrape's.
func (g *expGather) time(file int) (int64, bool, error) {
	ts := g.s.ts
	if ts == "" {
		return g.clock.base[file] + g.scrape*scrapeStep.Milliseconds(), false, nil
	}
	if n, err := strconv.ParseInt(ts, 10, 64); err == nil {
		return g.tp.millis(n)
	}
	f, err := strconv.ParseFloat(ts, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false, fmt.Errorf("timestamp %q is not a number", ts)
	}
	perUnit := map[string]float64{"s": 1000, "ms": 1, "us": 1e-3, "ns": 1e-6}[g.tp.unit]
	ms := f * perUnit
	if math.Abs(ms) > 1<<62 {
		return 0, false, fmt.Errorf("timestamp %q is out of range", ts)
	}
	whole := math.Floor(ms)
	return int64(whole), ms != whole, nil
}
