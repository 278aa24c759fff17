package promrun

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/tsbench/tsbench/internal/promshape"
	"github.com/tsbench/tsbench/internal/remotewrite"
)

// apiAnswer is the answer of Prometheus' query API (and VictoriaMetrics').
type apiAnswer struct {
	Status string `json:"status"`
	Error  string `json:"error"`
	Data   struct {
		ResultType string `json:"resultType"`
		Result     []struct {
			Metric map[string]string `json:"metric"`
			Value  []any             `json:"value"`
			Values [][]any           `json:"values"`
		} `json:"result"`
	} `json:"data"`
}

// decode reads an answer of the result type want.
func decode(data []byte, want string) (*apiAnswer, error) {
	var a apiAnswer
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("decode the answer: %w", err)
	}
	if a.Status != "success" {
		return nil, fmt.Errorf("status %q: %s", a.Status, a.Error)
	}
	if a.Data.ResultType != want {
		return nil, fmt.Errorf("a %q answer, want a %s", a.Data.ResultType, want)
	}
	return &a, nil
}

// labelsOf is a metric's labels sorted by name, as promshape has them,
// without those named in drop.
func labelsOf(m map[string]string, drop []string) []remotewrite.Label {
	ls := make([]remotewrite.Label, 0, len(m))
	for n, v := range m {
		if !slices.Contains(drop, n) {
			ls = append(ls, remotewrite.Label{Name: n, Value: v})
		}
	}
	sort.Slice(ls, func(i, j int) bool { return ls[i].Name < ls[j].Name })
	return ls
}

// point reads a [time, "value"] pair: time in seconds (a JSON number),
// value a string Prometheus writes round-trippable.
func point(p []any) (promshape.Point, error) {
	if len(p) != 2 {
		return promshape.Point{}, fmt.Errorf("a point of %d elements, want 2", len(p))
	}
	sec, ok := p[0].(float64)
	s, ok2 := p[1].(string)
	if !ok || !ok2 {
		return promshape.Point{}, fmt.Errorf("point %v: want [seconds, \"value\"]", p)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return promshape.Point{}, fmt.Errorf("value %q: %w", s, err)
	}
	return promshape.Point{T: int64(math.Round(sec * 1000)), V: v}, nil
}

// DecodeVector reads an instant query's answer as a promshape.Vector,
// sorted by promshape.Key, without the labels named in drop.
func DecodeVector(data []byte, drop ...string) (promshape.Vector, error) {
	a, err := decode(data, "vector")
	if err != nil {
		return nil, err
	}
	out := make(promshape.Vector, 0, len(a.Data.Result))
	for _, r := range a.Data.Result {
		p, err := point(r.Value)
		if err != nil {
			return nil, err
		}
		out = append(out, promshape.Sample{Labels: labelsOf(r.Metric, drop), Value: p.V})
	}
	return promshape.Sorted(out), nil
}

// DecodeMatrix reads a range query's answer as a promshape.Matrix, sorted
// by promshape.Key, without the labels named in drop.
func DecodeMatrix(data []byte, drop ...string) (promshape.Matrix, error) {
	a, err := decode(data, "matrix")
	if err != nil {
		return nil, err
	}
	out := make(promshape.Matrix, 0, len(a.Data.Result))
	for _, r := range a.Data.Result {
		s := promshape.Series{Labels: labelsOf(r.Metric, drop)}
		for _, v := range r.Values {
			p, err := point(v)
			if err != nil {
				return nil, err
			}
			s.Points = append(s.Points, p)
		}
		out = append(out, s)
	}
	return promshape.SortedMatrix(out), nil
}

// same compares two values exactly: bit for bit, so that NaN equals NaN.
func same(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || a == b }

// near compares an answer's value with the model's: exactly, or within the
// model's tolerance for an inexact value.
func near(want promshape.Sample, got float64) bool {
	return same(want.Value, got) || (want.Tol > 0 && math.Abs(want.Value-got) <= want.Tol)
}

// valueText is the model's value as a difference shows it: its tolerance
// beside an inexact one.
func valueText(s promshape.Sample) string {
	if s.Tol > 0 {
		return fmt.Sprintf("%v (±%.3g)", s.Value, s.Tol)
	}
	return fmt.Sprint(s.Value)
}

// CompareVector is "" when got is want exactly (an inexact value within
// its tolerance), else the first difference:
// the series and the two values, or the series one has and the other not.
func CompareVector(want, got promshape.Vector) string {
	i, j := 0, 0
	for i < len(want) || j < len(got) {
		var kw, kg string
		if i < len(want) {
			kw = promshape.Key(want[i].Labels)
		}
		if j < len(got) {
			kg = promshape.Key(got[j].Labels)
		}
		switch {
		case j >= len(got) || (i < len(want) && kw < kg):
			return fmt.Sprintf("series %s: want %s, got none", kw, valueText(want[i]))
		case i >= len(want) || kg < kw:
			return fmt.Sprintf("series %s: want none, got %v", kg, got[j].Value)
		case !near(want[i], got[j].Value):
			return fmt.Sprintf("series %s: want %s, got %v", kw, valueText(want[i]), got[j].Value)
		}
		i, j = i+1, j+1
	}
	return ""
}

// CompareMatrix is CompareVector of each evaluation time of a range
// query's answer.
func CompareMatrix(want, got promshape.Matrix) string {
	times := map[int64]bool{}
	at := func(m promshape.Matrix) map[int64]promshape.Vector {
		out := map[int64]promshape.Vector{}
		for _, s := range m {
			for _, p := range s.Points {
				out[p.T] = append(out[p.T], promshape.Sample{Labels: s.Labels, Value: p.V, Tol: p.Tol})
				times[p.T] = true
			}
		}
		return out
	}
	w, g := at(want), at(got)
	ts := make([]int64, 0, len(times))
	for t := range times {
		ts = append(ts, t)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	for _, t := range ts {
		if d := CompareVector(w[t], g[t]); d != "" {
			return fmt.Sprintf("at %d ms: %s", t, d)
		}
	}
	return ""
}
