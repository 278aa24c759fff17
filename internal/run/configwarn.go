package run

// The warnings that reading a configuration gave (keys set twice, guessed
// values, IoT-benchmark keys tsbench does not use) are shown once, before
// anything runs.

import (
	"fmt"
	"io"
	"strings"
)

// ignoredMarker is how config words the warning for an IoT-benchmark key
// tsbench accepts and does not use.
const ignoredMarker = " accepted, ignored: "

// PrintConfigWarnings writes first, as one list, the IoT-benchmark keys tsbench accepts
// but does not use (an IoT-benchmark file has many, all harmless), then
// each other warning.
func PrintConfigWarnings(w io.Writer, warnings []string) {
	var ignored, other []string
	for _, s := range warnings {
		if strings.Contains(s, ignoredMarker) {
			ignored = append(ignored, s)
		} else {
			other = append(other, s)
		}
	}
	if len(ignored) > 0 {
		fmt.Fprintf(w, "tsbench: warning: %d IoT-benchmark key(s) accepted but not used by tsbench (--strict refuses them):\n", len(ignored))
		for _, s := range ignored {
			where, why, _ := strings.Cut(s, ignoredMarker)
			fmt.Fprintf(w, "  %s: %s\n", where, why)
		}
	}
	for _, s := range other {
		fmt.Fprintln(w, "tsbench: warning:", s)
	}
}
