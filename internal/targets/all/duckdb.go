//go:build duckdb && cgo

package all

// DuckDB is linked in only with the build tag duckdb (go build -tags
// duckdb), and through cgo: its prebuilt C++ library is a 30 MB download
// that unpacks to 130 MB, compiled through cgo and linked by the external
// linker, which a first build pays for even when DuckDB is never run. The
// default binary, which the README's first command builds, keeps the
// embedded SQLite engine (duckdb_leftout.go refuses DuckDB naming the
// tag). CI vets, builds and tests with the tag (.ci/run, .ci/inside).
import _ "github.com/tsbench/tsbench/internal/targets/duckdb"
