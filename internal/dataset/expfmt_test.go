package dataset

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// dataTime is the DATA_TIME the exposition tests give scrapes without
// timestamps.
var dataTime = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

// Exposition files are found by content and read a sample a point, the
// series named as a JSON-line export's are: the metric name the sensor,
// the labels (sorted by name) the device.
func TestExpositionImport(t *testing.T) {
	at := dataTime.UnixMilli()
	cases := []struct {
		name, file, content string
		format              string   // of the dataset
		sensors, devices    []string // by name, in the dataset's order
		points              int64
		min, max            int64
		note                string // a note the import must make ("" for none)
	}{
		{name: "no timestamps", file: "node", format: "prometheus-text",
			content: "# HELP temp Temperature.\n# TYPE temp gauge\ntemp{room=\"a\",floor=\"1\"} 20.5\ntemp{room=\"b\",floor=\"1\"} 21\nup 1\n",
			sensors: []string{"temp", "up"}, devices: []string{"1_a", "1_b", "node"}, points: 3, min: at, max: at,
			note: "3 samples without a timestamp: placed at DATA_TIME, 2024-05-01T12:00:00Z"},
		{name: "timestamps", file: "ts.txt", format: "prometheus-text",
			content: "temp{room=\"a\"} 20.5 1700000000000\ntemp{room=\"a\"} 20.75 1700000015000\ntemp{room=\"b\"} 19 1700000015000\n",
			sensors: []string{"temp"}, devices: []string{"a", "b"}, points: 3, min: 1700000000000, max: 1700000015000},
		{name: "scrapes concatenated", file: "scrapes.prom", format: "prometheus-text",
			content: strings.Repeat("# HELP reqs Requests.\n# TYPE reqs counter\nreqs{code=\"200\"} 10\nreqs{code=\"500\"} 1\n# HELP up Up.\nup 1\n", 3),
			sensors: []string{"reqs", "up"}, devices: []string{"200", "500", "scrapes"}, points: 9, min: at, max: at + 2000,
			note: "9 samples without a timestamp"},
		{name: "escaped labels", file: "esc.prom", format: "prometheus-text",
			content: "files{path=\"C:\\\\dir\",quote=\"say \\\"hi\\\"\"} 3\nlines{text=\"one\\ntwo\"} 2\n",
			sensors: []string{"files", "lines"}, devices: []string{`C:\dir_say "hi"`, "one\ntwo"}, points: 2, min: at, max: at},
		{name: "summary and histogram", file: "sh.prom", format: "prometheus-text",
			content: "# TYPE rpc summary\nrpc{quantile=\"0.5\"} 0.25\nrpc{quantile=\"0.99\"} 1.5\nrpc_sum 30\nrpc_count 40\n" +
				"# TYPE size histogram\nsize_bucket{le=\"100\"} 3\nsize_bucket{le=\"+Inf\"} 5\nsize_sum 700\nsize_count 5\n",
			sensors: []string{"rpc", "rpc_count", "rpc_sum", "size_bucket", "size_count", "size_sum"},
			devices: []string{"+Inf", "0.5", "0.99", "100", "sh"}, points: 8, min: at, max: at},
		{name: "OpenMetrics", file: "om.txt", format: "openmetrics",
			content: "# TYPE jobs counter\n# UNIT jobs seconds\n# HELP jobs Jobs.\njobs_total{kind=\"x\"} 3 1700000000.5 # {trace_id=\"abc\"} 1 1700000000.25\n" +
				"jobs_created{kind=\"x\"} 1699999000 1700000000.5\njobs_total{kind=\"x\"} 4 1700000010.5\n# EOF\n",
			sensors: []string{"jobs_created", "jobs_total"}, devices: []string{"x"}, points: 3, min: 1700000000500, max: 1700000010500},
		{name: "NaN and Inf", file: "nan.prom", format: "prometheus-text",
			content: "a{x=\"1\"} NaN 1700000000000\na{x=\"1\"} +Inf 1700000001000\na{x=\"1\"} 2 1700000002000\n",
			sensors: []string{"a"}, devices: []string{"1"}, points: 1, min: 1700000000000, max: 1700000002000,
			note: "1 samples of ±Inf left out"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := writeTempFile(t, c.file, c.content)
			if f, err := detect([]string{src}); err != nil || f != "prometheus" {
				t.Fatalf("detected %q, %v: want prometheus", f, err)
			}
			m, err := Import(src, t.TempDir(), ImportOptions{Time: dataTime.Format(time.RFC3339)})
			if err != nil {
				t.Fatal(err)
			}
			var devices []string
			for _, d := range m.Devices {
				devices = append(devices, d.Name)
			}
			slices.Sort(devices)
			if m.Format != c.format || !slices.Equal(namesOf(m.Sensors), c.sensors) || !slices.Equal(devices, c.devices) ||
				m.Points() != c.points || m.MinTime != c.min || m.MaxTime != c.max {
				t.Fatalf("got %s sensors %q devices %q, %d points, %d..%d\nwant %s sensors %q devices %q, %d points, %d..%d",
					m.Format, namesOf(m.Sensors), devices, m.Points(), m.MinTime, m.MaxTime, c.format, c.sensors, c.devices, c.points, c.min, c.max)
			}
			if c.note != "" && !strings.Contains(strings.Join(m.Notes, "\n"), c.note) {
				t.Fatalf("notes %q, want one with %q", m.Notes, c.note)
			}
		})
	}
}

// Without DATA_TIME a scrape lands at the file's modification time, and
// the note says so.
func TestExpositionFileTime(t *testing.T) {
	src := writeTempFile(t, "metrics", "# TYPE up gauge\nup 1\n")
	m, err := Import(src, t.TempDir(), ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(m.Notes, "\n"), "placed at the file's modification time") || time.Since(time.UnixMilli(m.MinTime)) > time.Hour {
		t.Fatalf("min %d, notes %q", m.MinTime, m.Notes)
	}
}

// Files of other formats, and text that is not a sample, are not
// exposition; a bad sample names its line.
func TestExpositionNot(t *testing.T) {
	for _, c := range []struct{ file, content, want string }{
		{"a.txt", "time,device,value\n2024-01-01,d1,1\n", "csv"},
		{"a.data", "cpu,host=a usage=1 1700000000000000000\n", "influx"},
		{"b.data", `{"metric":{"__name__":"up"},"values":[1],"timestamps":[1700000000000]}` + "\n", "prometheus"},
		{"c.data", "hello world\n", ""},
		{"d.data", "# a comment\nname value extra words\n", ""},
	} {
		src := writeTempFile(t, c.file, c.content)
		if isExposition(src) {
			t.Errorf("%q read as exposition", c.content)
		}
		if f, _ := detect([]string{src}); f != c.want {
			t.Errorf("%q detected as %q, want %q", c.content, f, c.want)
		}
	}
	_, err := Import(writeTempFile(t, "bad.prom", "# TYPE up gauge\nup 1\nup{x=1} 2\n"), t.TempDir(), ImportOptions{Time: "2024-05-01T00:00:00Z"})
	if !IsInputError(err) || !strings.Contains(err.Error(), "bad.prom:3: not Prometheus text exposition") {
		t.Fatalf("got %v, want an InputError at line 3", err)
	}
}
