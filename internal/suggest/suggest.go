// Package suggest finds the name a user most likely meant ("did you mean
// ...?") for misspelt keys, flags, operations and values.
package suggest

import "strings"

// maxDistance is how many edits a suggestion may be away; names of up to
// four letters allow one ("ok" must not suggest "off").
const maxDistance = 2

// Closest returns the candidate closest to name, compared without regard to
// case, or "" when none is near enough.
func Closest(name string, candidates []string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	limit := maxDistance
	if len(n) <= 4 {
		limit = 1
	}
	best, bestDist := "", limit+1
	for _, c := range candidates {
		if d := Distance(n, strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// Distance is the Levenshtein distance between a and b, in bytes (the names
// it compares are ASCII).
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
