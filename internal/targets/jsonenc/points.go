package jsonenc

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
)

// AddPoints adds data points as KairosDB and OpenTSDB answer them, JSON
// pairs [t, value], to out as rows [t, value]: t (an integer) times scale
// (1 for Unix milliseconds, 1000 for seconds) and the value as value reads
// it. Every point is counted, the first targets.MaxRows kept; only a kept
// point is read, so an error is a kept point's.
func AddPoints(out *targets.Rows, points [][2]json.RawMessage, scale int64, value func(json.RawMessage) (any, error)) error {
	for _, p := range points {
		if !out.Keep() {
			continue
		}
		tm, err := strconv.ParseInt(string(p[0]), 10, 64)
		if err != nil {
			return fmt.Errorf("timestamp %s: %w", p[0], err)
		}
		v, err := value(p[1])
		if err != nil {
			return fmt.Errorf("value %s: %w", p[1], err)
		}
		out.Values = append(out.Values, []any{tm * scale, v})
	}
	return nil
}

// Value is a data point's JSON value in targets.Rows' form: null as nil,
// an integer as int64, any other number as float64 (a whole one as int64,
// targets.NormalValue), a string as text makes it (the servers differ in
// what a string value is).
func Value(raw json.RawMessage, text func(string) any) (any, error) {
	s := string(raw)
	switch {
	case s == "null":
		return nil, nil
	case strings.HasPrefix(s, `"`):
		var x string
		if err := json.Unmarshal(raw, &x); err != nil {
			return nil, err
		}
		return text(x), nil
	case !strings.ContainsAny(s, ".eE"):
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n, nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	return targets.NormalValue(f), err
}
