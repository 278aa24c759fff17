package runner

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// A default proportion loses the types the target cannot store, with a
// note; one the user set is left for the run's own check.
func TestFitDefaultTypes(t *testing.T) {
	d := &targets.Driver{Name: "numbers", Caps: targets.Capabilities{Types: []ts.DataType{ts.Double, ts.Int64}}}
	cfg := config.Default()
	note, err := FitDefaultTypes(cfg, d)
	if err != nil || !strings.Contains(note, "the numbers target cannot store every type of the default INSERT_DATATYPE_PROPORTION") {
		t.Fatalf("default: %q %v", note, err)
	}
	for i, typ := range ts.DataTypes {
		if cfg.TypeProportion[i] != 0 && !d.Caps.SupportsType(typ) {
			t.Errorf("%v kept: %v", typ, cfg.TypeProportion)
		}
	}
	if note, err := FitDefaultTypes(cfg, d); note != "" || err != nil {
		t.Errorf("fitted again: %q %v", note, err)
	}
	set := config.Default()
	if err := config.Set(set, "INSERT_DATATYPE_PROPORTION", "1:1:1:1:1:1"); err != nil {
		t.Fatal(err)
	}
	if note, err := FitDefaultTypes(set, d); note != "" || err != nil {
		t.Errorf("the user's proportion: %q %v", note, err)
	}
}
