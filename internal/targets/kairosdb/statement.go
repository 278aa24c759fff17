package kairosdb

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/jsonenc"
)

// language is how the user's own queries meet KairosDB: the text is the
// JSON body of POST /api/v1/datapoints/query, which binds nothing, so each
// value is written into it as a JSON literal (jsonLiteral) and a name (a
// metric, a tag key) as a JSON string; times are Unix milliseconds, what
// start_absolute and end_absolute take. The answer is one row [t, value]
// per data point (RunStatement).
var language = &targets.Language{Name: "kairosdb", Bind: "", Literal: jsonLiteral, Ident: targets.JSONString,
	Time: targets.UnixMillis}

var _ targets.StatementRunner = (*Target)(nil)

// jsonLiteral is a value as a JSON literal (targets.JSONLiteral).
func jsonLiteral(v any) string { return targets.JSONLiteral(v, targets.JSONString) }

// RunStatement posts one of the user's own queries (a JSON body, its
// values already written into it) to /api/v1/datapoints/query and flattens
// the answer into rows [t, value]: every data point of every result of
// every metric query, in the order KairosDB returned them, t in Unix
// milliseconds, a long as int64, a double as float64, a string data point
// as string.
//
// KairosDB's H2 datastore pastes tag names and values into the SQL of its
// tag filter between single quotes without escaping them: a quote there
// fails the query and can leave the server answering no query at all (see
// names.go). A body whose tag filter holds a single quote is therefore
// refused before it is sent.
func (t *Target) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	if len(st.Args) > 0 {
		return targets.Rows{}, fmt.Errorf("kairosdb: own query: %d bound values, but KairosDB's queries bind none", len(st.Args))
	}
	if err := checkTagFilters(st.Text); err != nil {
		return targets.Rows{}, err
	}
	data, err := t.do(ctx, http.MethodPost, "/api/v1/datapoints/query", []byte(st.Text),
		map[string]string{"Content-Type": "application/json"})
	if err != nil {
		return targets.Rows{}, fmt.Errorf("own query: %w", err)
	}
	var r struct {
		Queries []struct {
			Results []struct {
				Values [][2]json.RawMessage `json:"values"`
			} `json:"results"`
		} `json:"queries"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return targets.Rows{}, fmt.Errorf("kairosdb: own query: decode answer: %w", err)
	}
	out := targets.Rows{Columns: []string{"t", "value"}}
	for _, q := range r.Queries {
		for _, res := range q.Results {
			if err := jsonenc.AddPoints(&out, res.Values, 1, jsonValue); err != nil {
				return out, fmt.Errorf("kairosdb: own query: %w", err)
			}
		}
	}
	return out, nil
}

// jsonValue is a data point's value in targets.Rows' form, a string data
// point's as its text.
func jsonValue(raw json.RawMessage) (any, error) {
	return jsonenc.Value(raw, func(s string) any { return s })
}

// checkTagFilters refuses a query body whose tag filter (a metric query's
// "tags") holds a single quote in a name or value: the H2 datastore would
// paste it into its SQL (see RunStatement). A body that is not such JSON
// is left to the server to refuse.
func checkTagFilters(body string) error {
	var req struct {
		Metrics []struct {
			Tags map[string]json.RawMessage `json:"tags"`
		} `json:"metrics"`
	}
	if json.Unmarshal([]byte(body), &req) != nil {
		return nil
	}
	for _, m := range req.Metrics {
		for k, raw := range m.Tags {
			var vals []string
			if json.Unmarshal(raw, &vals) != nil {
				var one string
				if json.Unmarshal(raw, &one) == nil {
					vals = []string{one}
				}
			}
			for _, s := range append([]string{k}, vals...) {
				if strings.Contains(s, "'") {
					return fmt.Errorf("kairosdb: own query: tag filter %q: %w: its H2 datastore pastes tag names and values "+
						"into SQL between single quotes, unescaped (the query would fail and could leave the server stuck)",
						s, targets.ErrUnsupported)
				}
			}
		}
	}
	return nil
}
