// Package thanos is the "thanos" target: Thanos Receive written to by
// remote write, Thanos Query asked in PromQL. It is the prometheus
// target's code (prometheus.NewDriver) with Thanos' endpoints and
// settings; it stands apart as every target does, one package per
// database, which internal/targets/all imports.
package thanos

import (
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/prometheus"
)

// Driver registers the target.
var Driver = prometheus.NewDriver(prometheus.Flavor{
	Name:    "thanos",
	Product: "Thanos",
	Alias:   "Thanos",
	Description: "Thanos Receive written by remote write 1.0 (it reads no 2.0; the prometheus workload's write_path=otlp: OTLP/HTTP metrics to /api/v1/otlp), Thanos Query asked in PromQL " +
		"(Q5, Q6 computed from the raw points a range selector returns)",
	Server: "scripts/services/thanos.sh (Thanos 0.42.5: Receive's remote write on 127.0.0.1:10908, Query on 10904)",
	// Writes go to Receive, on PORT; queries to Query, on the same host
	// at target.query_port.
	DefaultPort: 10908,
	QueryPort:   10904,
	WritePath:   "/api/v1/receive",
	OTLPPath:    "/api/v1/otlp",
	ReadyPath:   "/-/ready",
	// Receive takes a request of 2.0 for an empty one of 1.0 (and stores
	// nothing), so 2.0 is not offered.
	V2:           false,
	TenantHeader: "THANOS-TENANT",
	// Receive labels every series with its tenant and its external
	// labels (scripts/services/thanos.sh: thanos_receive="0").
	OwnLabels:   []string{"tenant_id", "thanos_receive"},
	QueryParams: "&partial_response=false",
	// Query asks Receive only about the times Receive said it holds,
	// learnt anew every few seconds: Setup starts a fresh Receive's head
	// at the epoch, waits for Query to know the times to cover
	// START_TIME, and refuses a START_TIME before the head of a Receive
	// written to before (prometheus.Target.waitStores).
	HeadAtEpoch: true,
	StoresPath:  "/api/v1/stores",
})

func init() { targets.Register(Driver) }
