package opentsdb

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
)

// language is how the user's own queries meet OpenTSDB: the text is the
// JSON body of POST /api/query, which binds nothing, so each value is
// written into it as a JSON literal (jsonLiteral) and a name (a metric, a
// tag key) as one too; times are Unix milliseconds, which start and end
// take. The answer is one row [t, value] per data point (RunStatement).
var language = &targets.Language{Name: "opentsdb", Bind: "", Literal: jsonLiteral, Ident: jsonLiteralString,
	Time: targets.UnixMillis}

var _ targets.StatementRunner = (*Target)(nil)

// jsonLiteral is a value as a JSON literal, its text as jsonLiteralString
// writes it.
func jsonLiteral(v any) string { return targets.JSONLiteral(v, jsonLiteralString) }

// jsonLiteralString is s as a JSON string that OpenTSDB reads as one exact
// name. Inside a tag filter's value OpenTSDB reads * as "every value" and
// | as "or" (a value "*" or "d_0|d_1" would select other series than the
// one named); no metric, tag key or tag value can hold either character,
// so each is written as a space, which no name holds either: the value
// still names nothing, as it did.
func jsonLiteralString(s string) string {
	return targets.JSONString(strings.NewReplacer("*", " ", "|", " ").Replace(s))
}

// RunStatement posts one of the user's own queries (a JSON body, its
// values already written into it) to /api/query?arrays and flattens the
// answer into rows [t, value]: every data point of every series in the
// order OpenTSDB returned them, t in Unix milliseconds (OpenTSDB answers
// in seconds unless the body sets msResolution), integers as int64, other
// numbers as float64. A name OpenTSDB does not know ("No such name for"
// a metric, tag key or tag value) is an empty answer, as in Query: no
// point carries it.
func (t *Target) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	out := targets.Rows{Columns: []string{"t", "value"}}
	if len(st.Args) > 0 {
		return out, fmt.Errorf("opentsdb: own query: %d bound values, but OpenTSDB's queries bind none", len(st.Args))
	}
	var opts struct {
		MsResolution bool `json:"msResolution"`
	}
	json.Unmarshal([]byte(st.Text), &opts) //nolint:errcheck // a body that is not JSON is the server's to refuse
	data, err := t.do(ctx, http.MethodPost, "/api/query?arrays", []byte(st.Text))
	if err != nil {
		if strings.Contains(string(data), "No such name for") {
			return out, nil
		}
		return out, fmt.Errorf("opentsdb: own query: %w", err)
	}
	var series []struct {
		DPS [][2]json.RawMessage `json:"dps"`
	}
	if err := json.Unmarshal(data, &series); err != nil {
		return out, fmt.Errorf("opentsdb: own query: decode answer: %w", err)
	}
	for _, s := range series {
		for _, p := range s.DPS {
			out.Count++
			if len(out.Values) >= targets.MaxRows {
				continue
			}
			tm, err := strconv.ParseInt(string(p[0]), 10, 64)
			if err != nil {
				return out, fmt.Errorf("opentsdb: own query: timestamp %s: %w", p[0], err)
			}
			if !opts.MsResolution {
				tm *= 1000
			}
			v, err := jsonNumber(p[1])
			if err != nil {
				return out, fmt.Errorf("opentsdb: own query: value %s: %w", p[1], err)
			}
			out.Values = append(out.Values, []any{tm, v})
		}
	}
	return out, nil
}

// jsonNumber is a data point's value in targets.Rows' form.
func jsonNumber(raw json.RawMessage) (any, error) {
	s := string(raw)
	switch {
	case s == "null":
		return nil, nil
	case strings.HasPrefix(s, `"`): // "NaN" and the like, if a serialiser quotes them
		var x string
		if err := json.Unmarshal(raw, &x); err != nil {
			return nil, err
		}
		if f, err := strconv.ParseFloat(x, 64); err == nil {
			return f, nil
		}
		return x, nil
	case !strings.ContainsAny(s, ".eE"):
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n, nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	return targets.NormalValue(f), err
}
