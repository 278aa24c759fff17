//go:build ignore

// gobdump prints the queries of TSBS query files (a stream of gob values as
// tsbs_generate_queries writes them, optionally gzipped) as plain text, so
// that a reader can see TSBS's exact query text without TSBS.
//
//	go run gobdump.go FILE.gob[.gz] > FILE.txt
//
// It decodes into one struct holding the exported fields of both of TSBS's
// query types used here (TimescaleDB: Hypertable, SqlQuery; HTTP, as for
// VictoriaMetrics: Method, Path, RawQuery, Body, StartTimestamp,
// EndTimestamp); gob matches fields by name and skips absent ones.
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

type anyQuery struct {
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

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run gobdump.go FILE")
		os.Exit(2)
	}
	if err := dump(os.Args[1], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func dump(path string, out io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = bufio.NewReader(f)
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return err
		}
		r = zr
	}
	w := bufio.NewWriter(out)
	defer w.Flush()
	dec := gob.NewDecoder(r)
	for n := 1; ; n++ {
		var q anyQuery
		if err := dec.Decode(&q); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("%s: query %d: %w", path, n, err)
		}
		fmt.Fprintf(w, "=== query %d\n", n)
		fmt.Fprintf(w, "HumanLabel: %s\n", q.HumanLabel)
		fmt.Fprintf(w, "HumanDescription: %s\n", q.HumanDescription)
		if len(q.SqlQuery) > 0 || len(q.Hypertable) > 0 {
			fmt.Fprintf(w, "Hypertable: %s\n", q.Hypertable)
			fmt.Fprintf(w, "SqlQuery:\n%s\n", q.SqlQuery)
		}
		if len(q.Method) > 0 || len(q.Path) > 0 {
			fmt.Fprintf(w, "Method: %s\n", q.Method)
			fmt.Fprintf(w, "Path: %s\n", q.Path)
			fmt.Fprintf(w, "RawQuery: %s\n", q.RawQuery)
			fmt.Fprintf(w, "Body: %s\n", q.Body)
			fmt.Fprintf(w, "StartTimestamp: %d\n", q.StartTimestamp)
			fmt.Fprintf(w, "EndTimestamp: %d\n", q.EndTimestamp)
		}
	}
}
