package dataset

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gzipped compresses content, as several gzip members when parts > 1
// (cat a.gz b.gz makes such a file).
func gzipped(t *testing.T, content string, parts int) []byte {
	t.Helper()
	var out bytes.Buffer
	step := (len(content) + parts - 1) / parts
	for i := 0; i < len(content); i += step {
		zw := gzip.NewWriter(&out)
		if _, err := zw.Write([]byte(content[i:min(len(content), i+step)])); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return out.Bytes()
}

// A .gz file gives the dataset its plain file gives: its format, device
// name and tab separation are those of the name inside the .gz.
func TestGzipInput(t *testing.T) {
	cases := []struct{ name, content string }{
		{"weather.csv", strings.Join(weatherLines(), "\n") + "\n"},
		{"pump3.tsv", "time\tflow\n1767225600000\t1.25\n1767225601000\t1.5\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			plain := filepath.Join(dir, c.name)
			if err := os.WriteFile(plain, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			want := importPoints(t, plain)
			for _, parts := range []int{1, 3} {
				gz := filepath.Join(t.TempDir(), c.name+".gz")
				if err := os.WriteFile(gz, gzipped(t, c.content, parts), 0o644); err != nil {
					t.Fatal(err)
				}
				if got := importPoints(t, gz); !slices.Equal(got, want) || len(got) == 0 {
					t.Fatalf("%d gzip members: %d points, the plain file %d:\n%v\n%v", parts, len(got), len(want), got, want)
				}
			}
		})
	}
}

func importPoints(t *testing.T, src string) []string {
	t.Helper()
	out := t.TempDir()
	if _, err := Import(src, out, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	return points(t, out)
}

// A broken .gz file is an input error naming it; so is a gzipped Parquet
// file.
func TestGzipErrors(t *testing.T) {
	good := gzipped(t, "time,device,v\n"+strings.Repeat("1767225600000,d,1\n", 5000), 1)
	cases := []struct {
		name    string
		content []byte
		want    string
	}{
		{"plain.csv.gz", []byte("time,device,v\n1,d,1\n"), "plain.csv.gz: not a gzip file"},
		{"cut.csv.gz", good[:len(good)/2], "cut.csv.gz"},
		{"x.parquet.gz", good, "x.parquet.gz: a gzip-compressed Parquet file"},
	}
	for _, c := range cases {
		p := filepath.Join(t.TempDir(), c.name)
		if err := os.WriteFile(p, c.content, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Import(p, t.TempDir(), ImportOptions{})
		if !IsInputError(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an InputError with %q", c.name, err, c.want)

		}
	}
}
