package clickhouse

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
)

// language is how the user's own queries meet ClickHouse. The HTTP
// interface's server-side parameters ({name:Type} with param_name= in the
// URL) came with ClickHouse 19.11, after the 18.16 this target is tested
// on, so values are written into the text: numbers as they are (a negative
// one in parentheses, so that "t -{{x}}" never becomes a "--" comment),
// text single-quoted with each backslash and quote escaped by a backslash
// (quote), names in backquotes (quoteIdent). Times are the points table's
// Int64 Unix milliseconds. No Explain: 18.16 has no EXPLAIN.
var language = &targets.Language{Name: "sql", Bind: "", Literal: literal, Ident: quoteIdent,
	Time: targets.UnixMillis}

var _ targets.StatementRunner = (*Target)(nil)

// literal is a value as a ClickHouse literal.
func literal(v any) string {
	switch x := v.(type) {
	case string:
		return quote(x)
	case float64:
		if name, ok := targets.NonFinite(x, "nan", "inf", "(-inf)"); ok {
			return name
		}
	}
	s := targets.NumberLiteral(v)
	if strings.HasPrefix(s, "-") {
		return "(" + s + ")"
	}
	return s
}

// RunStatement runs one of the user's own queries (its values already in
// its text) in the target's database, the answer streamed as
// TabSeparatedWithNamesAndTypes and read by its column types: integers as
// int64 (a UInt64 past int64 as float64), floats and decimals as float64,
// DateTime and Date as Unix milliseconds, \N as nil, anything else (String,
// arrays, ...) as its text. The text must not name a FORMAT of its own.
func (t *Target) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	if len(st.Args) > 0 {
		return targets.Rows{}, fmt.Errorf("clickhouse: own query: %d bound values, but ClickHouse's language binds none", len(st.Args))
	}
	body, err := t.tr.Own(ctx, t.db, st.Text)
	if err != nil {
		return targets.Rows{}, err
	}
	defer body.Close()
	out, err := t.readTSV(ctx, body)
	if err != nil {
		return out, fmt.Errorf("clickhouse: %s: own query: %w", t.tr.Where(), err)
	}
	return out, nil
}

// readTSV reads a TabSeparatedWithNamesAndTypes answer into Rows.
func (t *Target) readTSV(ctx context.Context, r io.Reader) (targets.Rows, error) {
	var out targets.Rows
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<30)
	var types []chType
	var last string
	for sc.Scan() {
		line := sc.Text()
		last = line
		fields := strings.Split(line, "\t")
		switch {
		case out.Columns == nil:
			out.Columns = make([]string, len(fields))
			for i, f := range fields {
				out.Columns[i] = unescapeTSV(f)
			}
			continue
		case types == nil:
			if len(fields) != len(out.Columns) {
				return out, answerError(line)
			}
			types = make([]chType, len(fields))
			for i, f := range fields {
				ct, err := t.parseType(ctx, unescapeTSV(f))
				if err != nil {
					return out, err
				}
				types[i] = ct
			}
			continue
		}
		if len(fields) != len(types) {
			return out, answerError(line)
		}
		if !out.Keep() {
			continue
		}
		row := make([]any, len(fields))
		for i, f := range fields {
			v, err := types[i].value(f)
			if err != nil {
				return out, fmt.Errorf("column %s: %w", out.Columns[i], err)
			}
			row[i] = v
		}
		out.Values = append(out.Values, row)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("read answer: %w", err)
	}
	// An error after the answer began comes as a last line of its own
	// (the status was sent already).
	if strings.HasPrefix(last, "Code: ") && strings.Contains(last, "Exception") {
		return out, answerError(last)
	}
	return out, nil
}

func answerError(line string) error {
	if len(line) > 500 {
		line = line[:500] + "..."
	}
	return errors.New("answer: " + line)
}

// chType is how a column's values read.
type chType struct {
	kind byte // 'i' integer, 'u' unsigned, 'f' float, 't' DateTime, 'd' Date, 's' text, 'n' Nothing
	loc  *time.Location
}

// parseType reads a column type: Nullable and LowCardinality unwrapped,
// a DateTime's time zone its own or the server's.
func (t *Target) parseType(ctx context.Context, typ string) (chType, error) {
	for _, w := range []string{"Nullable(", "LowCardinality("} {
		for strings.HasPrefix(typ, w) && strings.HasSuffix(typ, ")") {
			typ = typ[len(w) : len(typ)-1]
		}
	}
	name, args, _ := strings.Cut(typ, "(")
	switch {
	case strings.HasPrefix(name, "UInt"):
		return chType{kind: 'u'}, nil
	case strings.HasPrefix(name, "Int"):
		return chType{kind: 'i'}, nil
	case strings.HasPrefix(name, "Float"), strings.HasPrefix(name, "Decimal"):
		return chType{kind: 'f'}, nil
	case name == "Nothing":
		return chType{kind: 'n'}, nil
	case name == "DateTime", name == "DateTime64", name == "Date", name == "Date32":
		kind := byte('t')
		if strings.HasPrefix(name, "Date") && !strings.HasPrefix(name, "DateTime") {
			kind = 'd'
		}
		if i := strings.IndexByte(args, '\''); i >= 0 {
			if j := strings.LastIndexByte(args, '\''); j > i {
				loc, err := time.LoadLocation(args[i+1 : j])
				if err != nil {
					return chType{}, fmt.Errorf("type %s: %w", typ, err)
				}
				return chType{kind: kind, loc: loc}, nil
			}
		}
		loc, err := t.serverZone(ctx)
		return chType{kind: kind, loc: loc}, err
	}
	return chType{kind: 's'}, nil
}

// value reads one field.
func (c chType) value(f string) (any, error) {
	if f == `\N` {
		return nil, nil
	}
	switch c.kind {
	case 'n':
		return nil, nil
	case 'i':
		return strconv.ParseInt(f, 10, 64)
	case 'u':
		n, err := strconv.ParseUint(f, 10, 64)
		return targets.NormalValue(n), err
	case 'f':
		x, err := strconv.ParseFloat(f, 64)
		return targets.NormalValue(x), err
	case 't':
		tm, err := time.ParseInLocation("2006-01-02 15:04:05.999999999", f, c.loc)
		return tm.UnixMilli(), err
	case 'd':
		tm, err := time.ParseInLocation("2006-01-02", f, c.loc)
		return tm.UnixMilli(), err
	}
	return unescapeTSV(f), nil
}

// zones caches each server's time zone (timezone()), by where it is
// (Transport.Where): what a DateTime without a zone of its own is in.
var zones sync.Map

func (t *Target) serverZone(ctx context.Context) (*time.Location, error) {
	if loc, ok := zones.Load(t.tr.Where()); ok {
		return loc.(*time.Location), nil
	}
	data, err := t.exec(ctx, "SELECT timezone()", nil)
	if err != nil {
		return nil, err
	}
	loc, err := time.LoadLocation(strings.TrimSpace(string(data)))
	if err != nil {
		return nil, fmt.Errorf("server time zone: %w", err)
	}
	zones.Store(t.tr.Where(), loc)
	return loc, nil
}
