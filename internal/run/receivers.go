package run

// The receivers that --out names, opened, and their exporter started: the
// one place that knows every kind of live output.

import (
	"fmt"

	"github.com/tsbench/tsbench/internal/output"
	"github.com/tsbench/tsbench/internal/output/csvout"
	"github.com/tsbench/tsbench/internal/output/influxdb"
	"github.com/tsbench/tsbench/internal/output/jsonout"
	"github.com/tsbench/tsbench/internal/output/otlp"
	"github.com/tsbench/tsbench/internal/output/promrw"
	"github.com/tsbench/tsbench/internal/output/spec"
)

// openReceivers opens one receiver per spec. A receiver that cannot be opened (a
// file that cannot be created) is an error with Required, and a warning
// otherwise: the run goes on without it. version is the tool's.
func openReceivers(specs []spec.Spec, labels output.Labels, opts output.Options, version string) (*output.Exporter, []string, error) {
	var names []string
	var rs []output.Receiver
	var warnings []string
	for _, s := range specs {
		r, err := openReceiver(s, version)
		if err != nil {
			if opts.Required {
				return nil, nil, fmt.Errorf("--out %s: %w", s, err)
			}
			warnings = append(warnings, fmt.Sprintf("--out %s: %v; the run goes on without it", s, err))
			continue
		}
		names = append(names, s.String())
		rs = append(rs, r)
	}
	if len(rs) == 0 {
		return nil, warnings, nil
	}
	return output.New(labels, names, rs, opts), warnings, nil
}

func openReceiver(s spec.Spec, version string) (output.Receiver, error) {
	switch s.Kind {
	case "prometheus-rw":
		return promrw.New(s.Where), nil
	case "influxdb":
		return influxdb.New(s.Where)
	case "otlp":
		return otlp.New(s.Where, version), nil
	case "json":
		return jsonout.New(s.Where)
	case "csv":
		return csvout.New(s.Where)
	}
	return nil, fmt.Errorf("unknown receiver %q (allowed: %s)", s.Kind, spec.Allowed)
}
