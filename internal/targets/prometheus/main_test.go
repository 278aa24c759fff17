package prometheus

import (
	"testing"

	"github.com/tsbench/tsbench/internal/testenv"
)

// TestMain says in one line which tests were skipped for want of a server
// or tool (see testenv).
func TestMain(m *testing.M) { testenv.Main(m) }
