package victoriametrics

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/httpclient"
)

// language is how the user's own queries meet VictoriaMetrics: PromQL
// (MetricsQL, its superset), which /api/v1/query cannot bind (Bind ""), so
// every value is written into the text (promLiteral): text as a
// double-quoted string literal (quote: a backslash, a double quote, a
// newline and any other control character escaped), numbers in plain
// decimal. A time parameter becomes Unix seconds with millisecond
// precision (a float64, 1700000000.123), what `@ {{w.end}}` and
// timestamp() arithmetic take. Names: promIdent.
var language = &targets.Language{Name: "promql", Bind: "", Literal: promLiteral, Ident: promIdent,
	Time: func(t time.Time) any { return float64(t.UnixMilli()) / 1000 }}

var _ targets.StatementRunner = (*Target)(nil)

// promLiteral writes a parameter value as a PromQL literal: a string
// double-quoted (quote), an integer in decimal, a float in decimal without
// an exponent (NaN, Inf, -Inf as PromQL names them), a time as Unix
// seconds.
func promLiteral(v any) string {
	if x, ok := v.(time.Time); ok {
		return promFloat(float64(x.UnixMilli()) / 1000)
	}
	return targets.Literal(v, quote, promFloat)
}

// promFloat is f in decimal without an exponent, or the name PromQL gives
// NaN or an infinity.
func promFloat(f float64) string {
	if name, ok := targets.NonFinite(f, "NaN", "Inf", "-Inf"); ok {
		return name
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// metricName is a name PromQL takes bare as a metric name.
var metricName = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)

// promKeywords are names that PromQL or MetricsQL read as something other
// than a metric where a bare name stands: operators, modifiers, the
// aggregations and the number names, compared without regard to case.
var promKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`and or unless atan2 by without on ignoring group_left group_right
		offset bool inf nan with if ifnot default keep_metric_names limit start end
		sum min max avg group stddev stdvar count count_values bottomk topk quantile quantiles limitk
		limit_ratio distinct sum2 geomean histogram median mode share zscore any mad outliers_mad outliers_iqr
		outliersk bottomk_avg bottomk_max bottomk_min bottomk_median bottomk_last topk_avg topk_max topk_min
		topk_median topk_last`) {
		promKeywords[k] = true
	}
}

// promIdent writes a metric name: as it is where PromQL takes it bare
// ([a-zA-Z_:][a-zA-Z0-9_:]*, no keyword), else — PromQL has no quoted
// identifier — as the selector {__name__="..."} with the name a string
// literal, which selects the same series and which no name can break out
// of. Such a selector takes no further {label filters} after it: a query
// that filters labels as well writes {__name__={{m}}, device={{d}}}, the
// name a literal parameter, which works for every name.
func promIdent(name string) string {
	if metricName.MatchString(name) && !promKeywords[strings.ToLower(name)] {
		return name
	}
	return "{__name__=" + quote(name) + "}"
}

// RunStatement runs one of the user's own PromQL queries as an instant
// query (/api/v1/query) at st.At, or now when it is zero. A vector answer
// is a row [value] per series, in the server's order, the labels dropped
// (sort() or sort_by_label() in the query makes the order a known one); a
// scalar or string answer one row [value]; a matrix answer (a range
// selector, foo[5m]) a row [time, value] per sample, time in Unix
// milliseconds, series after series. Values are numbers (whole ones
// int64; NaN and the infinities float64). An answer of status error is the
// error.
func (t *Target) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	if len(st.Args) > 0 {
		return targets.Rows{}, fmt.Errorf("victoriametrics: a PromQL query binds no parameters (%d given)", len(st.Args))
	}
	at := st.At
	if at.IsZero() {
		at = time.Now()
	}
	data, _, err := t.get(ctx, "/api/v1/query", url.Values{"query": {st.Text}, "time": {seconds(at.UnixMilli())}})
	if err != nil {
		return targets.Rows{}, err
	}
	return decodeInstant(data)
}

// instantAnswer is /api/v1/query's JSON answer.
type instantAnswer struct {
	Status    string `json:"status"`
	ErrorType string `json:"errorType"`
	Error     string `json:"error"`
	Data      struct {
		ResultType string          `json:"resultType"`
		Result     json.RawMessage `json:"result"`
	} `json:"data"`
}

// decodeInstant reads an instant query's answer into Rows (RunStatement).
func decodeInstant(data []byte) (targets.Rows, error) {
	var a instantAnswer
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&a); err != nil {
		return targets.Rows{}, fmt.Errorf("victoriametrics: decode query answer: %w", err)
	}
	if a.Status != "success" {
		return targets.Rows{}, fmt.Errorf("victoriametrics: query: %s: %s", a.ErrorType, a.Error)
	}
	var out targets.Rows
	add := func(row ...any) {
		if out.Keep() {
			out.Values = append(out.Values, row)
		}
	}
	unmarshal := func(v any) error {
		d := json.NewDecoder(bytes.NewReader(a.Data.Result))
		d.UseNumber()
		if err := d.Decode(v); err != nil {
			return fmt.Errorf("victoriametrics: decode %s answer: %w", a.Data.ResultType, err)
		}
		return nil
	}
	switch a.Data.ResultType {
	case "vector":
		var res []struct {
			Value []any `json:"value"`
		}
		if err := unmarshal(&res); err != nil {
			return out, err
		}
		out.Columns = []string{"value"}
		for _, se := range res {
			_, v, err := sample(se.Value)
			if err != nil {
				return out, err
			}
			add(v)
		}
	case "matrix":
		var res []struct {
			Values [][]any `json:"values"`
		}
		if err := unmarshal(&res); err != nil {
			return out, err
		}
		out.Columns = []string{"time", "value"}
		for _, se := range res {
			for _, s := range se.Values {
				tm, v, err := sample(s)
				if err != nil {
					return out, err
				}
				add(tm, v)
			}
		}
	case "scalar", "string":
		var s []any
		if err := unmarshal(&s); err != nil {
			return out, err
		}
		_, v, err := sample(s)
		if err != nil {
			return out, err
		}
		out.Columns = []string{"value"}
		if a.Data.ResultType == "string" {
			v = s[1]
		}
		add(v)
	default:
		return out, fmt.Errorf("victoriametrics: query answered a result of type %q", a.Data.ResultType)
	}
	return out, nil
}

// sample reads a [time, "value"] pair: the time (Unix seconds) as Unix
// milliseconds, the value as a number in targets.Rows' form.
func sample(s []any) (int64, any, error) {
	if len(s) != 2 {
		return 0, nil, fmt.Errorf("victoriametrics: a sample of %d elements, want [time, value]", len(s))
	}
	n, ok := s[0].(json.Number)
	if !ok {
		return 0, nil, fmt.Errorf("victoriametrics: a sample's time %v is not a number", s[0])
	}
	sec, err := n.Float64()
	if err != nil {
		return 0, nil, fmt.Errorf("victoriametrics: a sample's time %s: %w", n, err)
	}
	str, ok := s[1].(string)
	if !ok {
		return 0, nil, fmt.Errorf("victoriametrics: a sample's value %v is not a string", s[1])
	}
	tm := int64(math.Round(sec * 1000))
	v, err := strconv.ParseFloat(str, 64)
	if err != nil {
		return tm, str, nil // a string result's text
	}
	return tm, targets.NormalValue(v), nil
}

var _ targets.PathQuerier = (*Target)(nil)

// QueryPath sends a request as another tool wrote it (TSBS's query files):
// the path and its query string unchanged, under the target's API base.
func (t *Target) QueryPath(ctx context.Context, method, path string, body []byte) ([]byte, error) {
	method, r := httpclient.Written(method, body)
	p, query, _ := strings.Cut(path, "?")
	return t.doInto(ctx, method, p, query, r, nil)
}
