//go:build !(duckdb && cgo)

package all

import "github.com/tsbench/tsbench/internal/targets"

// Without the build tag duckdb (or without cgo, as in the container
// image's static build) the duckdb target is left out: a run that names
// it is refused with the build command, and `tsbench targets` lists it so.
func init() {
	targets.RegisterLeftOut(targets.LeftOut{
		Name: "duckdb", Aliases: []string{"DuckDB"}, Tag: "duckdb",
		Needs: "cgo: CGO_ENABLED=1 and a C compiler",
	})
}
