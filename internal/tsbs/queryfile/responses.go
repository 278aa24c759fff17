package queryfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// WriteResponse writes query n's answer as TSBS's runners print it with
// --print-responses, so that the two tools' outputs diff line by line:
//   - an SQL answer as tsbs_run_queries_timescaledb prints it: a JSON object
//     of "query" (the SQL) and "results" (each row an object of its columns,
//     keys in order, a column named twice keeping its last value), indented
//     by two spaces, then a blank line; times as RFC 3339 in UTC (at
//     millisecond precision: tsbench keeps times as Unix milliseconds);
//   - an HTTP answer as tsbs_run_queries_victoriametrics prints it: the body
//     re-indented by two spaces, every line after "ID n: ";
//   - an InfluxQL answer (an HTTP query with its InfluxQL beside it) as
//     tsbs_run_queries_influx prints it: an object of "influxql" and
//     "response" (the body decoded), every line but the first after
//     "ID n: ", then a blank line.
//
// An SQL answer read without its every row (QuerierFor's whole) prints
// its first targets.MaxRows and a line saying how many are left out.
func WriteResponse(w io.Writer, n int, q *Query, a Answer) error {
	if q.Kind() == "http" && q.RawQuery != "" {
		return writeInfluxResponse(w, n, q, a)
	}
	if q.Kind() == "http" {
		prefix := fmt.Sprintf("ID %d: ", n)
		var b bytes.Buffer
		if err := json.Indent(&b, a.Body, prefix, "  "); err != nil {
			return fmt.Errorf("tsbs: query %d: answer is not JSON: %w", n, err)
		}
		_, err := fmt.Fprintf(w, "%s%s\n", prefix, b.Bytes())
		return err
	}
	results := make([]map[string]any, 0, len(a.Table.Values))
	for _, row := range a.Table.Values {
		m := make(map[string]any, len(row))
		for i, v := range row {
			if i < len(a.Table.Times) && a.Table.Times[i] {
				if ms, ok := v.(int64); ok {
					v = time.UnixMilli(ms).UTC()
				}
			}
			m[a.Table.Columns[i]] = v
		}
		results = append(results, m)
	}
	line, err := json.MarshalIndent(map[string]any{"query": q.SQL, "results": results}, "", "  ")
	if err != nil {
		return fmt.Errorf("tsbs: query %d: %w", n, err)
	}
	if _, err := fmt.Fprintf(w, "%s\n\n", line); err != nil {
		return err
	}
	if left := a.Table.Count - int64(len(a.Table.Values)); left > 0 {
		_, err = fmt.Fprintf(w, "(tsbench: %d more rows of query %d not printed)\n\n", left, n)
	}
	return err
}

func writeInfluxResponse(w io.Writer, n int, q *Query, a Answer) error {
	var v any
	if err := json.Unmarshal(a.Body, &v); err != nil {
		return fmt.Errorf("tsbs: query %d: answer is not JSON: %w", n, err)
	}
	line, err := json.MarshalIndent(map[string]any{"influxql": q.RawQuery, "response": v}, fmt.Sprintf("ID %d: ", n), "  ")
	if err != nil {
		return fmt.Errorf("tsbs: query %d: %w", n, err)
	}
	_, err = fmt.Fprintf(w, "%s\n\n", line)
	return err
}
