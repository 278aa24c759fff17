package dataset

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// lpBenchLines is the size of the generated line-protocol file: large
// enough that the import's fixed costs (files, manifest) do not decide it.
const lpBenchLines = 100_000

// writeLPBench writes a TSBS-style file of n lines (every field of a
// point on one line, two tags, ns timestamps; 100 hosts) and returns its
// path and size.
func writeLPBench(b *testing.B, n int) (string, int64) {
	b.Helper()
	path := filepath.Join(b.TempDir(), "bench.lp")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, "cpu,hostname=host_%d,region=eu-west-1,rack=r%d usage_user=%d.25,usage_system=%d.5,usage_idle=%di,on=%v,state=\"ok \\\"%d\\\"\" %d\n",
			i%100, i%7, i%97, i%13, 100-i%100, i%2 == 0, i%3, int64(1451606400+10*(i/100))*1e9)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	f.Close()
	return path, st.Size()
}

// BenchmarkImportLineProtocol imports a generated line-protocol file: the
// whole import (both passes, the sort, the dataset written), whose CPU
// the decoder's choice is measured against.
func BenchmarkImportLineProtocol(b *testing.B) {
	src, size := writeLPBench(b, lpBenchLines)
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Import(src, filepath.Join(b.TempDir(), fmt.Sprint(i)), ImportOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/lpBenchLines, "ns/line")
}

// BenchmarkParseLP decodes the benchmark file's lines alone: the share of
// the import the decoder's choice changes.
func BenchmarkParseLP(b *testing.B) {
	src, _ := writeLPBench(b, 10_000)
	var lines [][]byte
	if err := eachLine(src, func(text []byte, _ int64) error {
		lines = append(lines, append([]byte(nil), text...))
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	var p lpLine
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, l := range lines {
			if e := parseLP(l, &p); e != nil {
				b.Fatalf("column %d: %s", e.col, e.msg)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(lines)), "ns/line")
}
