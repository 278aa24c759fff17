package targets

import (
	"maps"
	"sync"
)

// FallbackCounter is implemented by targets that answer some queries
// another way than their declared one (VictoriaMetrics' GROUP_BY from the
// raw export where its rollups cannot answer exactly): how many, by
// reason. The run's notes say so, since such a query's latency measures
// the other way.
type FallbackCounter interface {
	Fallbacks() map[string]int64
}

// Fallbacks counts queries answered another way, by reason; the zero value
// is ready and safe for concurrent use. A target embeds it (or holds it as
// a field and forwards Fallbacks).
type Fallbacks struct {
	mu sync.Mutex
	n  map[string]int64
}

// Add counts one query answered another way for reason.
func (f *Fallbacks) Add(reason string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == nil {
		f.n = map[string]int64{}
	}
	f.n[reason]++
}

// Fallbacks is a copy of the counts.
func (f *Fallbacks) Fallbacks() map[string]int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return maps.Clone(f.n)
}
