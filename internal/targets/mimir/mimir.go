// Package mimir is the "mimir" target: Grafana Mimir written to by remote
// write (its distributor's /api/v1/push) and asked in PromQL (its
// /prometheus API). It is the prometheus target's code
// (prometheus.NewDriver) with Mimir's endpoints and settings; it stands
// apart as every target does, one package per database, which
// internal/targets/all imports.
package mimir

import (
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/prometheus"
)

// DefaultPort is where scripts/services/mimir.sh starts Mimir's HTTP
// server (QuestDB's scripts take 9009, Mimir's own default).
const DefaultPort = 9029

// Driver registers the target.
var Driver = prometheus.NewDriver(prometheus.Flavor{
	Name:    "mimir",
	Product: "Grafana Mimir",
	Alias:   "Mimir",
	Description: "Grafana Mimir: remote write 1.0 (write_path=remote-write-v2: 2.0; the prometheus workload's write_path=otlp: OTLP/HTTP metrics to /otlp/v1/metrics) to /api/v1/push; PromQL queries on /prometheus " +
		"(Q5, Q6 computed from the raw points a range selector returns)",
	Server:       "scripts/services/mimir.sh (Grafana Mimir, monolithic, on the filesystem, 127.0.0.1:9029)",
	DefaultPort:  DefaultPort,
	WritePath:    "/api/v1/push",
	OTLPPath:     "/otlp/v1/metrics",
	QueryPrefix:  "/prometheus",
	ReadyPath:    "/ready",
	V2:           true,
	HeadAtNow:    true, // the ingesters' TSDBs compact as Prometheus' does
	TenantHeader: "X-Scope-OrgID",
	// No storage size: Mimir's metrics give its ingesters' compacted
	// blocks only (none for hours: its head holds them), not their WAL.
})

func init() { targets.Register(Driver) }
