// Package jsonout writes samples to a file as JSON lines: one object per
// second (output.Sample), written as the second closes, so that `tail -f`
// follows the run.
//
// It stands apart as k6's outputs do, one package per receiver behind
// output.Receiver: a new receiver is one new package, and each brings only
// its own format. internal/cli's receivers.go is the one place that knows
// them all.
package jsonout

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/tsbench/tsbench/internal/output"
)

// Receiver is one JSON-lines file.
type Receiver struct {
	path string
	f    *os.File
}

// New creates (or truncates) the file at path.
func New(path string) (*Receiver, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("json: %w", err)
	}
	return &Receiver{path: path, f: f}, nil
}

// Send writes one line per sample, the batch in one write.
func (r *Receiver) Send(_ context.Context, batch []*output.Sample) error {
	var buf []byte
	for _, s := range batch {
		b, err := json.Marshal(s)
		if err != nil {
			return fmt.Errorf("json: encode: %w", err)
		}
		buf = append(append(buf, b...), '\n')
	}
	if _, err := r.f.Write(buf); err != nil {
		return fmt.Errorf("json: write %s: %w", r.path, err)
	}
	return nil
}

// Close closes the file.
func (r *Receiver) Close(context.Context) error {
	if err := r.f.Close(); err != nil {
		return fmt.Errorf("json: close %s: %w", r.path, err)
	}
	return nil
}
