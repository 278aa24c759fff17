package influxdb

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/httpclient"
)

// language is how the user's own queries meet InfluxDB: InfluxQL, which
// /query cannot bind (Bind ""), so every value is written into the text
// (influxLiteral): text as a single-quoted string literal with each
// backslash, quote and newline backslash-escaped (InfluxQL's scanner reads
// exactly those escapes, and a raw newline would end the literal with an
// error), numbers in plain decimal (its scanner has no exponent form).
// Names are double-quoted identifiers, escaped the same way. A time
// parameter becomes a Millis, which Literal writes as the duration literal
// <n>ms that InfluxQL compares time with (time >= 1700000000000ms).
var language = &targets.Language{Name: "influxql", Bind: "", Literal: influxLiteral, Ident: ident,
	Time: func(t time.Time) any { return Millis(t.UnixMilli()) }}

var _ targets.StatementRunner = (*Target)(nil)

// Millis is a time parameter of an InfluxQL statement: Unix milliseconds,
// written by the language's Literal as <n>ms.
type Millis int64

// String is the time as InfluxQL's literal of it.
func (m Millis) String() string { return strconv.FormatInt(int64(m), 10) + "ms" }

// influxLiteral writes a parameter value as an InfluxQL literal: a Millis
// (or a time.Time) as <n>ms, a string single-quoted and escaped (literal),
// an integer in decimal, a float in decimal without an exponent
// (targets.PlainFloat: 1e+21 would scan as a duration).
func influxLiteral(v any) string {
	switch x := v.(type) {
	case Millis:
		return x.String()
	case time.Time:
		return Millis(x.UnixMilli()).String()
	}
	return targets.Literal(v, literal, targets.PlainFloat)
}

// RunStatement runs one of the user's own InfluxQL statements (or several,
// separated by ';') on /query with epoch=ms, so that times come back as
// Unix milliseconds. Every series of every statement's result is
// flattened into the rows, in the server's order: a row is the series'
// values (time first); a series that a GROUP BY on tags made has the
// values of its tags, ordered by tag key, prepended as text, so that the
// groups stay told apart. Columns are the first series' (its tag keys,
// then its columns). A statement's error, or the request's, is the error.
func (t *Target) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	if len(st.Args) > 0 {
		return targets.Rows{}, fmt.Errorf("influxdb: an InfluxQL statement binds no parameters (%d given)", len(st.Args))
	}
	form := url.Values{"q": {st.Text}, "db": {t.db}, "epoch": {"ms"}}
	data, _, err := t.do(ctx, http.MethodPost, "/query", strings.NewReader(form.Encode()),
		map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	if err != nil {
		return targets.Rows{}, err
	}
	var resp response
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // integers beyond 2^53 stay exact
	if err := dec.Decode(&resp); err != nil {
		return targets.Rows{}, fmt.Errorf("influxdb: decode answer to %q: %w", st.Text, err)
	}
	if resp.Error != "" {
		return targets.Rows{}, fmt.Errorf("influxdb: %s", resp.Error)
	}
	var out targets.Rows
	first := true
	for _, res := range resp.Results {
		if res.Error != "" {
			return targets.Rows{}, fmt.Errorf("influxdb: %s", res.Error)
		}
		for _, se := range res.Series {
			keys := make([]string, 0, len(se.Tags))
			for k := range se.Tags {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			if first {
				out.Columns = append(append(out.Columns, keys...), se.Columns...)
				first = false
			}
			for _, vals := range se.Values {
				if !out.Keep() {
					continue
				}
				row := make([]any, 0, len(keys)+len(vals))
				for _, k := range keys {
					row = append(row, se.Tags[k])
				}
				for _, v := range vals {
					row = append(row, jsonValue(v))
				}
				out.Values = append(out.Values, row)
			}
		}
	}
	return out, nil
}

// jsonValue is a value of /query's JSON answer in targets.Rows' form: a
// number as int64 when whole (times, with epoch=ms, among them), else
// float64.
func jsonValue(v any) any {
	if n, ok := v.(json.Number); ok {
		if i, err := n.Int64(); err == nil {
			return i
		}
		f, err := n.Float64()
		if err != nil {
			return n.String()
		}
		return targets.NormalValue(f)
	}
	return targets.NormalValue(v)
}

var _ targets.PathQuerier = (*Target)(nil)

// QueryPath sends a request as another tool wrote it (TSBS's influx query
// files: /query?q=...). The path names no database, which TSBS's influx
// runner adds as db= (its --db-name): the target's database is added the
// same way, unless the path names one.
func (t *Target) QueryPath(ctx context.Context, method, path string, body []byte) ([]byte, error) {
	method, r := httpclient.Written(method, body)
	if _, query, _ := strings.Cut(path, "?"); !parseQuery(query).Has("db") {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		path += sep + "db=" + url.QueryEscape(t.db)
	}
	data, _, err := t.do(ctx, method, path, r, nil)
	return data, err
}

// parseQuery is a URL's query parameters; an unparsable query has none.
func parseQuery(q string) url.Values {
	v, err := url.ParseQuery(q)
	if err != nil {
		return url.Values{}
	}
	return v
}
