package influxdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// The target passes the conformance suite against the real InfluxDB 1.x
// server started by scripts/services/influxdb.sh, with and without gzip.
func TestConformance(t *testing.T) {
	targettest.RequireServer(t, "influxdb", "127.0.0.1:8086")
	for _, gz := range []string{"false", "true"} {
		t.Run("gzip="+gz, func(t *testing.T) {
			targettest.Run(t, targettest.Suite{Driver: Driver,
				Options: targets.Options{Database: "tsbench_conformance", Extra: map[string]string{"gzip": gz}}})
		})
	}
}
