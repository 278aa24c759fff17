package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkImportTimeFormat imports one CSV file of 50,000 rows whose times
// read by Go's layout when detected (2006/01/02 15:04:05) and by
// timefmt-go when given as DATA_TIME_FORMAT: the library's share of the
// import's CPU is the difference (issue 51 keeps it if under 10 %).
func BenchmarkImportTimeFormat(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("date,v,w\n")
	t0 := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 50_000; i++ {
		fmt.Fprintf(&sb, "%s,%d.5,%d\n", t0.Add(time.Duration(i)*time.Minute).Format("2006/01/02 15:04:05"), i%100, i%7)
	}
	src := filepath.Join(b.TempDir(), "times.csv")
	if err := os.WriteFile(src, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		o    ImportOptions
	}{{"detected-go-layout", ImportOptions{}}, {"DATA_TIME_FORMAT-timefmt", ImportOptions{TimeFormat: "%Y/%m/%d %H:%M:%S"}}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Import(src, b.TempDir(), c.o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseTime reads one time by Go's layout and by timefmt-go: the
// per-row cost BenchmarkImportTimeFormat's rows carry.
func BenchmarkParseTime(b *testing.B) {
	goLayout := timeParser{unit: "ms", layout: "2006/1/2 15:04:05", loc: time.UTC}
	read, err := strftimeReader("%Y/%m/%d %H:%M:%S", time.UTC)
	if err != nil {
		b.Fatal(err)
	}
	lib := timeParser{unit: "ms", read: read}
	for _, c := range []struct {
		name string
		p    timeParser
	}{{"go-layout", goLayout}, {"timefmt", lib}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, _, err := c.p.parse("2010/01/01 10:20:30"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
