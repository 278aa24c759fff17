package opentsdb

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/jsonenc"
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
	scale := int64(1000) // seconds
	if opts.MsResolution {
		scale = 1
	}
	for _, s := range series {
		if err := jsonenc.AddPoints(&out, s.DPS, scale, jsonNumber); err != nil {
			return out, fmt.Errorf("opentsdb: own query: %w", err)
		}
	}
	return out, nil
}

// jsonNumber is a data point's value in targets.Rows' form; a string, as
// a serialiser may quote "NaN" and the like, is the number it spells, or
// else its text.
func jsonNumber(raw json.RawMessage) (any, error) {
	return jsonenc.Value(raw, func(x string) any {
		if f, err := strconv.ParseFloat(x, 64); err == nil {
			return f
		}
		return x
	})
}
