package config

import (
	"strings"

	"github.com/tsbench/tsbench/internal/suggest"
)

// maxSuggestDistance is how many single-letter edits a misspelt key may be
// from a known key for the warning to suggest it; more than 2 suggests
// unrelated keys.
const maxSuggestDistance = 2

// Suggest returns the known key name closest to name, from either
// vocabulary (tsbench's clients, batch_size; IoT-benchmark's CLIENT_NUMBER
// and aliases), or "" when none is within maxSuggestDistance. Ties go to
// the earlier key in the table, and within a key to its tsbench name. A
// lower-case name (YAML style) gets a lower-case answer.
func Suggest(name string) string {
	s := closestKey(name)
	if name == strings.ToLower(name) {
		return strings.ToLower(s)
	}
	return s
}

func closestKey(name string) string {
	n := normalize(name)
	best, bestDist := "", maxSuggestDistance+1
	for _, k := range keyTable {
		if k.family() {
			continue
		}
		for _, cand := range k.names() {
			if d := suggest.Distance(n, cand); d < bestDist {
				best, bestDist = cand, d
			}
		}
	}
	return best
}

// Closest returns the candidate closest to name (see package suggest): the
// CLI uses it for flag names, filter values and target options.
func Closest(name string, candidates []string) string { return suggest.Closest(name, candidates) }
