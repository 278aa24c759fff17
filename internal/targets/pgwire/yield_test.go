package pgwire

import "testing"

// The gate yields while its credit lasts, earns yieldEarn for a yield that
// found the answer and loses one for one that did not, and without credit
// still probes every yieldProbe-th miss.
func TestYieldGate(t *testing.T) {
	for _, c := range []struct {
		name   string
		found  int // yields that found the answer, first
		misses int // misses after them, each yielding in vain if it yields
		want   int // yields among those misses
	}{
		{"none found: a probe at the first miss and then every yieldProbe-th", 0, 3*yieldProbe + 1, 4},
		{"one found: its credit, then probes", 1, yieldProbe, yieldEarn + 1},
		{"credit saturates at yieldMax", 100, yieldMax + 1, yieldMax + 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var g yieldGate
			for range c.found {
				g.paid(true)
			}
			yields := 0
			for range c.misses {
				if g.worth() {
					yields++
					g.paid(false)
				}
			}
			if yields != c.want {
				t.Errorf("%d yields in %d misses, want %d", yields, c.misses, c.want)
			}
		})
	}
}
