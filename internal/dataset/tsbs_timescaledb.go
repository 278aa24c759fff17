package dataset

// TSBS's timescaledb data files (tsbs_generate_data --format timescaledb):
//
//	tags,hostname string,region string,...      the tag names and types
//	cpu,usage_user,usage_system,...             each table's fields
//	                                            a blank line ends the header
//	tags,hostname=host_0,region=eu-west-1,...   a point's tags
//	cpu,1451606400000000000,58.1,2.3,...        its table, nanoseconds, values
//
// An empty value is a missing one (TSBS's iot data has them). The file is
// read as the line protocol it stands for: each pair of lines becomes one
// line-protocol line (table,tags fields time) in a temporary file beside
// the import, which the influx import then reads, so both formats of the
// same data give the same devices, sensors and points. Errors in the file's
// layout name its own lines.

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/lineproto"
)

// isTSBSTimescale reports whether a first line is a TSBS timescaledb
// header: "tags" then name-and-type pairs.
func isTSBSTimescale(first string) bool {
	parts := strings.Split(strings.TrimSpace(first), ",")
	if len(parts) < 2 || parts[0] != "tags" {
		return false
	}
	for _, p := range parts[1:] {
		if len(strings.Fields(p)) != 2 {
			return false
		}
	}
	return true
}

func importTSBSTimescale(files []string, dir string, o ImportOptions) (*Manifest, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	tmp, err := os.MkdirTemp(dir, ".tsbs-lp-")
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer os.RemoveAll(tmp)
	var lp []string
	for i, f := range files {
		out := filepath.Join(tmp, fmt.Sprintf("%04d.lp", i))
		if err := tsbsTimescaleToLP(f, out); err != nil {
			return nil, err
		}
		lp = append(lp, out)
	}
	o.Format = "influx"
	return importInflux(lp, dir, o)
}

// tsbsTimescaleToLP rewrites one TSBS timescaledb file as line protocol.
func tsbsTimescaleToLP(name, out string) error {
	in, err := openInput(name)
	if err != nil {
		return err
	}
	defer in.Close()
	f, err := os.Create(out)
	if err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	if err := writeTSBSTimescaleLP(name, in, f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeTSBSTimescaleLP reads the TSBS timescaledb file name from in and
// writes its points to out as line protocol.
func writeTSBSTimescaleLP(name string, in io.Reader, out io.Writer) error {
	w := bufio.NewWriterSize(out, 1<<16)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	var line int64
	bad := func(msg string) error { return &InputError{File: name, Line: line, Msg: msg} }
	fields, err := tsbsTimescaleHeader(sc, &line, bad)
	if err != nil {
		return err
	}
	var tags string
	for sc.Scan() {
		line++
		t := strings.TrimRight(sc.Text(), "\r")
		if t == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(t, "tags,"); ok || t == "tags" {
			tags = escapeTagSet(rest)
			continue
		}
		table, rest, _ := strings.Cut(t, ",")
		names, ok := fields[table]
		if !ok {
			return bad(fmt.Sprintf("table %q is not in the header", table))
		}
		vals := strings.Split(rest, ",")
		if len(vals) != len(names)+1 {
			return bad(fmt.Sprintf("%d values for time and %d fields of %s", len(vals), len(names), table))
		}
		if _, err := strconv.ParseInt(vals[0], 10, 64); err != nil {
			return bad(fmt.Sprintf("time %q is not an integer (nanoseconds)", vals[0]))
		}
		var b strings.Builder
		for i, v := range vals[1:] {
			if v == "" {
				continue // missing
			}
			if b.Len() > 0 {
				b.WriteByte(',')
			}
			b.WriteString(escapeName(names[i]) + "=" + v)
		}
		if b.Len() == 0 {
			continue // every value missing: no point
		}
		w.WriteString(escapeName(table))
		if tags != "" {
			w.WriteString("," + tags)
		}
		w.WriteString(" " + b.String() + " " + vals[0] + "\n")
	}
	if err := sc.Err(); err != nil {
		return bad(err.Error())
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	return nil
}

// tsbsTimescaleHeader reads a TSBS timescaledb file's header: its first
// line ("tags,NAME TYPE,...") and a line TABLE,FIELD,... per table up to
// the blank line; it returns each table's fields.
func tsbsTimescaleHeader(sc *bufio.Scanner, line *int64, bad func(string) error) (map[string][]string, error) {
	fields := map[string][]string{}
	for sc.Scan() {
		*line++
		t := strings.TrimSpace(sc.Text())
		if *line == 1 {
			if !isTSBSTimescale(t) {
				return nil, bad(`not a TSBS timescaledb file: the first line must be "tags,NAME TYPE,..."`)
			}
			continue
		}
		if t == "" {
			break
		}
		cols := strings.Split(t, ",")
		fields[cols[0]] = cols[1:]
	}
	if len(fields) == 0 {
		return nil, bad("the header names no table and fields (a line TABLE,FIELD,... before the blank line)")
	}
	return fields, nil
}

// escapeTagSet escapes a TSBS tag list (k=v,k=v) for line protocol: its
// values may hold spaces; commas and equals signs separate as they do in
// line protocol. Empty values (a tag TSBS left out) are dropped.
func escapeTagSet(s string) string {
	var out []string
	for _, kv := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(kv, "=")
		if k == "" || v == "" {
			continue
		}
		out = append(out, escapeName(k)+"="+escapeName(v))
	}
	return strings.Join(out, ",")
}

// escapeName escapes what line protocol reserves in a key, tag or field name.
func escapeName(s string) string { return lineproto.Escape(s, ", =") }
