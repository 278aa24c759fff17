// Package all links every database target into the binary: import it for
// its side effect of registering them.
package all

import (
	_ "github.com/tsbench/tsbench/internal/targets/null"
	_ "github.com/tsbench/tsbench/internal/targets/sqlite"
)
