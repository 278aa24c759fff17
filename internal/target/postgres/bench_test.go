package postgres

import (
	"testing"

	"github.com/tsbench/tsbench/internal/target"
	"github.com/tsbench/tsbench/internal/target/targettest"
)

// BenchmarkWritePath compares the write paths on the same data in one run:
// go test -run '^$' -bench WritePath -count 3 ./internal/target/postgres/
func BenchmarkWritePath(b *testing.B) {
	targettest.RequireServer(b, "postgres", "127.0.0.1:5433")
	for _, path := range []string{"copy", "insert"} {
		b.Run(path, func(b *testing.B) {
			targettest.BenchmarkWrite(b, Driver, target.Options{Database: "test", Extra: map[string]string{"write_path": path}})
		})
	}
}
