//go:build cgo

package all

// chDB is loaded through cgo (dlopen at its first Open): a static build
// (CGO_ENABLED=0, the container image's) leaves this embedded engine out.
import _ "github.com/tsbench/tsbench/internal/targets/chdb"
