// Package queryfile reads TSBS's query files and runs them as TSBS's
// runners do (tsbench run --tsbs-queries FILE). A query file is what
// tsbs_generate_queries writes: a stream of gob values, one per query,
// optionally gzipped. Two of TSBS's query types are
// read: its SQL query (timescaledb format: Hypertable, SqlQuery) and its
// HTTP query (influx and victoriametrics formats: Method, Path, Body and
// the time bounds). gob matches a value's fields by name and skips the
// ones a type lacks, so one struct with the exported fields of both reads
// either; TSBS's unexported id is never encoded.
package queryfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
)

// Query is one query of a TSBS query file, as TSBS wrote it.
type Query struct {
	// HumanLabel names the query type as TSBS's runner reports it, e.g.
	// "TimescaleDB 1 cpu metric(s), random    1 hosts, random 1h0m0s by 1m".
	HumanLabel string
	// HumanDescription is the label and the window's start.
	HumanDescription string

	// SQL queries (timescaledb format).
	Hypertable string
	SQL        string

	// HTTP queries (influx, victoriametrics formats): Path holds the URL
	// path and its query string, as TSBS's HTTP runner sends it.
	Method         string
	Path           string
	RawQuery       string
	Body           string
	StartTimestamp int64
	EndTimestamp   int64
}

// Kind is "sql" for a query of TSBS's timescaledb format and "http" for
// one of its HTTP formats.
func (q Query) Kind() string {
	if q.SQL != "" {
		return "sql"
	}
	return "http"
}

// gobQuery holds the exported fields of TSBS's query.TimescaleDB and
// query.HTTP (pkg/query) under their names in the stream.
type gobQuery struct {
	HumanLabel       []byte
	HumanDescription []byte

	Hypertable []byte
	SqlQuery   []byte

	Method         []byte
	Path           []byte
	RawQuery       []byte
	Body           []byte
	StartTimestamp int64
	EndTimestamp   int64
}

// MaxQueries bounds what Decode keeps in memory: TSBS's runner
// streams its file, tsbench holds it whole so that workers can share it.
const MaxQueries = 10_000_000

// Read reads the TSBS query file at path (gzipped or not).
func Read(path string) ([]Query, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	qs, err := Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return qs, nil
}

// Decode reads a stream of TSBS queries, gzipped or not (told by
// gzip's magic number, not by a name). An empty stream, a query of
// neither kind, or a stream mixing the two kinds is refused: TSBS's runners
// take one format each.
func Decode(r io.Reader) ([]Query, error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("tsbs query file: gzip: %w", err)
		}
		defer zr.Close()
		br = bufio.NewReader(zr)
	}
	dec := gob.NewDecoder(br)
	var out []Query
	for {
		var g gobQuery
		if err := dec.Decode(&g); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, fmt.Errorf("tsbs query file: query %d: not a TSBS query (want tsbs_generate_queries' output): %w", len(out)+1, err)
		}
		q := g.query()
		if q.SQL == "" && q.Path == "" {
			return nil, fmt.Errorf("tsbs query file: query %d (%q): neither SQL nor an HTTP path: allowed: TSBS's timescaledb, influx or victoriametrics format",
				len(out)+1, q.HumanLabel)
		}
		if len(out) > 0 && q.Kind() != out[0].Kind() {
			return nil, fmt.Errorf("tsbs query file: query %d is %s, query 1 is %s: one file holds one format", len(out)+1, q.Kind(), out[0].Kind())
		}
		if len(out) == MaxQueries {
			return nil, fmt.Errorf("tsbs query file: more than %d queries", MaxQueries)
		}
		out = append(out, q)
	}
	if len(out) == 0 {
		return nil, errors.New("tsbs query file: no queries in it")
	}
	return out, nil
}

func (g gobQuery) query() Query {
	return Query{
		HumanLabel:       string(g.HumanLabel),
		HumanDescription: string(g.HumanDescription),
		Hypertable:       string(g.Hypertable),
		SQL:              string(g.SqlQuery),
		Method:           string(g.Method),
		Path:             string(g.Path),
		RawQuery:         string(g.RawQuery),
		Body:             string(g.Body),
		StartTimestamp:   g.StartTimestamp,
		EndTimestamp:     g.EndTimestamp,
	}
}

// Types are a file's queries by HumanLabel, in order of first
// appearance, with how many each has: the rows TSBS's runner reports.
func Types(qs []Query) (labels []string, counts map[string]int) {
	counts = map[string]int{}
	for _, q := range qs {
		if counts[q.HumanLabel] == 0 {
			labels = append(labels, q.HumanLabel)
		}
		counts[q.HumanLabel]++
	}
	return labels, counts
}
