package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tsbench/tsbench/internal/summary"
)

// IoTBenchmarkCSV is the name of the single result file laid out as
// IoT-benchmark's data/csvOutput/*-test-result.csv.
const IoTBenchmarkCSV = "test-result.csv"

// iotBenchmarkCSV lays a run out as IoT-benchmark's one result file: the
// configuration, the Result Matrix and the Latency (ms) Matrix with its
// thirteen operations, the schema time and the elapsed time, with its line
// breaks (no blank line between the matrices, one before the schema cost)
// and its 2-decimal HALF_UP numbers. The configuration is one KEY,VALUE
// line per key, secrets redacted, where IoT-benchmark prints Java's text
// of its configuration object.
func iotBenchmarkCSV(s *summary.Summary) []byte {
	var b strings.Builder
	b.WriteString("Main Configurations\n")
	keys := slices.Sorted(maps.Keys(s.Config))
	for _, k := range keys {
		b.WriteString(csvField(k) + "," + csvField(fmt.Sprint(s.Config[k])) + "\n")
	}
	ops := matrixOps(s.Operations)
	b.WriteString("\nResult Matrix\n" + strings.Join(resultHeader, ","))
	for _, o := range ops {
		b.WriteString("\n" + o.Name + "," + strings.Join(resultCells(o), ","))
	}
	b.WriteString("\nLatency (ms) Matrix\nOperation," + strings.Join(latencyHeader, ",") + "\n")
	for _, o := range ops {
		b.WriteString(o.Name + "," + strings.Join(latencyRow(o), ",") + "\n")
	}
	fmt.Fprintf(&b, "\nSchema cost(s),%s\nTest elapsed time (not include schema creation)(s),%s\n",
		javaF2(s.SchemaSeconds), javaF2(s.Elapsed))
	return []byte(b.String())
}

// csvField quotes a field that holds a comma, a quote or a line break.
func csvField(v string) string {
	if !strings.ContainsAny(v, ",\"\r\n") {
		return v
	}
	return `"` + strings.ReplaceAll(v, `"`, `""`) + `"`
}
