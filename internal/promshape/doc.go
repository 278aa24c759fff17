// Package promshape models a Prometheus-shaped workload (issue 68, after
// VictoriaMetrics' prometheus-benchmark): Targets scrape targets, each
// exposing node_exporter-like metric families (counters, gauges, a classic
// histogram), scraped every Interval and written by remote write, with a
// share of the targets replaced every ChurnPeriod; and the read load of
// recording rules, alerting-rule expressions and dashboard range queries,
// each with the exact answer it must have.
//
// Every value is a pure function of the seed, the series' identity (slot,
// generation, series) and the scrape index, as in internal/gen: any scrape
// can be recomputed alone, by another worker or by a checker, and the
// expected answer of a query comes from the model alone, not from a
// database. Values are integers or multiples of a small power of two, so
// the sums the queries take are exact whatever order an engine adds in.
//
// The package does no I/O: the runner encodes the samples Scrape gives
// (internal/remotewrite) and sends the queries Queries lists.
package promshape
