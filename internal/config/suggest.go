package config

import "strings"

// maxSuggestDistance is how many single-letter edits a misspelt key may be
// from a known key for the warning to suggest it; more than 2 suggests
// unrelated keys.
const maxSuggestDistance = 2

// suggest returns the known key name (canonical or alias) closest to name,
// or "" when none is within maxSuggestDistance. Ties go to the earlier key
// in the table. A lower-case name (YAML style) gets a lower-case answer.
func suggest(name string) string {
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
		for _, cand := range append([]string{k.Name}, k.Aliases...) {
			if d := editDistance(n, cand); d < bestDist {
				best, bestDist = cand, d
			}
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes (key
// names are ASCII).
func editDistance(a, b string) int {
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

// Suggest returns the key name closest to name (see suggest), or "".
func Suggest(name string) string { return suggest(name) }

// Closest returns the candidate closest to name, compared without regard to
// case, or "" when none is within maxSuggestDistance edits (or, for names of
// up to four letters, one edit: "ok" must not suggest "off"). The CLI uses it
// for flag names, filter values and target options.
func Closest(name string, candidates []string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	limit := maxSuggestDistance
	if len(n) <= 4 {
		limit = 1
	}
	best, bestDist := "", limit+1
	for _, c := range candidates {
		if d := editDistance(n, strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}
