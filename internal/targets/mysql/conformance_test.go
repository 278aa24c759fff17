package mysql

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// Both write paths pass the conformance suite against the real MariaDB
// server started by scripts/services/mariadb.sh.
func TestConformance(t *testing.T) {
	targettest.RequireServer(t, "mariadb", "127.0.0.1:3307")
	for _, path := range []string{"insert", "load"} {
		t.Run(path, func(t *testing.T) {
			targettest.Run(t, targettest.Suite{Driver: Driver,
				Options: targets.Options{Database: "test", Extra: map[string]string{"write_path": path}}})
		})
	}
}
