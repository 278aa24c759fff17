package mysql

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// BenchmarkWritePath compares the write paths on the same data in one run:
// go test -run '^$' -bench WritePath -count 3 ./internal/targets/mysql/
func BenchmarkWritePath(b *testing.B) {
	targettest.RequireServer(b, "mariadb", "127.0.0.1:3307")
	for _, path := range []string{"insert", "load"} {
		b.Run(path, func(b *testing.B) {
			targettest.BenchmarkWrite(b, Driver, targets.Options{Database: "test", Extra: map[string]string{"write_path": path}})
		})
	}
}
