package postgres

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// BenchmarkWritePath compares the write paths on the same data in one run:
// go test -run '^$' -bench WritePath -count 3 ./internal/targets/postgres/
func BenchmarkWritePath(b *testing.B) {
	targettest.RequireServer(b, "postgres", "127.0.0.1:5433")
	for _, path := range []string{"copy", "insert"} {
		b.Run(path, func(b *testing.B) {
			targettest.BenchmarkWrite(b, Driver, targets.Options{Database: "test", Extra: map[string]string{"write_path": path}})
		})
	}
}

// BenchmarkWideWritePath is BenchmarkWritePath on layout=wide:
// go test -run '^$' -bench WideWritePath -count 3 ./internal/targets/postgres/
func BenchmarkWideWritePath(b *testing.B) {
	targettest.RequireServer(b, "postgres", "127.0.0.1:5433")
	for _, path := range []string{"copy", "insert"} {
		b.Run(path, func(b *testing.B) {
			targettest.BenchmarkWrite(b, Driver, targets.Options{Database: "test",
				Extra: map[string]string{"write_path": path, "layout": "wide"}})
		})
	}
}

// BenchmarkRowSource is the per-point cost of walking a dense batch for
// COPY and INSERT, without a server: the sparse check must not show here.
func BenchmarkRowSource(b *testing.B) {
	batch := &ts.Batch{Times: make([]int64, 1000)}
	for c := 0; c < 10; c++ {
		batch.Columns = append(batch.Columns, ts.Column{Type: ts.Double, Doubles: make([]float64, 1000)})
	}
	var r rowSource
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r.reset(batch, 1)
		for r.Next() {
			if _, err := r.Values(); err != nil {
				b.Fatal(err)
			}
		}
	}
}
