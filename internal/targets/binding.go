package targets

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/tsbench/tsbench/internal/ts"
)

// Binding is the schema a target's connection learnt from Setup or Bind.
//
// Every target needs the schema before it can write or query, and every
// target used to repeat the same preamble: fail when Setup or Bind has not
// run, then find the batch's device in the schema and fail when it is not
// there. A target holds a Binding instead, so that the check and its error
// messages are written once.
//
// A Binding has no lock of its own: the target guards it with the lock that
// guards the rest of its connection state, as it guarded its schema field.
type Binding struct {
	prefix string // "<target>: ", or empty
	schema *ts.Schema
}

// Bound is a Binding with the lock that guards it and the rest of one
// client's connection state: what a target keeps beside its connection
// when it needs nothing more. Targets embed it (the SQL targets directly,
// the metric-and-tags ones through jsonenc.Bound).
type Bound struct {
	Mu      sync.Mutex
	Binding Binding
}

// Bind remembers the schema on a connection that did not run Setup
// (Binder).
func (x *Bound) Bind(_ context.Context, s *ts.Schema) error {
	x.Mu.Lock()
	defer x.Mu.Unlock()
	x.Binding.Set(s)
	return nil
}

// SeriesBase is the series id of the first sensor of b's device, whose
// sensors' series follow it; the caller holds Mu.
func (x *Bound) SeriesBase(b *ts.Batch) (int64, error) {
	s, pos, err := x.Binding.DevicePos(b.Device)
	if err != nil {
		return 0, err
	}
	return s.SeriesID(pos, 0), nil
}

// NewBinding returns an unbound Binding whose errors start with
// "<targetName>: ". With an empty targetName they carry no prefix, for a
// target that wraps every error in its own name anyway.
func NewBinding(targetName string) Binding {
	b := Binding{}
	if targetName != "" {
		b.prefix = targetName + ": "
	}
	return b
}

// Bind records s in b, under mu, with what the target derives of it:
// derive runs first, without mu (it may refuse s, and then nothing is
// recorded), and keep records what it made under mu, beside the schema, so
// that no operation sees the one without the other. Every target's Bind
// takes these steps.
func Bind[T any](b *Binding, mu sync.Locker, s *ts.Schema, derive func(*ts.Schema) (T, error), keep func(T)) error {
	v, err := derive(s)
	if err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	b.Set(s)
	keep(v)
	return nil
}

// Errorf is an error in the Binding's voice, its target's name first as
// the Binding's own errors have it, for a shared helper that speaks for
// the target.
func (b *Binding) Errorf(format string, a ...any) error {
	return fmt.Errorf(b.prefix+format, a...)
}

// Set records the schema; Setup and Bind call it.
func (b *Binding) Set(s *ts.Schema) { b.schema = s }

// Schema returns the recorded schema, or an error saying that Setup or Bind
// must run first.
func (b *Binding) Schema() (*ts.Schema, error) {
	if b.schema == nil {
		return nil, errors.New(b.prefix + "no schema: call Setup or Bind first")
	}
	return b.schema, nil
}

// SchemaUnder returns the recorded schema as Schema does, reading it under
// mu, the lock that guards the Binding, and holding mu for nothing else: for
// a query that does not keep the connection's lock while the server answers.
func (b *Binding) SchemaUnder(mu sync.Locker) (*ts.Schema, error) {
	mu.Lock()
	defer mu.Unlock()
	return b.Schema()
}

// Lock takes mu, the lock that guards the Binding and the rest of the
// target's connection, and returns the recorded schema with mu held, for
// the caller to release (defer mu.Unlock()). Without a schema it releases
// mu itself and returns Schema's error: an operation takes its connection
// and checks that Setup or Bind ran in one step, as every target's Query,
// Count and Write began.
func (b *Binding) Lock(mu sync.Locker) (*ts.Schema, error) {
	mu.Lock()
	s, err := b.Schema()
	if err != nil {
		mu.Unlock()
		return nil, err
	}
	return s, nil
}

// LockDevice is Lock for an operation on device d (a Write): it returns d's
// position as DevicePos does too, with mu held only when err is nil.
func (b *Binding) LockDevice(mu sync.Locker, d *ts.Device) (*ts.Schema, int, error) {
	mu.Lock()
	s, pos, err := b.DevicePos(d)
	if err != nil {
		mu.Unlock()
		return nil, -1, err
	}
	return s, pos, nil
}

// DevicePos returns the recorded schema and the position of d among its
// devices (what ts.Schema.SeriesID takes), or an error when there is no
// schema yet or d is not in it.
func (b *Binding) DevicePos(d *ts.Device) (*ts.Schema, int, error) {
	s, err := b.Schema()
	if err != nil {
		return nil, -1, err
	}
	if d == nil {
		return nil, -1, errors.New(b.prefix + "no device given")
	}
	pos := s.DevicePos(d.Index)
	if pos < 0 {
		return nil, -1, fmt.Errorf("%sdevice %q (index %d) is not in the schema", b.prefix, d.Name, d.Index)
	}
	return s, pos, nil
}
