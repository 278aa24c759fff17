package main

// Names as users have them, replayed by the binary: a CSV file whose host
// column holds a dotted host name, quotes, brackets, a backslash and a
// comma, '=' and a space, non-ASCII letters, a reserved word and a leading
// digit, and whose sensor columns hold a space, brackets and '%', dots that
// differ only in case, and both quotes. Every target stores every point,
// verified, with every answer agreeing; where a server stores a name in
// another form, the run says so and keeps the mapping in its JSON.

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var (
	hostileHosts   = []string{"web01.example.com", "web01_example_com", `probe (north) "A" 'b'`, `C:\data\probe,1`, "k=v x", "Zürich/温度/東京", "select", "0day"}
	hostileSensors = []string{"cpu usage [%]", "temp.c", "Temp.C", `it's "q"`}
)

// writeNamesFile writes the hostile names file: rows rows per host, one a
// minute from 2024-01-01.
func writeNamesFile(t *testing.T, dir string, rows int) string {
	t.Helper()
	path := filepath.Join(dir, "names.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	w.Write(append([]string{"host", "time"}, hostileSensors...))
	for h, host := range hostileHosts {
		for k := 0; k < rows; k++ {
			rec := []string{host, fmt.Sprintf("2024-01-01T%02d:%02d:00Z", k/60, k%60)}
			for s := range hostileSensors {
				rec = append(rec, fmt.Sprintf("%d.%d", h*10+s, k))
			}
			w.Write(rec)
		}
	}
	w.Flush()
	if err := errors.Join(w.Error(), f.Close()); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestHostileNamesReplay(t *testing.T) {
	const rows = 20
	points := len(hostileHosts) * len(hostileSensors) * rows
	src := writeNamesFile(t, t.TempDir(), rows)
	for _, target := range []string{"sqlite", "postgres", "questdb", "victoriametrics", "influxdb", "iotdb"} {
		t.Run(target, func(t *testing.T) {
			requireTargetServer(t, target)
			dir := t.TempDir()
			jsonOut := filepath.Join(dir, "run.json")
			r := tsbench(t, []string{"TSBENCH_DATA_DIR=" + dir}, "run", "--target", target, "--data", src, "--json", jsonOut)
			out := r.stdout + r.stderr
			want := fmt.Sprintf("Verify: stored %d points, expected %d: OK", points, points)
			if r.code != 0 || !strings.Contains(out, want) {
				t.Fatalf("exit %d, want %q:\n%s", r.code, want, tail(out, 40))
			}
			if m := answersAgree.FindStringSubmatch(out); m == nil || m[1] != m[2] || m[1] == "0" {
				t.Fatalf("query answers did not all agree (%v):\n%s", m, tail(out, 40))
			}
			var s struct {
				NameMapping map[string]string `json:"name_mapping"`
			}
			b, err := os.ReadFile(jsonOut)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			if (len(s.NameMapping) > 0) != strings.Contains(out, "Names: ") {
				t.Errorf("name_mapping %v, and the Names line is missing or there is nothing to map:\n%s", s.NameMapping, tail(out, 20))
			}
			if target == "questdb" && s.NameMapping["sensor cpu usage [%]"] == "" {
				t.Errorf("questdb: no mapping kept for sensor %q: %v", "cpu usage [%]", s.NameMapping)
			}
		})
	}
}

// A name no mapping can carry is refused before anything is written, with
// exit 2 naming the name, the target and its rule: MariaDB's metadata
// tables hold names of at most 1,020 bytes.
func TestNameTooLongIsRefused(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "mysql")
	long := strings.Repeat("sensor-", 160) // 1,120 bytes
	dir := t.TempDir()
	src := writeInputFile(t, dir, "long.csv", "time,"+long+"\n2024-01-01T00:00:00Z,1\n2024-01-01T00:01:00Z,2\n")
	r := tsbench(t, []string{"TSBENCH_DATA_DIR=" + dir}, "run", "--target", "mysql", "--data", src)
	if r.code != 2 || !strings.Contains(r.stderr, "mysql: sensor") || !strings.Contains(r.stderr, "at most 1020 bytes") {
		t.Fatalf("exit %d, want 2 naming the sensor, mysql and its limit:\n%s", r.code, tail(r.stdout+r.stderr, 20))
	}
	if strings.Contains(r.stdout, "INGESTION") {
		t.Fatalf("the run went on to write:\n%s", tail(r.stdout, 20))
	}
}
