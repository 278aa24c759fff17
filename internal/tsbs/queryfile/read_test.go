package queryfile

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dumpQueries writes queries in the text form of the golden .gob.txt files
// (testdata/golden/gobdump.go), so that what Decode decodes is
// compared with what TSBS's files hold, field by field.
func dumpQueries(qs []Query) string {
	var b strings.Builder
	for i, q := range qs {
		fmt.Fprintf(&b, "=== query %d\nHumanLabel: %s\nHumanDescription: %s\n", i+1, q.HumanLabel, q.HumanDescription)
		if q.SQL != "" || q.Hypertable != "" {
			fmt.Fprintf(&b, "Hypertable: %s\nSqlQuery:\n%s\n", q.Hypertable, q.SQL)
		}
		if q.Method != "" || q.Path != "" {
			fmt.Fprintf(&b, "Method: %s\nPath: %s\nRawQuery: %s\nBody: %s\nStartTimestamp: %d\nEndTimestamp: %d\n",
				q.Method, q.Path, q.RawQuery, q.Body, q.StartTimestamp, q.EndTimestamp)
		}
	}
	return b.String()
}

func TestReadQueryFileGolden(t *testing.T) {
	files, err := filepath.Glob("../testdata/golden/*.gob")
	if err != nil || len(files) < 40 {
		t.Fatalf("golden query files: %d found (%v), want TSBS's 40 and more", len(files), err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			qs, err := Read(f)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(f + ".txt")
			if err != nil {
				t.Fatal(err)
			}
			if got := dumpQueries(qs); got != string(want) {
				t.Errorf("decoded queries differ from %s.txt:\n got %.300q\nwant %.300q", f, got, want)
			}
			if len(qs) != 4 {
				t.Errorf("%d queries, TSBS wrote 4 (--queries=4)", len(qs))
			}
			wantKind := "sql"
			if strings.Contains(f, "_victoriametrics_") || strings.Contains(f, "_influx_") {
				wantKind = "http"
			}
			for _, q := range qs {
				if q.Kind() != wantKind {
					t.Errorf("query %q is %s, want %s", q.HumanDescription, q.Kind(), wantKind)
				}
			}
		})
	}
}

func TestReadQueriesGzipped(t *testing.T) {
	raw, err := os.ReadFile("../testdata/golden/devops_timescaledb_cpu-max-all-1_seed123_scale4_2d_q4.gob")
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(raw)
	zw.Close()
	plain, err := Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := Decode(&z)
	if err != nil {
		t.Fatal(err)
	}
	if dumpQueries(plain) != dumpQueries(unzipped) {
		t.Error("the gzipped file reads otherwise than the plain one")
	}
	labels, counts := Types(plain)
	if len(labels) != 1 || counts[labels[0]] != 4 || !strings.HasPrefix(labels[0], "TimescaleDB max of all CPU metrics") {
		t.Errorf("query types %q %v, want one TimescaleDB max-of-all type with 4 queries", labels, counts)
	}
}

func TestReadQueriesRefuses(t *testing.T) {
	sqlFile, err := os.ReadFile("../testdata/golden/devops_timescaledb_lastpoint_seed123_scale4_1h_q4.gob")
	if err != nil {
		t.Fatal(err)
	}
	httpFile, err := os.ReadFile("../testdata/golden/devops_victoriametrics_cpu-max-all-1_seed123_scale4_2d_q4.gob")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, data, want string
	}{
		{"empty", "", "no queries"},
		{"text", "SELECT 1;\n", "not a TSBS query"},
		{"a truncated gzip", "\x1f\x8b\x08", "gzip"},
		// Two gob streams one after the other: the second's type
		// definition arrives again, which one decoder refuses.
		{"two formats", string(sqlFile) + string(httpFile), "query 5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(strings.NewReader(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
