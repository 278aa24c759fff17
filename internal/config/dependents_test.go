package config

import (
	"strings"
	"testing"
)

// A key that tunes a capability the run does not turn on is refused, naming
// it and the capability; its default, as a stored configuration lists it,
// and the capability turned on are accepted.
func TestDependentKeys(t *testing.T) {
	for _, c := range []struct {
		args []string
		bad  string // the key the error names; "" = accepted
	}{
		{[]string{"FIND_MAX_STEPS=3"}, "FIND_MAX_STEPS"},
		{[]string{"FIND_MAX_MAX_MEASURE=2m"}, "FIND_MAX_MAX_MEASURE"},
		{[]string{"CRASH_RESTART=true"}, "CRASH_RESTART"},
		{[]string{"FRESHNESS_RATE=5"}, "FRESHNESS_RATE"},
		{[]string{"FIND_MAX_STEPS=20"}, ""}, // the default
		{[]string{"FIND_MAX=INGESTION.p99<50ms", "FIND_MAX_STEPS=3"}, ""},
		{[]string{"FIND_MAX=INGESTION.p99<50ms", "FIND_MAX_MEASURE=20s", "FIND_MAX_MAX_MEASURE=10s"}, "FIND_MAX_MAX_MEASURE"},
		{[]string{"CRASH_AT=5s", "CRASH_DOWN=1s", "DURATION=10s"}, ""},
		{[]string{"FRESHNESS=true", "FRESHNESS_RATE=5"}, ""},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			_, err := FromArgs(c.args...)
			switch {
			case c.bad == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad)):
				t.Fatalf("error %v, want one naming %s", err, c.bad)
			}
		})
	}
}
