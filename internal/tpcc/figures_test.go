package tpcc

import (
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

func TestFigures(t *testing.T) {
	s := &summary.Summary{Elapsed: 120, TPCC: &summary.TPCC{}, Operations: []summary.Operation{
		{Name: NewOrder.String(), OKOperations: 900}, {Name: Payment.String(), OKOperations: 900},
	}}
	f := Figures(s, Config{Warehouses: 2, Terminals: 4, Unlogged: true}, LoadResult{Loaded: true, Rows: 10}, 3)
	if f.TpmC != 450 || f.TpmTotal != 900 || f.TpmCPerCore != 150 || f.ServerCores != 3 {
		t.Errorf("tpmC %v, tpmTotal %v, per core %v, cores %d", f.TpmC, f.TpmTotal, f.TpmCPerCore, f.ServerCores)
	}
	if f.Mode != ModeBatched || f.Tables != "unlogged" || f.Warehouses != 2 || !f.Load.Loaded {
		t.Errorf("shape: %+v", f)
	}
}
