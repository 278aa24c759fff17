// Package spec parses the values of --out and OUTPUTS: KIND=WHERE, one
// receiver each. It is a leaf package so that the configuration can check a
// value when it is read, before a long run, without importing the
// receivers.
package spec

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
)

// Kinds are the receivers, each with what its WHERE is.
var Kinds = map[string]string{
	"prometheus-rw": "URL", // remote write 1.0
	"influxdb":      "URL", // line protocol
	"otlp":          "URL", // OTLP metrics over HTTP/protobuf
	"json":          "FILE",
	"csv":           "FILE",
}

// Allowed is what an OUTPUTS or --out value may be, as text for messages.
var Allowed = func() string {
	names := slices.Sorted(maps.Keys(Kinds))
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = k + "=" + Kinds[k]
	}
	return strings.Join(parts, ", ")
}()

// Spec is one receiver: its kind and where it sends or writes.
type Spec struct {
	Kind  string
	Where string
}

// String gives the spec back as the user wrote it, with any password in a
// URL masked: it is printed in messages and the end-of-run report.
func (s Spec) String() string {
	w := s.Where
	if Kinds[s.Kind] == "URL" {
		if u, err := url.Parse(w); err == nil {
			w = u.Redacted()
		}
	}
	return s.Kind + "=" + w
}

// Parse reads one KIND=WHERE.
func Parse(v string) (Spec, error) {
	kind, where, ok := strings.Cut(strings.TrimSpace(v), "=")
	kind = strings.ToLower(strings.TrimSpace(kind))
	where = strings.TrimSpace(where)
	what, known := Kinds[kind]
	switch {
	case !ok || kind == "":
		return Spec{}, fmt.Errorf("%q: want KIND=WHERE, one of %s", v, Allowed)
	case !known:
		return Spec{}, fmt.Errorf("%q: unknown receiver %q (allowed: %s)", v, kind, Allowed)
	case where == "":
		return Spec{}, fmt.Errorf("%q: %s needs a %s after '='", v, kind, what)
	}
	if what == "URL" {
		u, err := url.Parse(where)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return Spec{}, fmt.Errorf("%q: %s needs an http:// or https:// URL, e.g. %s", Spec{kind, where}, kind, example(kind))
		}
	}
	return Spec{Kind: kind, Where: where}, nil
}

// ParseList reads several specs separated by sep (OUTPUTS in a
// .properties file or --set), skipping empty ones.
func ParseList(v, sep string) ([]Spec, error) {
	var out []Spec
	for _, part := range strings.Split(v, sep) {
		if strings.TrimSpace(part) == "" {
			continue
		}
		s, err := Parse(part)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func example(kind string) string {
	switch kind {
	case "prometheus-rw":
		return "http://127.0.0.1:8428/api/v1/write"
	case "influxdb":
		return "http://127.0.0.1:8086/tsbench"
	default:
		return "http://127.0.0.1:4318/v1/metrics"
	}
}
