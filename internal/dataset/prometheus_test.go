package dataset

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// promLines are an export of two metrics of two instances, a series a
// line, 20 points each a minute apart.
func promLines() []string {
	var out []string
	for _, inst := range []string{"n1:9100", "n2:9100"} {
		for _, metric := range []string{"node_load1", "temp"} {
			var vs, tss []string
			for i := 0; i < 20; i++ {
				vs = append(vs, fmt.Sprintf("%d.25", i+len(metric)))
				tss = append(tss, fmt.Sprint(1700000000000+60000*int64(i)))
			}
			out = append(out, fmt.Sprintf(`{"metric":{"__name__":%q,"job":"node","instance":%q},"values":[%s],"timestamps":[%s]}`,
				metric, inst, strings.Join(vs, ","), strings.Join(tss, ",")))
		}
	}
	return out
}

func TestPrometheusImport(t *testing.T) {
	pts := importsAlike(t, []namedFile{
		{"export.jsonl", strings.Join(promLines(), "\n") + "\n"},
		{"export.json.gz", string(gzipped(t, strings.Join(shuffled(promLines()), "\n"), 1))},
	}, func(t *testing.T, m *Manifest) {
		wantSensors := []ts.Sensor{{Name: "node_load1", Type: ts.Double}, {Name: "temp", Type: ts.Double}}
		if m.Format != "prometheus" || !slices.Equal(m.Sensors, wantSensors) || len(m.Devices) != 2 || m.Rows != 40 ||
			m.MinTime != 1700000000000 || m.Step != 60000 {
			t.Fatalf("got %s %+v %d devices, %d rows, min %d step %d", m.Format, m.Sensors, len(m.Devices), m.Rows, m.MinTime, m.Step)
		}
		d := m.Devices[0]
		if d.Name != "n1:9100_node" || !slices.Equal(d.Tags, []ts.Tag{{Key: "instance", Value: "n1:9100"}, {Key: "job", Value: "node"}}) {
			t.Fatalf("device %+v", d)
		}
	})
	if len(pts) == 0 || pts[0] != "n1:9100_node node_load1 1700000000000 10.25" {
		t.Fatalf("first point of %d: %q", len(pts), pts[:min(1, len(pts))])
	}
}

func TestPrometheusErrors(t *testing.T) {
	const a = `{"metric":{"__name__":"t","host":"a"},"values":[1,2],"timestamps":[1700000000000,1700000060000]}`
	cases := []struct{ content, want string }{
		{a + "\n{\"metric\":{\"__name__\":\"t\"},\"values\":[1,2],\"timestamps\":[1]}\n", "p.jsonl:2: column 28: 2 values and 1 timestamps"},
		{`{"metric":{"host":"a"},"values":[],"timestamps":[]}`, `p.jsonl:1: column 2: the metric has no "__name__"`},
		{a + "\n{\"metric\":", "p.jsonl:2: column 10: not JSON"},
		{`{"metric":{"__name__":"t"},"values":[1,"Inf"],"timestamps":[1,2]}`, `p.jsonl:1: column 28: series t of p: values[1] is "Inf": want a finite number, or null or NaN`},
		{`{"metric":{"__name__":"t"},"values":["x"],"timestamps":["y"]}`, "p.jsonl:1: column"},
	}
	for _, c := range cases {
		_, err := Import(writeTempFile(t, "p.jsonl", c.content), t.TempDir(), ImportOptions{})
		if !IsInputError(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an InputError with %q", c.content, err, c.want)
		}
	}
}
