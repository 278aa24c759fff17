//go:build cgo

package all

// DuckDB is linked through cgo: a static build (CGO_ENABLED=0, the
// container image's) leaves this embedded engine out, and every server
// target in.
import _ "github.com/tsbench/tsbench/internal/targets/duckdb"
