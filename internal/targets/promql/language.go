package promql

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
)

// The engines that evaluate PromQL (targets.Language.Engine): Prometheus'
// own, which Mimir and Thanos run too, and VictoriaMetrics' MetricsQL,
// which answers some functions differently by design.
const (
	EnginePrometheus = "prometheus"
	EngineMetricsQL  = "metricsql"
)

// NewLanguage is how the user's own queries meet a server that speaks
// PromQL (a dialect may add keywords: MetricsQL's): /api/v1/query cannot
// bind (Bind ""), so every value is written into the text (Literal): text
// as a double-quoted string literal (Quote: a backslash, a double quote, a
// newline and any other control character escaped), numbers in plain
// decimal. A time parameter becomes Unix seconds with millisecond
// precision (a float64, 1700000000.123), what `@ {{w.end}}` and
// timestamp() arithmetic take. Names: Ident, with PromQL's keywords and
// the dialect's. engine is the Language's Engine.
func NewLanguage(engine string, keywords ...string) *targets.Language {
	kw := map[string]bool{}
	for _, k := range append(strings.Fields(promKeywords), keywords...) {
		kw[strings.ToLower(k)] = true
	}
	return &targets.Language{Name: "promql", Engine: engine, Bind: "", Literal: Literal,
		Ident: func(name string) string { return ident(name, kw) },
		Time:  func(t time.Time) any { return float64(t.UnixMilli()) / 1000 }}
}

// promKeywords are names that PromQL reads as something other than a
// metric where a bare name stands: operators, modifiers, the aggregations
// and the number names.
const promKeywords = `and or unless atan2 by without on ignoring group_left group_right fill fill_left fill_right
	offset bool inf nan start end step range smoothed anchored
	sum min max avg group stddev stdvar count count_values bottomk topk quantile limitk limit_ratio`

// Literal writes a parameter value as a PromQL literal: a string
// double-quoted (Quote), an integer in decimal, a float in decimal without
// an exponent (NaN, Inf, -Inf as PromQL names them), a time as Unix
// seconds.
func Literal(v any) string {
	if x, ok := v.(time.Time); ok {
		return Float(float64(x.UnixMilli()) / 1000)
	}
	return targets.Literal(v, Quote, Float)
}

// Float is f in decimal without an exponent, or the name PromQL gives NaN
// or an infinity.
func Float(f float64) string {
	if name, ok := targets.NonFinite(f, "NaN", "Inf", "-Inf"); ok {
		return name
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// metricName is a name PromQL takes bare as a metric name.
var metricName = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)

// ident writes a metric name: as it is where PromQL takes it bare
// ([a-zA-Z_:][a-zA-Z0-9_:]*, no keyword, compared without regard to
// case), else as the selector {__name__="..."} with the name a string
// literal, which selects the same series and which no name can break out
// of. Such a selector takes no further {label filters} after it: a query
// that filters labels as well writes {__name__={{m}}, device={{d}}}, the
// name a literal parameter, which works for every name.
func ident(name string, keywords map[string]bool) string {
	if metricName.MatchString(name) && !keywords[strings.ToLower(name)] {
		return name
	}
	return "{__name__=" + Quote(name) + "}"
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

// DecodeInstant reads an instant query's answer into Rows (a user's own
// query): a vector is a row [value] per series, in the server's order, the
// labels dropped; a scalar or string one row [value]; a matrix (a range
// selector) a row [time, value] per sample, time in Unix milliseconds,
// series after series. Values are numbers (whole ones int64; NaN and the
// infinities float64). An answer of status error is the error.
func DecodeInstant(data []byte) (targets.Rows, error) {
	var a instantAnswer
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&a); err != nil {
		return targets.Rows{}, fmt.Errorf("decode query answer: %w", err)
	}
	if a.Status != "success" {
		return targets.Rows{}, fmt.Errorf("query: %s: %s", a.ErrorType, a.Error)
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
			return fmt.Errorf("decode %s answer: %w", a.Data.ResultType, err)
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
		return out, fmt.Errorf("query answered a result of type %q", a.Data.ResultType)
	}
	return out, nil
}

// sample reads a [time, "value"] pair: the time (Unix seconds) as Unix
// milliseconds, the value as a number in targets.Rows' form.
func sample(s []any) (int64, any, error) {
	if len(s) != 2 {
		return 0, nil, fmt.Errorf("a sample of %d elements, want [time, value]", len(s))
	}
	n, ok := s[0].(json.Number)
	if !ok {
		return 0, nil, fmt.Errorf("a sample's time %v is not a number", s[0])
	}
	sec, err := n.Float64()
	if err != nil {
		return 0, nil, fmt.Errorf("a sample's time %s: %w", n, err)
	}
	str, ok := s[1].(string)
	if !ok {
		return 0, nil, fmt.Errorf("a sample's value %v is not a string", s[1])
	}
	tm := int64(math.Round(sec * 1000))
	v, err := strconv.ParseFloat(str, 64)
	if err != nil {
		return tm, str, nil // a string result's text
	}
	return tm, targets.NormalValue(v), nil
}

// Vector is an instant vector answer: each series' labels (those asked
// for, in order) and value, in the server's order.
type Vector struct {
	Labels []string
	Value  float64
}

// DecodeVector reads an instant query's vector answer, keeping of each
// series the labels named. An error status or another result type is an
// error quoting expr.
func DecodeVector(data []byte, expr string, labels ...string) ([]Vector, error) {
	var r struct {
		Status string
		Error  string
		Data   struct {
			ResultType string `json:"resultType"`
			Result     []struct {
				Metric map[string]string `json:"metric"`
				Value  [2]any            `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("decode %s: %w", expr, err)
	}
	if r.Status != "success" {
		return nil, fmt.Errorf("%s: %s", expr, r.Error)
	}
	if r.Data.ResultType != "vector" {
		return nil, fmt.Errorf("%s: a %q answer, want a vector", expr, r.Data.ResultType)
	}
	out := make([]Vector, 0, len(r.Data.Result))
	for _, x := range r.Data.Result {
		s, _ := x.Value[1].(string)
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: value %q: %w", expr, s, err)
		}
		o := Vector{Value: v}
		for _, l := range labels {
			o.Labels = append(o.Labels, x.Metric[l])
		}
		out = append(out, o)
	}
	return out, nil
}
