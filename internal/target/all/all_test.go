package all

import (
	"testing"

	"github.com/tsbench/tsbench/internal/target"
)

// Every registered target declares the types it stores: the run refuses a
// type a target does not declare before anything is sent, so an empty list
// would refuse every run.
func TestEveryTargetDeclaresTypes(t *testing.T) {
	drivers := target.Drivers()
	if len(drivers) < 15 {
		t.Fatalf("%d targets registered", len(drivers))
	}
	for _, d := range drivers {
		if len(d.Caps.Types) == 0 {
			t.Errorf("%s declares no data type", d.Name)
		}
	}
}
